import SystemPackage
import Tally
import TallyJournal
import TallyModel
import TallyTestSupport
import Testing

@Suite("Ledger under storage faults")
struct LedgerFaultTests {
    static let path = FilePath("/households/muster")

    static func open(_ fileSystem: FaultInjectingFileSystem) async throws -> Ledger {
        var options = LedgerOptions()  // synchronous durability: acknowledged means synced
        options.fileSystem = fileSystem
        return try await Ledger.open(at: path, options: options)
    }

    @Test("A failed append leaves the state unchanged and a retry succeeds")
    func failedAppendLeavesStateUnchanged() async throws {
        let fileSystem = FaultInjectingFileSystem(seed: 7)
        try fileSystem.createDirectory(at: FilePath("/households"))
        var s = Scenario()
        let ledger = try await Self.open(fileSystem)
        try await ledger.execute(s.setup())
        let before = await ledger.state
        fileSystem.failNextWrite(.noSpace)
        let command = s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(2500)))
        do {
            try await ledger.execute(command)
            Issue.record("the append should have failed")
        } catch {
            #expect(error.code == "diskFull", "\(error)")
            #expect(error.rule == nil)
        }
        #expect(await ledger.state == before)
        try await ledger.execute(command)
        #expect(await ledger.state.transactions.allEntries.count == 1)
        try await ledger.close()
    }

    @Test("A torn tail cut at open is in the open report with its location, never silent")
    func tornTailIsReported() async throws {
        let fileSystem = FaultInjectingFileSystem(seed: 13)
        try fileSystem.createDirectory(at: FilePath("/households"))
        var s = Scenario()
        let ledger = try await Self.open(fileSystem)
        try await ledger.execute(s.setup())
        let acknowledged = await ledger.lastSequenceNumber
        try await ledger.close()
        let segment = Self.path.appending(LedgerDirectory.journalName).appending("00000000000000000001.segment")
        let bytes = try #require(fileSystem.contents(of: segment))
        fileSystem.setContents(of: segment, to: bytes + [0x54, 0x46, 0x52, 0x4D, 0x01, 0x02, 0x03])  // half a frame header
        let reopened = try await Self.open(fileSystem)
        #expect(reopened.openReport.journalRecovery.bytesDropped == 7)
        #expect(reopened.openReport.journalRecovery.truncatedAt?.segment == "00000000000000000001.segment")
        #expect(await reopened.lastSequenceNumber == acknowledged)
        try await reopened.close()
        let clean = try await Self.open(fileSystem)
        #expect(clean.openReport.journalRecovery.isClean)
        try await clean.close()
    }

    @Test("Every acknowledged command survives a power loss")
    func acknowledgedCommandsSurviveCrash() async throws {
        let fileSystem = FaultInjectingFileSystem(seed: 11)
        try fileSystem.createDirectory(at: FilePath("/households"))
        var s = Scenario()
        let ledger = try await Self.open(fileSystem)
        try await ledger.execute(s.setup())
        for index in 0..<5 {
            try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(Int64(100 * (index + 1)), shared: true))))
        }
        let acknowledged = await ledger.state
        fileSystem.crash(.random)
        let reopened = try await Self.open(fileSystem)
        #expect(await reopened.state == acknowledged)
        try await reopened.close()
    }
}
