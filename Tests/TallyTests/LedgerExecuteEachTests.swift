import SystemPackage
import Tally
import TallyJournal
import TallyModel
import TallyTestSupport
import Testing

/// `Ledger.execute(each:)`: each command its own atomic batch (G6), in order, several sharing one
/// wait for durability (Docs/Engine.md "Execution and atomicity", "Concurrency").
@Suite("Ledger execute(each:)")
struct LedgerExecuteEachTests {
    typealias Outcome = Result<[EventPosition], LedgerError>

    static func fileSystem(seed: UInt64) throws -> FaultInjectingFileSystem {
        try LedgerGroupCommitTests.fileSystem(seed: seed)
    }

    static func open(_ fileSystem: FaultInjectingFileSystem) async throws -> Ledger {
        try await LedgerGroupCommitTests.open(fileSystem)  // synchronous: acknowledged means synced
    }

    /// Executes every command in its own `execute`, one after the other; the outcome of each.
    static func executeOneByOne(_ commands: [Command], on ledger: Ledger) async -> [Outcome] {
        var outcomes: [Outcome] = []
        for command in commands {
            do throws(LedgerError) {
                outcomes.append(.success(try await ledger.execute(command)))
            } catch {
                outcomes.append(.failure(error))
            }
        }
        return outcomes
    }

    @Test("G6: commands take effect in list order: each is validated against the earlier ones of the same call")
    func laterCommandsSeeEarlierOnes() async throws {
        let fileSystem = try Self.fileSystem(seed: 31)
        var s = Scenario()
        let ledger = try await Self.open(fileSystem)
        // The household, its member and wallets, then a transaction in a wallet opened in this
        // very call: each depends on the one before it.
        let commands = s.setup() + [s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(4_200)))]
        let outcomes = try await ledger.execute(each: commands)
        #expect(outcomes.count == commands.count)
        let positions = try outcomes.map { try $0.get() }
        #expect(positions.flatMap { $0.map(\.sequenceNumber) } == Array(1...UInt64(positions.flatMap { $0 }.count)))
        for (command, commandPositions) in zip(commands, positions) {
            #expect(!commandPositions.isEmpty && commandPositions.allSatisfy { $0.commandID == command.commandID })
        }
        #expect(await ledger.state.transactions.allEntries.count == 1)
        try await ledger.close()
    }

    @Test("G6: a rejected command in the middle writes nothing and carries its rule; the commands around it are applied")
    func rejectionInTheMiddleLeavesTheOthers() async throws {
        let fileSystem = try Self.fileSystem(seed: 37)
        var s = Scenario()
        let ledger = try await Self.open(fileSystem)
        try await ledger.execute(s.setup())
        let before = await ledger.lastSequenceNumber
        let first = s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(100)))
        // W2: a second wallet named "joint" (names are unique, case-insensitively).
        let rejected = s.command(.openWallet(walletID: s.ids.next(), name: "JOINT", kind: .bank, openingBalance: Scenario.chf(0),
                                             openedOn: Scenario.date("2026-01-01"), owner: nil))
        let last = s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(300)))
        let outcomes = try await ledger.execute(each: [first, rejected, last])
        #expect(outcomes.count == 3)
        guard case .failure(.rejected(let violation)) = outcomes[1] else {
            Issue.record("the duplicate wallet name was not rejected: \(outcomes[1])")
            return
        }
        #expect(violation.rule == "W2", "\(violation)")
        #expect(violation.commandIndex == 0, "each command is its own batch")
        #expect(try outcomes[0].get().map(\.sequenceNumber) == [before + 1])
        #expect(try outcomes[2].get().map(\.sequenceNumber) == [before + 2])
        let events = try await ledger.events(from: before + 1)
        #expect(events.map(\.event.commandID) == [first.commandID, last.commandID], "nothing of the rejected command is in the journal")
        try await ledger.close()
    }

    @Test("G6: outcomes, events and state equal one execute per command on a twin ledger (random valid and invalid commands)")
    func matchesOneByOneExecution() async throws {
        var generator = RandomCommandGenerator(seed: 41)
        let setup = generator.scenario.setup()
        let commands = (0..<300).map { _ in generator.next() }
        let byOne = try await Self.open(try Self.fileSystem(seed: 43))
        let byEach = try await Self.open(try Self.fileSystem(seed: 43))
        let setupOutcomes = await Self.executeOneByOne(setup, on: byOne)
        #expect(try await byEach.execute(each: setup) == setupOutcomes)
        let expected = await Self.executeOneByOne(commands, on: byOne)
        var outcomes: [Outcome] = []
        for window in stride(from: 0, to: commands.count, by: 64) {
            outcomes += try await byEach.execute(each: Array(commands[window..<min(window + 64, commands.count)]))
        }
        #expect(outcomes == expected)
        let rejected = expected.filter { if case .failure = $0 { true } else { false } }.count
        #expect(rejected > 0 && rejected < commands.count, "the mix must hold accepted and rejected commands")
        #expect(try await byEach.events() == byOne.events())
        #expect(await byEach.state == byOne.state)
        #expect(await byEach.readModels == byOne.readModels)
        try await byOne.close()
        try await byEach.close()
    }

    /// A ledger whose journal rotates every few frames: each rotation syncs the sealed segment,
    /// so a long call's earlier batches become durable while it still writes (all of them
    /// without their state but the last: WrittenBatch.state).
    static func openRotatingEarly(_ fileSystem: FaultInjectingFileSystem, segmentBytesMax: Int64 = 4096) async throws -> Ledger {
        try await LedgerGroupCommitTests.open(fileSystem) { $0.segmentBytesMax = segmentBytesMax }
    }

    static func transactions(_ count: Int, _ s: inout Scenario) -> [Command] {
        (0..<count).map { index in s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(Int64(100 + index)))) }
    }

    @Test("G6: a call keeps only its last batch's state; with another caller's commit beside it (which may find part of the call durable through a rotation) no batch is folded a second time, each caller gets its own positions, and the state equals a replay")
    func aCallBesideAnotherCommitFoldsNothingTwice() async throws {
        let fileSystem = try Self.fileSystem(seed: 67)
        var s = Scenario()
        let ledger = try await Self.openRotatingEarly(fileSystem, segmentBytesMax: 24_576)
        try await ledger.execute(s.setup())
        fileSystem.setFileSyncLatency(.milliseconds(30))  // slow syncs widen the window below
        var rounds = 0
        // A single command written just before a long call: its commit, which waits for the
        // actor until the long call has written, may find part of the long call durable (its
        // rotations) and then commits only up to its own batch. Whether it does depends on the
        // scheduler (`commitsWaitingForState` counts it; a failed sync meets a half durable
        // call for certain: durableBatchesOfAFailedCallAreFolded); every round checks the
        // invariants.
        while await ledger.writeStatistics.commitsWaitingForState == 0, rounds < 5 {
            rounds += 1
            let single = Self.transactions(1, &s)[0]
            let long = Self.transactions(200, &s)
            let writes = fileSystem.fileWriteCount
            async let singleOutcome = ledger.execute(single)
            for _ in 0..<10_000 where fileSystem.fileWriteCount == writes { await Task.yield() }
            let eachOutcomes = try await ledger.execute(each: long)
            #expect(try await singleOutcome.first?.commandID == single.commandID)
            #expect(eachOutcomes.count == long.count && eachOutcomes.allSatisfy { (try? $0.get()) != nil })
        }
        #expect(await ledger.writeStatistics.foldedCommits == 0, "a batch's events were folded a second time")
        let state = await ledger.state
        let readModels = await ledger.readModels
        try await ledger.close()
        fileSystem.setFileSyncLatency(nil)
        let reopened = try await Self.open(fileSystem)
        #expect(await reopened.state == state, "the acknowledged state equals the journal's replay")
        #expect(await reopened.readModels == readModels)
        try await reopened.close()
    }

    @Test("G6: a call of two batches as the first commit after an open that is due a checkpoint: every checkpoint audits clean and the ledger opens from one")
    func checkpointDuringACallsCommitIsConsistent() async throws {
        // On disk: the checkpoint is the read-side store's, which an injected file system has not.
        let directory = try TemporaryDirectory("tally-each-checkpoint")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        // A journal with more than an interval of events past its (absent) checkpoint: the
        // first commit after the open schedules one.
        let first = try await Ledger.open(at: path, options: .checkpointsOnRequest())
        try await first.execute(s.setup())
        _ = try await first.execute(each: Self.transactions(12, &s))
        try await first.close()
        var every4 = LedgerOptions.checkpointsOnRequest()
        every4.checkpointIntervalEvents = 4
        #expect(LedgerDirectory(path).checkpointSequenceNumber() == nil, "the control: no checkpoint yet")
        let ledger = try await Ledger.open(at: path, options: every4)
        // Two batches in one call: the first is committed with the second's state.
        let outcomes = try await ledger.execute(each: Self.transactions(2, &s))
        #expect(outcomes.allSatisfy { (try? $0.get()) != nil })
        let state = await ledger.state
        try await ledger.close()
        let audit = try LedgerAudit.audit(at: path)
        #expect(audit.isClean, "every checkpoint written equals the journal's fold at its sequence number: \(audit.problems)")
        let reopened = try await Ledger.open(at: path, options: every4)
        #expect(reopened.openReport.checkpointSequenceNumber != nil, "the ledger opens from the checkpoint written meanwhile: \(reopened.openReport)")
        #expect(await reopened.state == state)
        try await reopened.close()
    }

    @Test("G6: when a call's sync fails, its batches already durable are acknowledged (their events folded, their state being dropped); the acknowledged state equals a fold of the journal through it")
    func durableBatchesOfAFailedCallAreFolded() async throws {
        var folded = 0
        // The n-th sync fails: a rotation's (the call stops there) or the call's own wait's.
        for failingSync in 1...40 {
            let fileSystem = try Self.fileSystem(seed: UInt64(70 + failingSync))
            var s = Scenario()
            let ledger = try await Self.openRotatingEarly(fileSystem)
            try await ledger.execute(s.setup())
            let before = await ledger.lastSequenceNumber
            let commands = Self.transactions(60, &s)
            fileSystem.failSync(after: failingSync, with: .ioError)
            let outcomes = try await ledger.execute(each: commands)
            folded += await ledger.writeStatistics.foldedCommits
            let acknowledged = await ledger.lastSequenceNumber
            let state = await ledger.state
            try? await ledger.close()  // a failed ledger's close reports the failure, or none when nothing was pending
            fileSystem.clearFaults()
            let reopened = try await Self.open(fileSystem)
            let events = try await reopened.events(from: 1)
            let succeeded = zip(commands, outcomes).filter { (try? $0.1.get()) != nil }
            #expect(UInt64(succeeded.count) == acknowledged - before, "every acknowledged command is reported so (sync \(failingSync))")
            #expect(events.filter { $0.sequenceNumber > before && $0.sequenceNumber <= acknowledged }.map(\.event.commandID)
                        == succeeded.map(\.0.commandID), "the journal holds every acknowledged command in order (sync \(failingSync))")
            var expected = LedgerState()
            for event in events where event.sequenceNumber <= acknowledged { expected.apply(event.event) }
            #expect(state == expected, "the acknowledged state is the fold of the journal through \(acknowledged) (sync \(failingSync))")
            try await reopened.close()
        }
        #expect(folded > 0, "no failed sync found durable batches without their state")
    }

    @Test("G6: under a relaxed durability policy the outcomes equal one execute per command too")
    func relaxedDurabilityMatchesOneByOne() async throws {
        var generator = RandomCommandGenerator(seed: 47)
        let commands = generator.scenario.setup() + (0..<120).map { _ in generator.next() }
        let byOne = try await TestLedger.make("each-relaxed-one")
        let byEach = try await TestLedger.make("each-relaxed-each")
        defer {
            byOne.directory.remove()
            byEach.directory.remove()
        }
        let expected = await Self.executeOneByOne(commands, on: byOne.ledger)
        #expect(try await byEach.ledger.execute(each: commands) == expected)
        #expect(try await byEach.ledger.events() == byOne.ledger.events())
        try await byOne.ledger.close()
        try await byEach.ledger.close()
    }

    @Test("G6: several commands share one fdatasync, and after the call returns a crash keeps every accepted command")
    func acceptedCommandsAreDurableWhenTheCallReturns() async throws {
        let fileSystem = try Self.fileSystem(seed: 53)
        var s = Scenario()
        let ledger = try await Self.open(fileSystem)
        try await ledger.execute(s.setup())
        var commands = (0..<40).map { index in s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(Int64(500 + index)))) }
        commands.insert(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(1)), by: s.ids.next()), at: 20)  // unknown actor
        let syncsBefore = fileSystem.fileSyncCount
        let outcomes = try await ledger.execute(each: commands)
        let syncs = fileSystem.fileSyncCount - syncsBefore
        #expect(syncs <= 2, "\(commands.count) commands needed \(syncs) syncs")
        #expect(outcomes.filter { (try? $0.get()) != nil }.count == 40)
        let acknowledged = await ledger.state
        let acknowledgedEvents = try await ledger.events()
        fileSystem.crash(.dropUnsynced)  // no close: only what was synced before the return survives
        let reopened = try await Self.open(fileSystem)
        #expect(await reopened.state == acknowledged)
        #expect(try await reopened.events() == acknowledgedEvents)
        try await reopened.close()
    }

    @Test("G6: a failed sync fails every written command of the call with a storage error; rejections keep their rule; the ledger is failed")
    func failedSyncFailsEveryWrittenCommand() async throws {
        let fileSystem = try Self.fileSystem(seed: 59)
        var s = Scenario()
        let ledger = try await Self.open(fileSystem)
        try await ledger.execute(s.setup())
        let before = await ledger.state
        var commands = (0..<10).map { index in s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(Int64(700 + index)))) }
        commands.insert(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(1)), by: s.ids.next()), at: 4)  // unknown actor
        fileSystem.failNextSync(.ioError)
        let outcomes = try await ledger.execute(each: commands)
        #expect(outcomes.count == commands.count)
        for (index, outcome) in outcomes.enumerated() {
            switch outcome {
            case .success: Issue.record("command \(index) was acknowledged although its sync failed")
            case .failure(.rejected(let violation)): #expect(index == 4 && !violation.rule.isEmpty, "\(violation)")
            case .failure(.storage): #expect(index != 4)
            case .failure(let error): Issue.record("command \(index): expected a storage error, got \(error)")
            }
        }
        #expect(await ledger.state == before)
        let later = try await ledger.execute(each: [s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(999)))])
        guard case .failure(.storage) = later.first, later.count == 1 else {
            Issue.record("a call after a failed sync was not refused with a storage error: \(later)")
            return
        }
        await #expect(throws: LedgerError.self) { try await ledger.close() }
        fileSystem.clearFaults()
        let reopened = try await Self.open(fileSystem)
        #expect(await reopened.state == before)
        try await reopened.close()
    }

    @Test("G6: a write that fails ends the call at that command; the ones before it are acknowledged, the ones after are not executed")
    func failedWriteStopsTheCall() async throws {
        let fileSystem = try Self.fileSystem(seed: 61)
        var s = Scenario()
        let ledger = try await Self.open(fileSystem)
        try await ledger.execute(s.setup())
        let before = await ledger.lastSequenceNumber
        let commands = (0..<6).map { index in s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(Int64(800 + index)))) }
        fileSystem.failWrite(after: 3, with: .noSpace)
        let outcomes = try await ledger.execute(each: commands)
        fileSystem.clearFaults()
        let acknowledged = outcomes.prefix { (try? $0.get()) != nil }.count
        #expect(acknowledged > 0 && acknowledged < commands.count - 1, "the write fails in the middle: \(outcomes)")
        #expect(outcomes.count == acknowledged + 1, "the call stops at the failed write: \(outcomes)")
        guard case .failure(.storage) = outcomes.last else {
            Issue.record("the last outcome is not the storage error: \(String(describing: outcomes.last))")
            return
        }
        #expect(await ledger.lastSequenceNumber == before + UInt64(acknowledged))
        #expect(try await ledger.events(from: before + 1).map(\.event.commandID) == commands.prefix(acknowledged).map(\.commandID))
        // Not failed: the next call executes the rest.
        let rest = try await ledger.execute(each: Array(commands[acknowledged...]))
        #expect(rest.allSatisfy { (try? $0.get()) != nil })
        try await ledger.close()
    }

    @Test("G6: an empty list or one over commandsPerBatchMax is invalidBatch; nothing is executed")
    func listBoundsAreChecked() async throws {
        let fileSystem = try Self.fileSystem(seed: 67)
        var options = LedgerOptions()
        options.fileSystem = fileSystem
        options.commandsPerBatchMax = 4
        let ledger = try await Ledger.open(at: LedgerGroupCommitTests.path, options: options)
        var s = Scenario()
        try await ledger.execute(s.setup())
        let before = await ledger.lastSequenceNumber
        await #expect(throws: LedgerError.invalidBatch(commandCount: 0, limit: 4)) { try await ledger.execute(each: []) }
        let five = (0..<5).map { index in s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(Int64(900 + index)))) }
        await #expect(throws: LedgerError.invalidBatch(commandCount: 5, limit: 4)) { try await ledger.execute(each: five) }
        #expect(await ledger.lastSequenceNumber == before)
        #expect(try await ledger.execute(each: Array(five.prefix(4))).count == 4)
        try await ledger.close()
    }
}
