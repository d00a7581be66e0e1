import SystemPackage

/// Reads a journal's frames one at a time, in order, from the frame holding a start sequence
/// number: the pull form of ``JournalReader/forEachFrame(from:_:)``. It holds one segment file
/// and one frame's records at a time, so memory does not grow with the journal.
///
/// Every check of `forEachFrame` applies: CRC32C before decompression, frame and segment
/// continuity, decryption; damage throws ``JournalError/corruption(_:)`` with its location.
public struct JournalFrameCursor: Sendable {
    private let reader: JournalReader
    private let start: UInt64
    private var index: Int
    /// The open segment: its scanner, name, the first sequence number of the next segment and
    /// the sequence number the next frame must start with (nil after a header-only seek).
    private var open: (scanner: SegmentScanner, name: String, nextSegmentStart: UInt64?, expected: UInt64?)?
    /// The sequence number the next segment must start with, once a frame has been read: a
    /// segment that does not continue its predecessor is a gap, never served as if whole.
    private var carried: (sequenceNumber: UInt64, segment: String)?
    private var isFinished: Bool

    init(reader: JournalReader, from start: UInt64) {
        self.reader = reader
        self.start = start
        isFinished = start < 1 || start > reader.lastSequenceNumber
        index = isFinished ? 0 : reader.segmentIndex(holding: start)
    }

    /// The next frame, or nil after the last one.
    /// - Throws: ``JournalError/corruption(_:)`` naming segment, offset and sequence;
    ///   `.encryptionKeyMissing`, `.wrongEncryptionKey`, `.ioFailure`.
    public mutating func next() throws(JournalError) -> JournalFrame? {
        while !isFinished {
            if open == nil {
                guard index < reader.segments.count else {
                    isFinished = true
                    return nil
                }
                try openSegment()
            }
            guard var segment = open else { continue }
            let step = try segment.scanner.next()
            switch step {
            case .end:
                open = nil
                index += 1
            case .damaged(let defect, let offset):
                isFinished = true
                throw JournalError.corruption(JournalProblem(
                    kind: defect.kind,
                    location: JournalLocation(segment: segment.name, offset: offset, sequenceNumber: segment.expected ?? start),
                    detail: defect.detail))
            case .frame(let header, let offset):
                if let expected = segment.expected, header.firstSequenceNumber != expected {
                    isFinished = true
                    throw JournalError.corruption(JournalProblem(
                        kind: .sequenceGap,
                        location: JournalLocation(segment: segment.name, offset: offset, sequenceNumber: expected),
                        detail: "frame starts at sequence \(header.firstSequenceNumber), expected \(expected)"))
                }
                if let nextSegmentStart = segment.nextSegmentStart, header.lastSequenceNumber >= nextSegmentStart {
                    isFinished = true
                    throw JournalError.corruption(JournalProblem(
                        kind: .sequenceGap,
                        location: JournalLocation(segment: segment.name, offset: offset, sequenceNumber: header.firstSequenceNumber),
                        detail: "frame holds sequences \(header.firstSequenceNumber)...\(header.lastSequenceNumber), but the next segment starts at \(nextSegmentStart)"))
                }
                segment.expected = header.lastSequenceNumber + 1
                carried = (header.lastSequenceNumber + 1, segment.name)
                open = segment
                if header.lastSequenceNumber < start { continue }
                return try decode(header, at: offset, in: segment)
            }
        }
        return nil
    }

    private mutating func openSegment() throws(JournalError) {
        let segment = reader.segments[index]
        let path = reader.directory.appending(segment.name)
        let fileSystem = reader.fileSystem
        let file = try withErrno("open", path) { () throws(Errno) in try fileSystem.openFile(at: path, writable: false) }
        let end = index == reader.segments.count - 1
            ? reader.lastSegmentEnd
            : try withErrno("size", path) { () throws(Errno) in try file.size() }
        var scanner = SegmentScanner(file: file, path: path, startOffset: Int64(SegmentHeader.size), endOffset: end)
        if let carried, carried.sequenceNumber != segment.firstSequenceNumber {
            isFinished = true
            throw JournalError.corruption(JournalProblem(
                kind: .sequenceGap,
                location: JournalLocation(segment: segment.name, offset: 0, sequenceNumber: carried.sequenceNumber),
                detail: "segment starts at sequence \(segment.firstSequenceNumber), expected \(carried.sequenceNumber): the previous segment \(carried.segment) ends at \(carried.sequenceNumber - 1)"))
        }
        // A segment holds only sequence numbers below the next segment's first: seeking by
        // segment name relies on it, so an overlap would give two answers for one number.
        let nextSegmentStart = index + 1 < reader.segments.count ? reader.segments[index + 1].firstSequenceNumber : nil
        // nil after a header-only seek: the frame landed on starts wherever it starts.
        var expected: UInt64? = segment.firstSequenceNumber
        if start > segment.firstSequenceNumber {
            let index = SegmentIndex.load(
                of: segment, firstSequenceNumber: segment.firstSequenceNumber, chainStart: nil,
                in: reader.directory, fileSystem: fileSystem)
            expected = try scanner.seek(to: start, index: index, segmentStart: segment.firstSequenceNumber)
        }
        open = (scanner, segment.name, nextSegmentStart, expected)
    }

    private mutating func decode(
        _ header: FrameHeader, at offset: Int64,
        in segment: (scanner: SegmentScanner, name: String, nextSegmentStart: UInt64?, expected: UInt64?)
    ) throws(JournalError) -> JournalFrame {
        let encryption = reader.encryption
        let decoded = segment.scanner.withFrameBytes(at: offset, header) {
            FrameDecoder.records(of: header, frame: $0, encryption: encryption)
        }
        let location = JournalLocation(segment: segment.name, offset: offset, sequenceNumber: header.firstSequenceNumber)
        switch decoded {
        case .failure(.keyMissing(let keyID)):
            isFinished = true
            throw JournalError.encryptionKeyMissing(keyID: keyID, location: location)
        case .failure(.decryptionFailed(let keyID)):
            isFinished = true
            throw JournalError.wrongEncryptionKey(keyID: keyID, location: location)
        case .failure(let defect):
            isFinished = true
            throw JournalError.corruption(JournalProblem(kind: defect.kind, location: location, detail: defect.detail))
        case .success(let records):
            return JournalFrame(
                segment: segment.name, offset: offset, firstSequenceNumber: header.firstSequenceNumber,
                storedBytes: header.storedLength, rawBytes: header.rawLength,
                isCompressed: header.isCompressed, chainValue: header.chainValue, records: records)
        }
    }
}
