import SystemPackage

/// Where one segment's frames end: the sequence number and chain value the next segment must
/// start from. Segments form one chain: the first starts at sequence 1 from the genesis chain
/// value, and each later one starts exactly where the previous one ended, so a missing,
/// misnumbered or foreign segment is corruption, never a silent gap.
struct SegmentContinuity: Sendable, Hashable {
    var nextSequenceNumber: UInt64
    var chainValue: ChainValue
    /// The segment this end belongs to; nil before the first segment.
    var segment: String?

    /// What the first segment of every journal starts from.
    static let journalStart = SegmentContinuity(nextSequenceNumber: 1, chainValue: .genesis, segment: nil)

    /// Checks that `header`, read from `segment`, continues this end.
    ///
    /// - Throws: `JournalError.corruption` of kind `sequenceGap` (location: the segment, offset
    ///   0, the sequence number expected there) or `segmentChainMismatch`.
    func check(_ header: SegmentHeader, of segment: SegmentFile) throws(JournalError) {
        let after = self.segment.map { "the previous segment \($0) ends at sequence \(nextSequenceNumber - 1)" }
            ?? "the first segment of a journal starts at sequence 1"
        guard header.firstSequenceNumber == nextSequenceNumber else {
            let what = header.firstSequenceNumber > nextSequenceNumber
                ? "records \(nextSequenceNumber)...\(header.firstSequenceNumber - 1) are missing (a segment was deleted or renamed)"
                : "it overlaps the records before it (a segment is misnumbered or out of place)"
            throw .corruption(JournalProblem(
                kind: .sequenceGap,
                location: JournalLocation(segment: segment.name, offset: 0, sequenceNumber: nextSequenceNumber),
                detail: "segment starts at sequence \(header.firstSequenceNumber), expected \(nextSequenceNumber): \(after); \(what). Restore the missing segment from a backup"))
        }
        guard header.chainStart == chainValue else {
            throw .corruption(JournalProblem(
                kind: .segmentChainMismatch,
                location: JournalLocation(segment: segment.name, offset: 0, sequenceNumber: nextSequenceNumber),
                detail: "segment starts its chain from \(header.chainStart), expected \(chainValue) (\(after)): the segment belongs to another journal or replaced the original"))
        }
    }

    /// The end of a sealed (not last) segment, found by walking its frame headers (one 96-byte
    /// read per frame; payloads are not read) and checking the last frame's CRC32C.
    ///
    /// Returns nil when the walk does not reach the end of the file exactly, or the last frame
    /// is damaged: the damage is then reported where it is, by readers (at that frame) and the
    /// verifier, rather than as a misplaced continuity error here.
    static func end(
        of segment: SegmentFile, header: SegmentHeader, in directory: FilePath, fileSystem: any FileSystem
    ) throws(JournalError) -> SegmentContinuity? {
        let path = directory.appending(segment.name)
        let file = try withErrno("open", path) { () throws(Errno) in try fileSystem.openFile(at: path, writable: false) }
        let size = try withErrno("size", path) { () throws(Errno) in try file.size() }
        var scanner = SegmentScanner(
            file: file, path: path, startOffset: Int64(SegmentHeader.size), endOffset: size, chunkBytes: FrameHeader.size)
        guard let lastOffset = try scanner.lastFrameOffsetByHeaders() else {
            // No frame at all: only a segment holding nothing but its header ends where it starts.
            guard size == Int64(SegmentHeader.size) else { return nil }
            return SegmentContinuity(
                nextSequenceNumber: header.firstSequenceNumber, chainValue: header.chainStart, segment: segment.name)
        }
        scanner.move(to: lastOffset)
        guard case .frame(let last, _) = try scanner.next() else { return nil }
        return SegmentContinuity(
            nextSequenceNumber: last.lastSequenceNumber + 1, chainValue: last.chainValue, segment: segment.name)
    }
}
