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

    /// Checks a sealed (not last) segment's frames (header, CRC32C and sequence number of each)
    /// and returns where they end, or the first damage in them. Only the frames after the
    /// newest hint of the segment's index that verifies are walked (usually none: the writer
    /// leaves the last frame in the index's tail slot when it rotates); without one, every
    /// frame. A walk from a hint that meets damage walks again from the first frame, so the
    /// damage reported is the first in the segment and never depends on the index.
    ///
    /// A sealed segment was synced before the next one was created, so nothing in it is a torn
    /// write: any defect is damage to acknowledged records, and a writer must not extend the
    /// journal. Damage before a verified hint is not looked for here: readers find it when they
    /// read that frame, and `JournalVerifier` reads every frame.
    static func walk(
        _ segment: SegmentFile, header: SegmentHeader, in directory: FilePath, fileSystem: any FileSystem,
        entryIntervalBytes: Int64, usingIndex: Bool = true
    ) throws(JournalError) -> SegmentWalk {
        let path = directory.appending(segment.name)
        let file = try withErrno("open", path) { () throws(Errno) in try fileSystem.openFile(at: path, writable: false) }
        let size = try withErrno("size", path) { () throws(Errno) in try file.size() }
        var scanner = SegmentScanner(file: file, path: path, startOffset: Int64(SegmentHeader.size), endOffset: size)
        let index = usingIndex ? SegmentIndex.load(of: segment, header: header, in: directory, fileSystem: fileSystem) : nil
        let (position, stop) = try SegmentPosition.walk(
            header, index: index, scanner: &scanner, entryIntervalBytes: entryIntervalBytes)
        let end = SegmentContinuity(
            nextSequenceNumber: position.nextSequenceNumber, chainValue: position.chainValue, segment: segment.name)
        let plan = position.indexPlan(for: segment, header: header, index: index)
        guard case .damaged(let kind, let detail, let offset) = stop else {
            return SegmentWalk(end: end, validEnd: position.offset, fileSize: size, damage: nil, indexPlan: plan)
        }
        let location = JournalLocation(segment: segment.name, offset: offset, sequenceNumber: position.nextSequenceNumber)
        let explained = kind == .sequenceGap
            ? detail
            : "\(detail) in the sealed segment \(segment.name) (synced before the next segment was created: damage, not a torn write)"
        return SegmentWalk(
            end: end, validEnd: offset, fileSize: size,
            damage: JournalProblem(kind: kind, location: location, detail: explained), indexPlan: plan)
    }
}

/// The result of walking a sealed segment: where its valid frames end and the damage, if any.
struct SegmentWalk: Sendable {
    /// The sequence number and chain value after the last valid frame.
    var end: SegmentContinuity
    /// The offset after the last valid frame.
    var validEnd: Int64
    /// The segment file's size.
    var fileSize: Int64
    /// The first damage, when the walk did not reach the end of the file.
    var damage: JournalProblem?
    /// What the segment's index should hold.
    var indexPlan: SegmentIndexPlan
}
