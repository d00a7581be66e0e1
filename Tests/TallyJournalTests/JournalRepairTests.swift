import SystemPackage
import TallyJournal
import TallyTestSupport
import Testing

/// `JournalRepair` with the segment index: a repair reads every frame (it is asked to find
/// damage anywhere, also before the hint opening starts from), and what it leaves behind opens
/// and grows like any journal.
@Suite("JournalRepair")
struct JournalRepairTests {
    static let segmentName = "00000000000000000001.segment"

    @Test("damage before the index's newest hint, which opening does not read, is found by the repair plan; after the repair the journal opens, its stale hints are not trusted, and it grows")
    func repairFindsDamageBeforeTheHint() async throws {
        let fileSystem = try await IndexedJournal.closed(frames: 40)
        let third = try #require(try IndexedJournal.frames(fileSystem).first { $0.firstSequenceNumber == 3 })
        let segment = journalPath.appending(Self.segmentName)
        var bytes = try #require(fileSystem.contents(of: segment))
        bytes[Int(third.offset) + 130] ^= 0x08
        fileSystem.setContents(of: segment, to: bytes)
        #expect(try JournalReader.open(at: journalPath, fileSystem: fileSystem).lastSequenceNumber == 40, "opening starts at the hint")
        let plan = try JournalRepair.plan(at: journalPath, fileSystem: fileSystem)
        #expect(plan.keptThrough == 2)
        #expect(plan.cutSegment == Self.segmentName && plan.cutOffset == third.offset)
        #expect(plan.problems.first?.kind == .checksumMismatch)
        try JournalRepair.apply(plan, at: journalPath, setAsideDirectory: FilePath("/ledger/repair/1/journal"), fileSystem: fileSystem)
        let journal = try Journal.open(at: journalPath, options: IndexedJournal.options(), fileSystem: fileSystem)
        #expect(journal.lastSequenceNumber == 2 && journal.recoveryReport.isClean)
        try await IndexedJournal.append(5, to: journal, seed: 15)
        try journal.close()
        #expect(try readAll(journalPath, fileSystem: fileSystem).map(\.sequenceNumber) == Array(1...7))
        #expect(try JournalVerifier.verify(at: journalPath, fileSystem: fileSystem).isClean)
    }
}
