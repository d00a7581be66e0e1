import SystemPackage
import Tally
import TallyJournal
import TallyModel
import TallyTestSupport
import Testing

/// Group commit and G6 across concurrent `execute` calls (Docs/Engine.md "Execution and
/// atomicity", "Concurrency").
@Suite("Ledger group commit")
struct LedgerGroupCommitTests {
    static let path = FilePath("/households/group")

    /// - Parameter configure: changes to the options (synchronous, checkpoints on request).
    static func open(_ fileSystem: FaultInjectingFileSystem, _ configure: (inout LedgerOptions) -> Void = { _ in }) async throws -> Ledger {
        var options = LedgerOptions.checkpointsOnRequest()  // synchronous durability: acknowledged means synced
        options.fileSystem = fileSystem
        configure(&options)
        return try await Ledger.open(at: path, options: options)
    }

    static func fileSystem(seed: UInt64) throws -> FaultInjectingFileSystem {
        let fileSystem = FaultInjectingFileSystem(seed: seed)
        try fileSystem.createDirectory(at: FilePath("/households"))
        return fileSystem
    }

    /// Runs every command in its own concurrent `execute`; the outcome of each, in input order.
    static func executeConcurrently(_ commands: [Command], on ledger: Ledger) async -> [Result<[EventPosition], LedgerError>] {
        await withTaskGroup(of: (Int, Result<[EventPosition], LedgerError>).self) { group in
            for (index, command) in commands.enumerated() {
                group.addTask {
                    // The result is awaited into a constant before the tuple is built: with
                    // `(index, .success(try await ...))` a release build returned tasks' results
                    // under other tasks' indices (seen 2026-11-30, Swift 6.3.1, -O -enable-testing).
                    let outcome: Result<[EventPosition], LedgerError>
                    do throws(LedgerError) {
                        outcome = .success(try await ledger.execute(command))
                    } catch {
                        outcome = .failure(error)
                    }
                    return (index, outcome)
                }
            }
            var outcomes: [(Int, Result<[EventPosition], LedgerError>)] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    @Test("Group commit: concurrent single-command executes share fdatasync calls, and all are acknowledged")
    func concurrentExecutesShareSyncs() async throws {
        let fileSystem = try Self.fileSystem(seed: 5)
        var s = Scenario()
        let ledger = try await Self.open(fileSystem)
        try await ledger.execute(s.setup())
        let commands = (0..<24).map { index in s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(Int64(100 + index)))) }
        // The first sync is slow (held) until every batch is written: with the gate held across
        // the sync, the second batch could not even be written before it ended.
        fileSystem.holdFileSyncs()
        let syncsBefore = fileSystem.fileSyncCount
        let writesBefore = fileSystem.fileWriteCount
        async let outcomes = Self.executeConcurrently(commands, on: ledger)
        for _ in 0..<2_000 where fileSystem.fileWriteCount - writesBefore < commands.count {
            try await Task.sleep(for: .milliseconds(2))
        }
        let written = fileSystem.fileWriteCount - writesBefore
        fileSystem.releaseFileSyncs()
        let positions = try await outcomes.map { try $0.get() }
        let syncs = fileSystem.fileSyncCount - syncsBefore
        #expect(written == commands.count, "every batch is written while the first sync runs")
        #expect(positions.allSatisfy { $0.count == 1 })
        #expect(syncs <= 2, "\(commands.count) concurrent executes needed \(syncs) syncs")
        #expect(Set(positions.flatMap { $0.map(\.sequenceNumber) }).count == commands.count)
        #expect(await ledger.state.transactions.allEntries.count == commands.count)
        let acknowledged = await ledger.state
        try await ledger.close()
        fileSystem.crash(.dropUnsynced)
        let reopened = try await Self.open(fileSystem)
        #expect(await reopened.state == acknowledged)
        try await reopened.close()
    }

    @Test("G6: a failed sync rejects every command of its group, later executes fail, the state keeps only acknowledged batches")
    func failedSyncRejectsTheWholeGroup() async throws {
        let fileSystem = try Self.fileSystem(seed: 9)
        var s = Scenario()
        let ledger = try await Self.open(fileSystem)
        let stream = ledger.changes
        try await ledger.execute(s.setup())
        let before = await ledger.state
        let readModelsBefore = await ledger.readModels
        let acknowledgedThrough = await ledger.lastSequenceNumber
        let commands = (0..<12).map { index in s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(Int64(200 + index)))) }
        fileSystem.setFileSyncLatency(.milliseconds(20))
        fileSystem.failNextSync(.ioError)
        let outcomes = await Self.executeConcurrently(commands, on: ledger)
        fileSystem.setFileSyncLatency(nil)
        for outcome in outcomes {
            guard case .failure(let error) = outcome else {
                Issue.record("a command of the failed group was acknowledged")
                continue
            }
            guard case .storage = error else {
                Issue.record("expected a storage error, got \(error)")
                continue
            }
        }
        #expect(await ledger.state == before)
        #expect(await ledger.readModels == readModelsBefore)
        #expect(await ledger.lastSequenceNumber == acknowledgedThrough)
        #expect(try await ledger.events().count == Int(acknowledgedThrough))
        // The ledger is failed: later commands throw a storage error without being written.
        do {
            try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(999))))
            Issue.record("an execute after a failed sync succeeded")
        } catch {
            guard case .storage = error else { throw error }
        }
        #expect(await ledger.state == before)
        await #expect(throws: LedgerError.self) { try await ledger.close() }
        // Only acknowledged events were published.
        var published: [UInt64] = []
        for await event in stream { published.append(event.sequenceNumber) }
        #expect(published == Array(1...acknowledgedThrough))
        // Nothing of the failed group is found after a reopen either.
        fileSystem.clearFaults()
        let reopened = try await Self.open(fileSystem)
        #expect(await reopened.state == before)
        try await reopened.close()
    }

    @Test("changes publishes concurrent batches strictly in sequence order, after they are durable")
    func changesArriveInSequenceOrder() async throws {
        let fileSystem = try Self.fileSystem(seed: 17)
        var s = Scenario()
        let ledger = try await Self.open(fileSystem)
        let stream = ledger.changes
        try await ledger.execute(s.setup())
        let commands = (0..<32).map { index in s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(Int64(300 + index)))) }
        fileSystem.setFileSyncLatency(.milliseconds(5))
        let outcomes = await Self.executeConcurrently(commands, on: ledger)
        fileSystem.setFileSyncLatency(nil)
        for outcome in outcomes { _ = try outcome.get() }
        let last = await ledger.lastSequenceNumber
        var received: [CommittedEvent] = []
        for await event in stream {
            received.append(event)
            if event.sequenceNumber == last { break }
        }
        #expect(received.map(\.sequenceNumber) == Array(1...last))
        #expect(received.map(\.event) == (try await ledger.events()).map(\.event))
        try await ledger.close()
    }

    @Test("eventCursor yields the same events as events(), one frame at a time, and stops at through")
    func eventCursorMatchesEvents() async throws {
        let fileSystem = try Self.fileSystem(seed: 23)
        var s = Scenario()
        let ledger = try await Self.open(fileSystem)
        try await ledger.execute(s.setup())
        for index in 0..<20 {
            try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(Int64(400 + index)))))
        }
        let all = try await ledger.events()
        var cursor = try await ledger.eventCursor()
        var streamed: [CommittedEvent] = []
        while let committed = try cursor.next() { streamed.append(committed) }
        #expect(streamed == all)
        #expect(try cursor.next() == nil)
        let last = await ledger.lastSequenceNumber
        var ranged = try await ledger.eventCursor(from: 3, through: last - 5)
        var inRange: [UInt64] = []
        while let committed = try ranged.next() { inRange.append(committed.sequenceNumber) }
        #expect(inRange == Array(3...(last - 5)))
        var beyond = try await ledger.eventCursor(from: last + 1)
        #expect(try beyond.next() == nil)
        try await ledger.close()
    }
}

/// A batch is one journal frame (G6): one too large for it is refused before validation.
@Suite("Ledger batch size")
struct LedgerBatchSizeTests {
    @Test("G6: a batch with more commands than a frame holds records is batchTooLarge before validation; nothing is written")
    func batchOverTheFrameLimitIsRefusedEarly() async throws {
        let fileSystem = FaultInjectingFileSystem(seed: 29)
        var options = LedgerOptions()
        options.fileSystem = fileSystem
        options.journalLimits.recordsPerFrameMax = 50
        options.commandsPerBatchMax = 10_000
        let ledger = try await Ledger.open(at: "/ledger", options: options)
        var s = Scenario()
        try await ledger.execute(s.setup())
        let before = await ledger.lastSequenceNumber
        // The first command is invalid (an unknown actor): validation would reject it first,
        // so batchTooLarge proves the size was checked before anything was validated.
        var commands = [s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(100)), by: s.ids.next())]
        commands += (0..<50).map { index in s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(Int64(100 + index)))) }
        do {
            try await ledger.execute(commands)
            Issue.record("a batch of \(commands.count) commands was accepted over recordsPerFrameMax 50")
        } catch {
            #expect(error == .batchTooLarge(recordCount: 51, limit: 50))
            #expect(error.code == "batchTooLarge")
            #expect(error.message.contains("50") && error.message.contains("51") && error.message.contains("--atomic"), "\(error.message)")
        }
        #expect(await ledger.lastSequenceNumber == before)
        // At the limit it is one frame.
        let fits = (0..<50).map { index in s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(Int64(200 + index)))) }
        #expect(try await ledger.execute(fits).count == 50)
        try await ledger.close()
    }
}
