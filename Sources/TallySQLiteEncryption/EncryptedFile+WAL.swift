import GRDBSQLite

/// The WAL: a 32-byte header, then frames of a 24-byte frame header and one page. Headers
/// stay clear (salts, checksums, page numbers: no row data); each page is sealed as in the
/// database file, bound to its page number (from its frame header) and its frame index.
extension EncryptedFile {
    static let walHeaderBytes = 32
    static let frameHeaderBytes = 24

    /// Where an access falls in the WAL.
    enum WALSpan {
        case walHeader
        case frameHeader
        case framePage(frameIndex: UInt32)
        case wholeFrame(frameIndex: UInt32)
        case other
    }

    func walSpan(count: Int, offset: Int64) -> WALSpan {
        let headerBytes = Int64(Self.walHeaderBytes), frameHeader = Int64(Self.frameHeaderBytes)
        if offset >= 0, offset + Int64(count) <= headerBytes { return .walHeader }
        let relative = offset - headerBytes
        guard relative >= 0 else { return .other }
        if PageCipher.isPageSize(count) {
            let frameBytes = Int64(count) + frameHeader
            if relative >= frameHeader, (relative - frameHeader) % frameBytes == 0,
               let index = UInt32(exactly: (relative - frameHeader) / frameBytes) {
                return .framePage(frameIndex: index)
            }
            return .other
        }
        if count > Self.frameHeaderBytes, PageCipher.isPageSize(count - Self.frameHeaderBytes),
           relative % Int64(count) == 0, let index = UInt32(exactly: relative / Int64(count)) {
            return .wholeFrame(frameIndex: index)
        }
        if count <= Self.frameHeaderBytes, let pageBytes = walPageBytes() {
            let within = relative % (Int64(pageBytes) + frameHeader)
            if within + Int64(count) <= frameHeader { return .frameHeader }
        }
        return .other
    }

    func readWAL(_ buffer: UnsafeMutableRawPointer, count: Int, offset: Int64) -> Int32 {
        let span = walSpan(count: count, offset: offset)
        if case .other = span {
            return fail(.unsupportedAccess, offset: offset, result: SQLiteResultCode.ioErrorRead,
                        "SQLite read \(count) bytes at offset \(offset) of the WAL, not a header, a page or a frame")
        }
        let result = innerRead(buffer, count: count, offset: offset)
        guard result == SQLITE_OK else { return result }  // a short read is the end of the log
        switch span {
        case .walHeader:
            if offset == 0, count == Self.walHeaderBytes {
                walHeaderOfRebuild = [UInt8](UnsafeRawBufferPointer(start: buffer, count: count))
            }
            return SQLITE_OK
        case .frameHeader, .other:
            return SQLITE_OK
        case .framePage(let frameIndex):
            // A page SQLite found through the WAL index: damage is an error.
            guard let pageNumber = framePageNumber(frameHeaderOffset: offset - Int64(Self.frameHeaderBytes)) else {
                return fail(.truncatedPage, offset: offset, result: SQLiteResultCode.ioErrorRead,
                            "the frame header of WAL frame \(frameIndex) cannot be read")
            }
            return openPage(UnsafeMutableRawBufferPointer(start: buffer, count: count),
                            at: .init(fileKind: .wal, pageNumber: pageNumber, frameIndex: frameIndex), offset: offset)
        case .wholeFrame(let frameIndex):
            return openWholeFrame(UnsafeMutableRawBufferPointer(start: buffer, count: count), frameIndex: frameIndex, offset: offset)
        }
    }

    /// A whole frame is read by SQLite in two places, and both compute the frame's checksum
    /// over the page returned, which SQLite computed over the page in clear when it wrote it:
    ///
    /// - rebuilding the WAL index (`walIndexRecover`), frame after frame until one fails its
    ///   salts or its checksum: that is the end of the log;
    /// - committing a transaction that wrote a spilled page again in place
    ///   (`walRewriteChecksums`): the frames from the first one overwritten are read back to
    ///   recompute their checksums, and those appended after it carry zero salts and
    ///   checksums until then.
    ///
    /// So every page that authenticates is returned in clear, whatever the salts in its frame
    /// header say (they are for SQLite to judge). A page that fails authentication (a torn
    /// write at a crash, or damage) gets salts that differ from the WAL header's, so that
    /// SQLite ends the log there, exactly where it would for a frame whose checksum fails
    /// without encryption.
    ///
    /// Except when the log cannot end there: a frame that ends it (its page fails, or its salts
    /// or checksum would) followed by a whole later transaction of the same log (a commit frame
    /// after the one that ends the frame's own transaction, its salts the header's and its page
    /// authentic). A crash tears only the end of what was being written, so that is damage, and
    /// ending the log would drop committed transactions for good (SQLite deletes the WAL when
    /// the last connection closes): the read fails as `walFrameDamaged`, naming the frame.
    ///
    /// Only a rebuild's reads are checked so (a commit's read back frames whose checksums it is
    /// rewriting, each one not continuing the log until then).
    private func openWholeFrame(_ frame: UnsafeMutableRawBufferPointer, frameIndex: UInt32, offset: Int64) -> Int32 {
        let pageNumber = Self.bigEndianUInt32(frame[0..<4])
        let page = UnsafeMutableRawBufferPointer(rebasing: frame[Self.frameHeaderBytes...])
        let authentic = (try? cipher.open(page, at: .init(fileKind: .wal, pageNumber: pageNumber, frameIndex: frameIndex))) != nil
        guard let walHeader = walHeaderOfRebuild else {
            if !authentic { spoilSalts(of: frame) }
            return SQLITE_OK
        }
        let continuesLog = authentic && continuesLog(frame, frameIndex: frameIndex, walHeader: walHeader)
        if !continuesLog, laterTransactionFollows(frame, frameIndex: frameIndex, walHeader: walHeader) {
            let what = authentic ? "its salts or checksum do not continue the log" : "its page fails authentication"
            return fail(.walFrameDamaged, pageNumber: pageNumber, offset: offset,
                        result: SQLiteResultCode.ioErrorAuthentication,
                        "WAL frame \(frameIndex) is damaged (\(what)) and committed transactions follow it; ending the log there would lose them: keep the files and restore the folder from a backup")
        }
        if !authentic { spoilSalts(of: frame) }
        return SQLITE_OK
    }

    /// Whether SQLite takes `frame` (its page in clear) as the next one of the log: its salts are
    /// the WAL header's and its checksum continues the one before it (the previous frame's, or
    /// the header's for the first frame), computed as SQLite does over the first 8 bytes of the
    /// frame header and the page.
    private func continuesLog(_ frame: UnsafeMutableRawBufferPointer, frameIndex: UInt32, walHeader: [UInt8]) -> Bool {
        guard frame[8..<16].elementsEqual(walHeader[16..<24]) else { return false }
        var previous = [UInt8](repeating: 0, count: Self.frameHeaderBytes)
        if frameIndex == 0 {
            previous.replaceSubrange(16..<24, with: walHeader[24..<32])
        } else {
            let frameBytes = Int64(frame.count)
            let offset = Int64(Self.walHeaderBytes) + Int64(frameIndex - 1) * frameBytes
            guard readWALBytes(&previous, offset: offset) == SQLITE_OK else { return false }
        }
        var checksum = WALChecksum(
            bigEndian: Self.bigEndianUInt32(walHeader[0..<4]) & 1 == 1,
            first: Self.bigEndianUInt32(previous[16..<20]), second: Self.bigEndianUInt32(previous[20..<24]))
        checksum.add(UnsafeRawBufferPointer(rebasing: frame[0..<8]))
        checksum.add(UnsafeRawBufferPointer(rebasing: frame[Self.frameHeaderBytes...]))
        return checksum.first == Self.bigEndianUInt32(frame[16..<20]) && checksum.second == Self.bigEndianUInt32(frame[20..<24])
    }

    /// Whether a whole transaction of the log follows `frame`'s: reading on from the next frame
    /// while frames carry the WAL header's salts and authentic pages, a commit frame (a database
    /// size in its header) after the one that ends `frame`'s transaction (`frame` itself when it
    /// is a commit frame).
    private func laterTransactionFollows(_ frame: UnsafeMutableRawBufferPointer, frameIndex: UInt32, walHeader: [UInt8]) -> Bool {
        var transactionEnded = Self.bigEndianUInt32(frame[4..<8]) != 0
        var header = [UInt8](repeating: 0, count: Self.frameHeaderBytes)
        var next = [UInt8](repeating: 0, count: frame.count)
        var index = frameIndex
        while index < UInt32.max {
            index += 1
            let offset = Int64(Self.walHeaderBytes) + Int64(index) * Int64(frame.count)
            // The clear header first: the frames after the end of a log carry other salts.
            guard readWALBytes(&header, offset: offset) == SQLITE_OK, header[8..<16].elementsEqual(walHeader[16..<24]),
                  readWALBytes(&next, offset: offset) == SQLITE_OK
            else { return false }
            let authentic = next.withUnsafeMutableBytes { bytes in
                (try? cipher.open(UnsafeMutableRawBufferPointer(rebasing: bytes[Self.frameHeaderBytes...]),
                                  at: .init(fileKind: .wal, pageNumber: Self.bigEndianUInt32(bytes[0..<4]), frameIndex: index))) != nil
            }
            guard authentic else { return false }
            if Self.bigEndianUInt32(next[4..<8]) != 0 {
                if transactionEnded { return true }
                transactionEnded = true
            }
        }
        return false
    }

    /// Sets the salts of `frame`'s header to the WAL header's with the first byte flipped:
    /// SQLite then takes the frame for the end of the log.
    private func spoilSalts(of frame: UnsafeMutableRawBufferPointer) {
        var walHeader = [UInt8](repeating: 0, count: Self.walHeaderBytes)
        if let header = walHeaderOfRebuild { walHeader = header } else if readWALBytes(&walHeader, offset: 0) != SQLITE_OK { return }
        for index in 0..<8 { frame[8 + index] = walHeader[16 + index] }
        frame[8] ^= 0xFF
    }

    /// Reads `bytes.count` bytes of the WAL at `offset`, as they are in the file; a short read
    /// (the file ends) is `SQLITE_IOERR_SHORT_READ`.
    private func readWALBytes(_ bytes: inout [UInt8], offset: Int64) -> Int32 {
        bytes.withUnsafeMutableBytes { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return SQLiteResultCode.ioErrorRead }
            return innerRead(base, count: buffer.count, offset: offset)
        }
    }

    func writeWAL(_ buffer: UnsafeRawPointer, count: Int, offset: Int64) -> Int32 {
        walHeaderOfRebuild = nil
        switch walSpan(count: count, offset: offset) {
        case .walHeader, .frameHeader:
            return innerWrite(buffer, count: count, offset: offset)
        case .framePage(let frameIndex):
            // SQLite writes the frame header first, then the page.
            guard let pageNumber = framePageNumber(frameHeaderOffset: offset - Int64(Self.frameHeaderBytes)) else {
                return fail(.unsupportedAccess, offset: offset, result: SQLiteResultCode.ioErrorWrite,
                            "SQLite wrote the page of WAL frame \(frameIndex) before its frame header")
            }
            return sealAndWrite(UnsafeRawBufferPointer(start: buffer, count: count),
                                at: .init(fileKind: .wal, pageNumber: pageNumber, frameIndex: frameIndex), offset: offset)
        case .wholeFrame(let frameIndex):
            let frame = UnsafeRawBufferPointer(start: buffer, count: count)
            let headerResult = innerWrite(buffer, count: Self.frameHeaderBytes, offset: offset)
            guard headerResult == SQLITE_OK else { return headerResult }
            let pageNumber = Self.bigEndianUInt32(frame[0..<4])
            return sealAndWrite(UnsafeRawBufferPointer(rebasing: frame[Self.frameHeaderBytes...]),
                                at: .init(fileKind: .wal, pageNumber: pageNumber, frameIndex: frameIndex),
                                offset: offset + Int64(Self.frameHeaderBytes))
        case .other:
            return fail(.unsupportedAccess, offset: offset, result: SQLiteResultCode.ioErrorWrite,
                        "SQLite wrote \(count) bytes at offset \(offset) of the WAL, not a header, a page or a frame")
        }
    }

    /// The page number in the frame header at `frameHeaderOffset`, read from the file.
    private func framePageNumber(frameHeaderOffset: Int64) -> UInt32? {
        var header = [UInt8](repeating: 0, count: Self.frameHeaderBytes)
        guard readWALBytes(&header, offset: frameHeaderOffset) == SQLITE_OK else { return nil }
        let pageNumber = Self.bigEndianUInt32(header[0..<4])
        return pageNumber == 0 ? nil : pageNumber
    }

    /// The page size in the WAL header, read from the file.
    private func walPageBytes() -> Int? {
        var header = [UInt8](repeating: 0, count: Self.walHeaderBytes)
        guard readWALBytes(&header, offset: 0) == SQLITE_OK else { return nil }
        let pageBytes = Int(Self.bigEndianUInt32(header[8..<12]))
        return PageCipher.isPageSize(pageBytes) ? pageBytes : nil
    }

    static func bigEndianUInt32<Bytes: Collection>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }
}

/// SQLite's WAL checksum (the file format's "Checksum Algorithm"): two 32-bit sums over 32-bit
/// words taken in pairs, big-endian or native as the WAL header's magic number says. SQLite does
/// not export it; the VFS needs it to tell where SQLite will end the log.
struct WALChecksum {
    let bigEndian: Bool
    var first: UInt32
    var second: UInt32

    /// Adds `bytes` (a multiple of 8 bytes: a frame header's first 8, a page).
    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset + 8 <= bytes.count {
            let word0 = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            let word1 = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
            let x0 = bigEndian ? UInt32(bigEndian: word0) : UInt32(littleEndian: word0)
            let x1 = bigEndian ? UInt32(bigEndian: word1) : UInt32(littleEndian: word1)
            first = first &+ x0 &+ second
            second = second &+ x1 &+ first
            offset += 8
        }
    }
}
