import SystemPackage

extension SegmentScanner {
    /// Checks that the frame `hint` names is in this segment as named: a frame header that
    /// parses at `hint.offset`, a matching CRC32C, and the first sequence number (at least
    /// `segmentStart`), record count, length and chain value the hint gives. Returns the frame's
    /// header, or nil when any of it differs (the hint is then ignored, never trusted). Reads
    /// through the buffer, so the frames after it come with the same read; leaves the offset
    /// where it was.
    /// - Throws: `JournalError.ioFailure` when the bytes cannot be read.
    mutating func verify(_ hint: SegmentIndexEntry, segmentStart: UInt64) throws(JournalError) -> FrameHeader? {
        guard hint.offset >= Int64(SegmentHeader.size), hint.endOffset <= endOffset,
              hint.firstSequenceNumber >= segmentStart
        else { return nil }
        let saved = offset
        defer { move(to: saved) }
        move(to: hint.offset)
        guard case .frame(let header, let frameOffset) = try next(), hint.names(header, at: frameOffset) else { return nil }
        return header
    }

    /// Moves a scanner at the segment's first frame to the frame holding `sequenceNumber`, or
    /// the first frame after it: from the newest hint of `index` at or before it that verifies,
    /// else from the first frame, then
    /// over frame headers only (`skipFrames`). Returns the first sequence number of the frame
    /// at the new offset when it is known without trusting a skipped header: the verified
    /// hint's, when no header had to be skipped after it.
    /// - Throws: `JournalError.ioFailure` when the bytes cannot be read.
    mutating func seek(
        to sequenceNumber: UInt64, index: SegmentIndex?, segmentStart: UInt64
    ) throws(JournalError) -> UInt64? {
        if let hint = index?.hint(atOrBefore: sequenceNumber, endingBy: endOffset), hint.offset > offset,
           try verify(hint, segmentStart: segmentStart) != nil {
            move(to: hint.offset)
            try skipFrames(before: sequenceNumber)
            return offset == hint.offset ? hint.firstSequenceNumber : nil
        }
        let start = offset
        try skipFrames(before: sequenceNumber)
        return offset == start ? segmentStart : nil
    }
}
