import SystemPackage
import TallyJournal
import TallyTestSupport
import Testing

/// A process killed without a power loss leaves written but unsynced frames in the page cache.
/// The next open recovers them and reports them as the journal's content; they must then be on
/// stable storage, so a later power loss cannot take back records that open already exposed.
/// Found by the ledger simulation (seed 4242 with one client: a failed fdatasync, a kill, a
/// reopen that served the records, then a crash that lost them).
@Suite("Journal recovery after a process kill")
struct JournalKillRecoveryTests {
    @Test("records recovered from the page cache are durable once open returns")
    func recoveredTailIsDurableBeforeOpenReturns() async throws {
        let fileSystem = FaultInjectingFileSystem(seed: 3)
        let path = FilePath("/kill/journal")
        var random = SeededRandom(seed: 3)
        let writer = fileSystem.startProcess()
        let first = try Journal.open(at: path, options: JournalOptions(durability: .none), fileSystem: writer)
        try await first.append(RecordFactory.batch(id: 1, count: 3, fillerBytes: 20, random: &random))
        fileSystem.kill(writer)  // written, never synced: only in the page cache

        let reopened = try Journal.open(at: path, options: JournalOptions(durability: .none), fileSystem: fileSystem.startProcess())
        #expect(reopened.lastSequenceNumber == 3)
        fileSystem.crash(.dropUnsynced)

        let afterPowerLoss = try JournalReader.open(at: path, fileSystem: fileSystem)
        #expect(afterPowerLoss.lastSequenceNumber == 3, "records the reopened journal served were lost in a power loss")
    }
}
