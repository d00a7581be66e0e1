import SystemPackage

/// Walks the frames of one segment file through a read buffer, checking each frame's header
/// and CRC32C. Used by recovery, readers, seeking and verification.
struct SegmentScanner {
    enum Step {
        /// A frame whose header and checksum are valid, at `offset`.
        case frame(FrameHeader, offset: Int64)
        /// Bytes at `offset` that are not a valid frame.
        case damaged(FrameDecoder.Defect, offset: Int64)
        /// The end of the readable range.
        case end
    }

    let file: any JournalFile
    let path: FilePath
    /// Bytes past this offset are not read (the file's size, or a writer's committed end).
    let endOffset: Int64
    /// The offset of the next frame.
    private(set) var offset: Int64
    private var buffer: [UInt8] = []
    private var bufferStart: Int64 = 0
    private let chunkBytes: Int

    init(file: any JournalFile, path: FilePath, startOffset: Int64, endOffset: Int64, chunkBytes: Int = 1 << 20) {
        self.file = file
        self.path = path
        self.offset = startOffset
        self.endOffset = endOffset
        self.chunkBytes = chunkBytes
    }

    /// Checks the frame at the current offset and moves past it when it is valid.
    mutating func next() throws(JournalError) -> Step {
        let start = offset
        guard start < endOffset else { return .end }
        let available = Int(min(endOffset - start, Int64(Int.max)))
        let headerBytes = min(FrameHeader.size, available)
        try ensureBuffered(from: start, count: headerBytes)
        let header: FrameHeader
        switch withBytes(from: start, count: headerBytes, FrameHeader.decode) {
        case .success(let decoded): header = decoded
        case .failure(let defect): return .damaged(.header(defect), offset: start)
        }
        guard header.frameBytes <= available else {
            return .damaged(.truncated(needed: header.frameBytes, available: available), offset: start)
        }
        try ensureBuffered(from: start, count: header.frameBytes)
        switch withBytes(from: start, count: header.frameBytes, FrameDecoder.checkedHeader) {
        case .success:
            offset = start + Int64(header.frameBytes)
            return .frame(header, offset: start)
        case .failure(let defect):
            return .damaged(defect, offset: start)
        }
    }

    /// The bytes of the frame that `next()` just returned.
    func withFrameBytes<R>(at frameOffset: Int64, _ header: FrameHeader, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withBytes(from: frameOffset, count: header.frameBytes, body)
    }

    /// Searches forward from `offset + 1` for the next offset where a valid frame starts.
    mutating func findNextValidFrame(after damagedOffset: Int64) throws(JournalError) -> (FrameHeader, Int64)? {
        var candidate = damagedOffset + 1
        let magicFirst = FrameHeader.magic[0]
        while candidate + Int64(FrameHeader.size) <= endOffset {
            let window = Int(min(Int64(chunkBytes), endOffset - candidate))
            try ensureBuffered(from: candidate, count: window)
            let hit: Int? = withBytes(from: candidate, count: window) { bytes in bytes.firstIndex(of: magicFirst) }
            guard let hit else {
                candidate += Int64(window)
                continue
            }
            let position = candidate + Int64(hit)
            let savedOffset = offset
            offset = position
            let step = try next()
            offset = savedOffset
            if case .frame(let header, _) = step { return (header, position) }
            candidate = position + 1
        }
        return nil
    }

    /// Seeks to the frame holding `sequenceNumber` by parsing only frame headers: payloads
    /// before it are neither checksummed nor decompressed. Stops early at a header that does not
    /// parse, leaving the full check of `next()` to report it. Headers are read through the
    /// buffer (one read for many small frames); after a frame larger than the read-ahead
    /// window only the next header's 96 bytes are read.
    mutating func skipFrames(before sequenceNumber: UInt64) throws(JournalError) {
        var readAhead = true
        while offset + Int64(FrameHeader.size) <= endOffset {
            let start = offset
            try ensureBuffered(from: start, count: FrameHeader.size, readingAhead: readAhead)
            guard case .success(let header) = withBytes(from: start, count: FrameHeader.size, FrameHeader.decode),
                  header.lastSequenceNumber < sequenceNumber,
                  start + Int64(header.frameBytes) <= endOffset
            else { return }
            offset = start + Int64(header.frameBytes)
            readAhead = header.frameBytes <= chunkBytes / 16
        }
    }

    /// Moves to `newOffset` (a frame boundary found by seeking or resync).
    mutating func move(to newOffset: Int64) {
        offset = newOffset
    }

    private func withBytes<R>(from start: Int64, count: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let lower = Int(start - bufferStart)
        return try buffer.withUnsafeBytes { all in
            try body(UnsafeRawBufferPointer(rebasing: all[lower..<(lower + count)]))
        }
    }

    private mutating func ensureBuffered(from start: Int64, count: Int, readingAhead: Bool = true) throws(JournalError) {
        if start >= bufferStart && start + Int64(count) <= bufferStart + Int64(buffer.count) { return }
        let wanted = Int(min(Int64(readingAhead ? max(count, chunkBytes) : count), endOffset - start))
        let file = self.file
        let bytes = try withErrno("read", path) { () throws(Errno) in try file.readBytes(count: wanted, at: start) }
        guard bytes.count >= count else {
            throw .ioFailure(operation: "read (file shrank)", path: path.string, errno: Errno.ioError.rawValue)
        }
        buffer = bytes
        bufferStart = start
    }
}
