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
        case .walHeader, .frameHeader, .other:
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
    private func openWholeFrame(_ frame: UnsafeMutableRawBufferPointer, frameIndex: UInt32, offset: Int64) -> Int32 {
        let pageNumber = Self.bigEndianUInt32(frame[0..<4])
        let page = UnsafeMutableRawBufferPointer(rebasing: frame[Self.frameHeaderBytes...])
        do {
            try cipher.open(page, at: .init(fileKind: .wal, pageNumber: pageNumber, frameIndex: frameIndex))
            return SQLITE_OK
        } catch {
            return spoilSalts(of: frame)
        }
    }

    /// Sets the salts of `frame`'s header to the WAL header's with the first byte flipped:
    /// SQLite then takes the frame for the end of the log.
    private func spoilSalts(of frame: UnsafeMutableRawBufferPointer) -> Int32 {
        var walHeader = [UInt8](repeating: 0, count: Self.walHeaderBytes)
        let headerResult = walHeader.withUnsafeMutableBytes { bytes -> Int32 in
            guard let base = bytes.baseAddress else { return SQLiteResultCode.ioErrorRead }
            return innerRead(base, count: Self.walHeaderBytes, offset: 0)
        }
        guard headerResult == SQLITE_OK else { return headerResult }
        for index in 0..<8 { frame[8 + index] = walHeader[16 + index] }
        frame[8] ^= 0xFF
        return SQLITE_OK
    }

    func writeWAL(_ buffer: UnsafeRawPointer, count: Int, offset: Int64) -> Int32 {
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
        let result = header.withUnsafeMutableBytes { bytes -> Int32 in
            guard let base = bytes.baseAddress else { return SQLiteResultCode.ioErrorRead }
            return innerRead(base, count: Self.frameHeaderBytes, offset: frameHeaderOffset)
        }
        guard result == SQLITE_OK else { return nil }
        let pageNumber = Self.bigEndianUInt32(header[0..<4])
        return pageNumber == 0 ? nil : pageNumber
    }

    /// The page size in the WAL header, read from the file.
    private func walPageBytes() -> Int? {
        var header = [UInt8](repeating: 0, count: Self.walHeaderBytes)
        let result = header.withUnsafeMutableBytes { bytes -> Int32 in
            guard let base = bytes.baseAddress else { return SQLiteResultCode.ioErrorRead }
            return innerRead(base, count: Self.walHeaderBytes, offset: 0)
        }
        guard result == SQLITE_OK else { return nil }
        let pageBytes = Int(Self.bigEndianUInt32(header[8..<12]))
        return PageCipher.isPageSize(pageBytes) ? pageBytes : nil
    }

    static func bigEndianUInt32<Bytes: Collection>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }
}
