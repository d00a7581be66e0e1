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

    /// Walks every frame of a sealed (not last) segment, checking each frame's header, CRC32C
    /// and sequence number, and returns where it ends, or the first damage in it. A sealed
    /// segment was synced before the next one was created, so nothing in it is a torn write:
    /// any defect is damage to acknowledged records, and a writer must not extend the journal.
    static func walk(
        _ segment: SegmentFile, header: SegmentHeader, in directory: FilePath, fileSystem: any FileSystem
    ) throws(JournalError) -> SegmentWalk {
        let path = directory.appending(segment.name)
        let file = try withErrno("open", path) { () throws(Errno) in try fileSystem.openFile(at: path, writable: false) }
        let size = try withErrno("size", path) { () throws(Errno) in try file.size() }
        var scanner = SegmentScanner(file: file, path: path, startOffset: Int64(SegmentHeader.size), endOffset: size)
        var end = SegmentContinuity(
            nextSequenceNumber: header.firstSequenceNumber, chainValue: header.chainStart, segment: segment.name)
        while true {
            let step = try scanner.next()
            switch step {
            case .end:
                return SegmentWalk(end: end, validEnd: scanner.offset, fileSize: size, damage: nil)
            case .frame(let frame, let offset) where frame.firstSequenceNumber != end.nextSequenceNumber:
                return SegmentWalk(end: end, validEnd: offset, fileSize: size, damage: JournalProblem(
                    kind: .sequenceGap,
                    location: JournalLocation(segment: segment.name, offset: offset, sequenceNumber: end.nextSequenceNumber),
                    detail: "frame starts at sequence \(frame.firstSequenceNumber), expected \(end.nextSequenceNumber)"))
            case .frame(let frame, _):
                end.nextSequenceNumber = frame.lastSequenceNumber + 1
                end.chainValue = frame.chainValue
            case .damaged(let defect, let offset):
                return SegmentWalk(end: end, validEnd: offset, fileSize: size, damage: JournalProblem(
                    kind: defect.kind,
                    location: JournalLocation(segment: segment.name, offset: offset, sequenceNumber: end.nextSequenceNumber),
                    detail: "\(defect.detail) in the sealed segment \(segment.name) (synced before the next segment was created: damage, not a torn write)"))
            }
        }
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
}
