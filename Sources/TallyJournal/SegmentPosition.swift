/// Where a walk over one segment's frames stands: the offset of the next frame, the sequence
/// number and chain value it must continue, the last valid frame, and the index entries the
/// segment's index should hold for the frames behind it. Recovery, readers and the sealed
/// segments' check walk with it, from the segment's first frame or from a verified index hint.
struct SegmentPosition: Sendable {
    /// Why a walk stopped.
    enum Stop: Sendable {
        /// The end of the readable range, after a valid frame (or none).
        case end
        /// Bytes at `offset` that are not the next valid frame.
        case damaged(JournalProblem.Kind, detail: String, offset: Int64)
    }

    /// The offset of the next frame: after the last valid one.
    var offset: Int64
    var nextSequenceNumber: UInt64
    var chainValue: ChainValue
    /// The last valid frame behind this position and its offset, when there is one.
    var lastFrame: (header: FrameHeader, offset: Int64)?
    /// The entries the index should hold for the frames behind this position, oldest first.
    var entries: [SegmentIndexEntry] = []
    /// True when the walk started after a verified hint instead of at the first frame.
    var startedAtHint = false

    /// The position before the first frame of the segment `header` describes.
    static func start(of header: SegmentHeader) -> SegmentPosition {
        SegmentPosition(
            offset: Int64(SegmentHeader.size), nextSequenceNumber: header.firstSequenceNumber,
            chainValue: header.chainStart, lastFrame: nil)
    }

    /// The position after the newest hint of `index` that verifies (`SegmentScanner.verify`),
    /// keeping the index's entries up to it; the segment's first frame when there is no such
    /// hint. Moves `scanner` to the position.
    /// - Throws: `JournalError.ioFailure` when the hinted frame cannot be read.
    static func start(
        of header: SegmentHeader, index: SegmentIndex?, scanner: inout SegmentScanner
    ) throws(JournalError) -> SegmentPosition {
        var position = start(of: header)
        if let index, let hint = index.newestHint(endingBy: scanner.endOffset),
           let frame = try scanner.verify(hint, segmentStart: header.firstSequenceNumber) {
            position = SegmentPosition(
                offset: hint.endOffset, nextSequenceNumber: frame.lastSequenceNumber + 1,
                chainValue: frame.chainValue, lastFrame: (frame, hint.offset),
                entries: index.entries.filter { $0.endOffset <= hint.endOffset }, startedAtHint: true)
        }
        scanner.move(to: position.offset)
        return position
    }

    /// Walks the segment `header` describes from the newest hint of `index` that verifies (from
    /// its first frame without one) to the end of the scanner's range or the first bytes that
    /// are not the next valid frame. Nothing but a clean end is decided on a hint's word: a walk
    /// from a hint that stops anywhere else walks again from the first frame, and its stop and
    /// position are the ones returned.
    static func walk(
        _ header: SegmentHeader, index: SegmentIndex?, scanner: inout SegmentScanner, entryIntervalBytes: Int64
    ) throws(JournalError) -> (SegmentPosition, Stop) {
        var position = try start(of: header, index: index, scanner: &scanner)
        var stop = try position.walk(&scanner, entryIntervalBytes: entryIntervalBytes)
        if case .damaged = stop, position.startedAtHint {
            position = start(of: header)
            scanner.move(to: position.offset)
            stop = try position.walk(&scanner, entryIntervalBytes: entryIntervalBytes)
        }
        return (position, stop)
    }

    /// Walks the frames from here (header, CRC32C and sequence continuity of each) until the
    /// end of the scanner's range or the first bytes that are not the next valid frame, adding
    /// an index entry whenever `entryIntervalBytes` of frames have passed since the last one.
    mutating func walk(_ scanner: inout SegmentScanner, entryIntervalBytes: Int64) throws(JournalError) -> Stop {
        var lastEntryEnd = entries.last?.endOffset ?? Int64(SegmentHeader.size)
        while true {
            switch try scanner.next() {
            case .end:
                return .end
            case .frame(let frame, let frameOffset) where frame.firstSequenceNumber != nextSequenceNumber:
                return .damaged(
                    .sequenceGap, detail: "frame starts at sequence \(frame.firstSequenceNumber), expected \(nextSequenceNumber)",
                    offset: frameOffset)
            case .frame(let frame, let frameOffset):
                let entry = SegmentIndexEntry(frame, at: frameOffset)
                offset = entry.endOffset
                nextSequenceNumber = frame.lastSequenceNumber + 1
                chainValue = frame.chainValue
                lastFrame = (frame, frameOffset)
                if entry.endOffset - lastEntryEnd >= entryIntervalBytes {
                    entries.append(entry)
                    lastEntryEnd = entry.endOffset
                }
            case .damaged(let defect, let frameOffset):
                return .damaged(defect.kind, detail: defect.detail, offset: frameOffset)
            }
        }
    }

    /// What the segment's index should say after a walk that ended here, compared with what
    /// `index` (read before the walk) says.
    func indexPlan(for segment: SegmentFile, header: SegmentHeader, index: SegmentIndex?) -> SegmentIndexPlan {
        let tail = lastFrame.map { SegmentIndexEntry($0.header, at: $0.offset) }
        let isCurrent = (index?.entries ?? []) == entries && index?.tail == tail && (index?.firstEntryNumber ?? 0) == 0
        return SegmentIndexPlan(
            segment: segment, header: header, entries: entries, tail: tail, isCurrent: isCurrent, hasFile: index != nil)
    }
}

/// What a segment's index should hold after opening: its entries and its tail slot (the last
/// valid frame). `isCurrent` when the file already says exactly that (or there is nothing to
/// say and no file), so the writer writes nothing.
struct SegmentIndexPlan: Sendable {
    var segment: SegmentFile
    var header: SegmentHeader
    var entries: [SegmentIndexEntry]
    var tail: SegmentIndexEntry?
    var isCurrent: Bool
    /// Whether a valid index file of the segment was read.
    var hasFile: Bool
}
