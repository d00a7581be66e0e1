import Foundation
import SystemPackage
@testable import Tally
import TallyJournal
import TallyModel
import TallyProjections
import TallySQLiteEncryption
import TallyStore
import TallyTestSupport
import Testing

/// Attacks on the checkpoint in the read-side store (its `checkpoint` row and the command
/// history T5 keeps in its `history` table): a ledger that reads its history from the store
/// must behave exactly as one that keeps it all in memory.
@Suite("Attack: the store's checkpoint and history", .serialized)
struct AttackCheckpointArchiveTests {
    /// `<ledger>/read-side/read-side.sqlite`: the store that holds the checkpoint and the history.
    static func storePath(_ ledger: FilePath) -> String { LedgerDirectory(ledger).readSideStore.string }

    static func options(_ durability: DurabilityPolicy = .synchronous, interval: Int = 0) -> LedgerOptions {
        var options = LedgerOptions(durability: durability)
        options.checkpointIntervalEvents = interval
        return options
    }

    /// A ledger without a store: no checkpoint, every open a full replay, all history in memory.
    static func memoryOptions() -> LedgerOptions {
        var options = options(.none)
        options.keepsReadSide = false
        return options
    }

    /// A reproducible stream of transaction commands, undos, redos and reused command ids that
    /// does not depend on the outcomes, so that two ledgers receive the same commands.
    struct Workload {
        var s = Scenario()
        var random: SeededRandom
        var transactions: [TransactionID] = []
        var issued: [CommandID] = []

        init(seed: UInt64) { random = SeededRandom(seed: seed) }

        mutating func setup() -> [Command] {
            let commands = s.setup()
            issued += commands.map(\.commandID)
            return commands
        }

        mutating func next() -> Command {
            let roll = Int.random(in: 0..<100, using: &random)
            var command: Command
            if transactions.isEmpty || roll < 30 {
                let id: TransactionID = s.ids.next()
                transactions.append(id)
                var entry = s.expense(Int64.random(in: 1...50_000, using: &random), shared: Bool.random(using: &random))
                entry.note = "note \(Int.random(in: 0..<1_000_000, using: &random))"
                command = s.command(.recordTransaction(transactionID: id, entry: entry))
            } else if roll < 45 {
                let id = transactions.randomElement(using: &random)!
                var entry = s.expense(Int64.random(in: 1...50_000, using: &random), shared: Bool.random(using: &random))
                entry.note = Bool.random(using: &random) ? nil : "edited \(Int.random(in: 0..<1_000, using: &random))"
                command = s.command(.editTransaction(transactionID: id, entry: entry))
            } else if roll < 53 {
                command = s.command(.deleteTransaction(transactionID: transactions.randomElement(using: &random)!))
            } else if roll < 57 {
                command = s.command(.restoreTransaction(transactionID: transactions.randomElement(using: &random)!))
            } else if roll < 77 {
                command = s.command(.undo(targetCommandID: issued.randomElement(using: &random)!))
            } else if roll < 94 {
                command = s.command(.redo(targetCommandID: issued.randomElement(using: &random)!))
            } else {
                // A reused id: always a duplicate.
                let id: TransactionID = s.ids.next()
                command = s.command(.recordTransaction(transactionID: id, entry: s.expense(100)))
                command.commandID = issued.randomElement(using: &random)!
                return command
            }
            issued.append(command.commandID)
            return command
        }
    }

    static func outcome(_ ledger: Ledger, _ command: Command) async -> String {
        await outcomeAndMessage(ledger, command).code
    }

    static func outcomeAndMessage(_ ledger: Ledger, _ command: Command) async -> (code: String, message: String) {
        do {
            try await ledger.execute(command)
            return ("ok", "")
        } catch {
            return (error.code, error.message)
        }
    }

    // MARK: - T5: the state read after close

    @Test("T5: the state read from a closed ledger still holds the command history kept in the store")
    func stateAfterCloseKeepsHistory() async throws {
        let directory = try TemporaryDirectory("tally-attack-history-close")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var workload = Workload(seed: 7)
        let ledger = try await Ledger.open(at: path, options: Self.options())
        try await ledger.execute(workload.setup())
        for _ in 0..<20 { _ = await Self.outcome(ledger, workload.next()) }
        try await ledger.checkpoint()
        // The control: the history is the store's, not the state's.
        #expect(await ledger.archivedEntriesInMemory == 0, "the checkpoint left history entries in memory")
        try await ledger.close()
        #expect(try StoredCheckpoints.historyRowCount(at: path) > 0, "the control: the store holds the history")
        let afterClose = await ledger.state
        let replayed = try LedgerReplay.replay(at: path)
        #expect(afterClose.history.allEntries.count == replayed.state.history.allEntries.count,
                "the closed ledger's state lost the history entries kept in the store")
        #expect(afterClose.history.allTouches.count == replayed.state.history.allTouches.count,
                "the closed ledger's state lost the touches kept in the store")
    }

    // MARK: - T5: differential, history in the store against history in memory

    /// Runs the same commands against a ledger that checkpoints every few events (history in
    /// the store, checkpoints written in the background while the next commands run, reopened
    /// now and then) and one without a store (all history in memory): every outcome and the
    /// final states must agree.
    func differential(seed: UInt64, durability: DurabilityPolicy, interval: Int, steps: Int) async throws {
        let directory = try TemporaryDirectory("tally-attack-history-diff")
        defer { directory.remove() }
        let stored = directory.appending("stored")
        let memory = directory.appending("memory")
        var workload = Workload(seed: seed)
        var random = SeededRandom(seed: seed &+ 1)
        var a = try await Ledger.open(at: stored, options: Self.options(durability, interval: interval))
        let b = try await Ledger.open(at: memory, options: Self.memoryOptions())
        let setup = workload.setup()
        try await a.execute(setup)
        try await b.execute(setup)
        var mismatches: [String] = []
        for step in 0..<steps {
            let command = workload.next()
            let outcomeA = await Self.outcome(a, command)
            let outcomeB = await Self.outcome(b, command)
            if outcomeA != outcomeB { mismatches.append("step \(step) \(command.action): history in the store \(outcomeA), in memory \(outcomeB)") }
            let roll = Int.random(in: 0..<100, using: &random)
            if roll < 3 {
                try await a.checkpoint()
            } else if roll < 5 {
                try await a.close()
                a = try await Ledger.open(at: stored, options: Self.options(durability, interval: interval))
                if a.openReport.checkpointSequenceNumber == nil && step > 10 {
                    mismatches.append("step \(step): reopened by full replay: \(a.openReport.rejectedCheckpoints)")
                }
            }
        }
        #expect(mismatches.isEmpty, "seed \(seed) \(durability) interval \(interval): \(mismatches.prefix(5))")
        let stateA = await a.state
        let stateB = await b.state
        #expect(stateA == stateB, "seed \(seed): the state of the ledger with its history in the store differs from the in-memory one")
        let modelsA = await a.readModels
        let modelsB = await b.readModels
        #expect(modelsA == modelsB, "seed \(seed): the read models of the ledger with its history in the store differ from the in-memory one")
        // Memory stays bounded: after a checkpoint no history entry stays in memory.
        try await a.checkpoint()
        #expect(await a.archivedEntriesInMemory == 0, "seed \(seed): history entries stay in memory after a checkpoint")
        try await a.close()
        try await b.close()
        #expect(try StoredCheckpoints.historyRowCount(at: stored) > 0, "seed \(seed): the control: the store holds the history")
        let reopened = try await Ledger.open(at: stored, options: Self.options(durability, interval: interval))
        let reopenedLast = await reopened.lastSequenceNumber
        #expect(reopened.openReport.checkpointSequenceNumber == reopenedLast, "seed \(seed): \(reopened.openReport)")
        let replayed = try LedgerReplay.replay(at: stored)
        #expect(await reopened.state == replayed.state, "seed \(seed): reopened state differs from a replay")
        #expect(await reopened.readModels == replayed.readModels, "seed \(seed): reopened read models differ from a replay")
        try await reopened.close()
    }

    @Test("T5: history in the store behaves as history in memory (synchronous, a checkpoint every event or few)",
          arguments: [(UInt64(1), 1), (2, 2), (3, 3), (4, 5)])
    func differentialSynchronous(seed: UInt64, interval: Int) async throws {
        try await differential(seed: seed, durability: .synchronous, interval: interval, steps: 250)
    }

    @Test("T5: history in the store behaves as history in memory (.none and .interval durability)",
          arguments: [(UInt64(11), 1), (12, 2), (13, 4)])
    func differentialRelaxed(seed: UInt64, interval: Int) async throws {
        try await differential(seed: seed, durability: .none, interval: interval, steps: 250)
        try await differential(seed: seed &+ 100, durability: .interval(milliseconds: 5), interval: interval, steps: 150)
    }

    // MARK: - T5 under concurrent execute calls

    @Test("T5: many concurrent commands while checkpoints are written: state equals a replay, before and after reopening")
    func concurrentCommandsAndCheckpoints() async throws {
        for durability in [DurabilityPolicy.synchronous, .none] {
            let directory = try TemporaryDirectory("tally-attack-history-concurrent")
            defer { directory.remove() }
            let path = directory.appending("ledger")
            var s = Scenario()
            let ledger = try await Ledger.open(at: path, options: Self.options(durability, interval: 2))
            try await ledger.execute(s.setup())
            var chains: [[Command]] = []
            for _ in 0..<40 {
                let id: TransactionID = s.ids.next()
                let record = s.command(.recordTransaction(transactionID: id, entry: s.expense(1_000)))
                let edit = s.command(.editTransaction(transactionID: id, entry: s.expense(2_000)))
                chains.append([
                    record, edit, s.command(.undo(targetCommandID: edit.commandID)), s.command(.redo(targetCommandID: edit.commandID)),
                    s.command(.undo(targetCommandID: record.commandID)), s.command(.undo(targetCommandID: edit.commandID)), s.command(.undo(targetCommandID: record.commandID)),
                ])
            }
            let finalChains = chains
            await withTaskGroup(of: Void.self) { group in
                for chain in finalChains {
                    group.addTask {
                        for command in chain { _ = try? await ledger.execute(command) }
                    }
                }
            }
            let replayed = try LedgerReplay.replay(at: path)
            #expect(await ledger.state == replayed.state, "\(durability)")
            try await ledger.close()
            let reopened = try await Ledger.open(at: path, options: Self.options(durability, interval: 2))
            #expect(reopened.openReport.checkpointSequenceNumber != nil, "\(reopened.openReport.rejectedCheckpoints)")
            let replayedAgain = try LedgerReplay.replay(at: path)
            #expect(await reopened.state == replayedAgain.state, "\(durability)")
            // Each chain ends with its record undone (edit undone first): redo works from the
            // history read from the store.
            for chain in finalChains {
                try await reopened.execute(s.command(.redo(targetCommandID: chain[0].commandID)))
            }
            let replayedLast = try LedgerReplay.replay(at: path)
            #expect(await reopened.state == replayedLast.state, "\(durability)")
            try await reopened.close()
        }
    }

    // MARK: - Crash images: files of different moments put together

    static func copy(_ from: FilePath, _ to: FilePath) throws {
        try? FileManager.default.removeItem(atPath: to.string)
        try FileManager.default.copyItem(atPath: from.string, toPath: to.string)
    }

    /// The store's database file and the files SQLite keeps beside it.
    static let storeSuffixes = ["", "-wal", "-shm"]

    /// Replaces the store files of `target` with those of `source` (those `source` lacks are removed).
    static func takeStore(from source: FilePath, into target: FilePath, suffixes: [String] = storeSuffixes) throws {
        let fm = FileManager.default
        for suffix in suffixes {
            let to = storePath(target) + suffix
            try? fm.removeItem(atPath: to)
            let from = storePath(source) + suffix
            if fm.fileExists(atPath: from) { try fm.copyItem(atPath: from, toPath: to) }
        }
    }

    /// A copy of `source` at `memory` without its store, opened without one: a full replay,
    /// every history entry in memory.
    static func openInMemory(copying source: FilePath, to memory: FilePath) async throws -> Ledger {
        try copy(source, memory)
        try? FileManager.default.removeItem(atPath: LedgerDirectory(memory).readSide.string)
        return try await Ledger.open(at: memory, options: memoryOptions())
    }

    /// Opens `path` (history in its store) and a copy of it without a store (history replayed
    /// into memory), runs `steps` more commands of `workload` on both and compares every outcome
    /// and the states; then reopens `path` and compares it with a replay.
    /// - Returns: the report of the first open of `path`.
    @discardableResult
    static func expectSameAsReplayOnly(
        _ path: FilePath, workload: Workload, steps: Int, _ label: String, memoryFrom: FilePath? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> LedgerOpenReport {
        var workload = workload
        let memory = FilePath(path.string + "-memory")
        defer { try? FileManager.default.removeItem(atPath: memory.string) }
        let b = try await openInMemory(copying: memoryFrom ?? path, to: memory)
        let a = try await Ledger.open(at: path, options: options(interval: 3))
        let openedState = await a.state
        let replayedState = await b.state
        #expect(openedState == replayedState, "\(label): opened state differs from a replay (\(a.openReport))", sourceLocation: sourceLocation)
        var mismatches: [String] = []
        for step in 0..<steps {
            let command = workload.next()
            let outcomeA = await outcome(a, command)
            let outcomeB = await outcome(b, command)
            if outcomeA != outcomeB { mismatches.append("step \(step) \(command.action): history in the store \(outcomeA), replayed \(outcomeB)") }
        }
        #expect(mismatches.isEmpty, "\(label) (\(a.openReport.checkpointSequenceNumber.map(String.init) ?? "full replay")): \(mismatches.prefix(4))",
                sourceLocation: sourceLocation)
        let stateA = await a.state
        let stateB = await b.state
        #expect(stateA == stateB, "\(label): states differ after the same commands", sourceLocation: sourceLocation)
        let modelsA = await a.readModels
        let modelsB = await b.readModels
        #expect(modelsA == modelsB, "\(label): read models differ after the same commands", sourceLocation: sourceLocation)
        try await a.close()
        try await b.close()
        let reopened = try await Ledger.open(at: path, options: options())
        let replayed = try LedgerReplay.replay(at: path)
        #expect(await reopened.state == replayed.state, "\(label): reopened state differs from a replay", sourceLocation: sourceLocation)
        #expect(await reopened.readModels == replayed.readModels, "\(label): reopened read models differ from a replay", sourceLocation: sourceLocation)
        try await reopened.close()
        return a.openReport
    }

    /// A ledger taken through three checkpoints with undos and redos in between; an image of
    /// the whole directory is copied while it is open after each checkpoint (a crash image),
    /// and the store's main file after each close.
    struct Images {
        let root: TemporaryDirectory
        var workload: Workload
        var images: [FilePath] = []
        /// The sequence number of the checkpoint each image's store holds.
        var checkpoints: [UInt64] = []
        var closedStores: [FilePath] = []

        init(seed: UInt64) async throws {
            root = try TemporaryDirectory("tally-attack-history-images")
            workload = Workload(seed: seed)
            let path = root.appending("live")
            var ledger = try await Ledger.open(at: path, options: AttackCheckpointArchiveTests.options())
            try await ledger.execute(workload.setup())
            for phase in 0..<3 {
                for _ in 0..<40 { _ = await AttackCheckpointArchiveTests.outcome(ledger, workload.next()) }
                try await ledger.checkpoint()
                checkpoints.append(await ledger.lastSequenceNumber)
                let image = root.appending("image\(phase)")
                try AttackCheckpointArchiveTests.copy(path, image)  // idle: a crash image
                images.append(image)
                try await ledger.close()
                let closed = root.appending("closed\(phase)")
                try FileManager.default.createDirectory(atPath: LedgerDirectory(closed).readSide.string, withIntermediateDirectories: true)
                try AttackCheckpointArchiveTests.takeStore(from: path, into: closed)
                closedStores.append(closed)
                ledger = try await Ledger.open(at: path, options: AttackCheckpointArchiveTests.options())
            }
            // More history after the last image, in the live store's WAL.
            for _ in 0..<20 { _ = await AttackCheckpointArchiveTests.outcome(ledger, workload.next()) }
            try await ledger.checkpoint()
            checkpoints.append(await ledger.lastSequenceNumber)
            let image = root.appending("image3")
            try AttackCheckpointArchiveTests.copy(path, image)
            images.append(image)
            try await ledger.close()
        }
    }

    /// What an open of a damaged crash image must have done with the store's checkpoint.
    enum Expected {
        /// Opened from the checkpoint at this sequence number.
        case opensFrom(UInt64)
        /// A full replay, the checkpoint named once in the rejected ones.
        case rejects
        /// A full replay: no checkpoint found.
        case replays
        /// Either: what counts is that every outcome equals a replay's.
        case either
    }

    @Test("T5 with stores of other moments beside the journal (crash images, main file and WAL of different moments, lost or cut WAL, damaged checkpoint row): every outcome equals a replay's")
    func crashImages() async throws {
        let images = try await Images(seed: 99)
        defer { images.root.remove() }
        let root = images.root
        var cases: [(String, Expected, (FilePath) throws -> Void)] = []
        cases.append(("store of image 0 (an older checkpoint) beside the longer journal", .opensFrom(images.checkpoints[0]), {
            try Self.takeStore(from: images.images[0], into: $0)
        }))
        cases.append(("store of image 2 beside the longer journal", .opensFrom(images.checkpoints[2]), {
            try Self.takeStore(from: images.images[2], into: $0)
        }))
        // Rows newer than the checkpoint row cannot be read as of it (an undo entry changed
        // after it would be taken as its value then): the open finds them and replays instead.
        cases.append(("checkpoint row of image 0 over the history rows of image 3 (rows newer than the checkpoint)", .rejects, { path in
            let older = try #require(try StoredCheckpoints.bytes(at: images.images[0]))
            try StoredCheckpoints.replaceBytes(at: path, with: older)
        }))
        cases.append(("store deleted", .replays, { path in
            for suffix in Self.storeSuffixes { try? FileManager.default.removeItem(atPath: Self.storePath(path) + suffix) }
        }))
        cases.append(("checkpoint row damaged (one byte flipped)", .rejects, { path in
            var bytes = try #require(try StoredCheckpoints.bytes(at: path))
            bytes[bytes.count / 2] ^= 0x5A
            try StoredCheckpoints.replaceBytes(at: path, with: bytes)
        }))
        cases.append(("WAL lost", .either, { path in try FileManager.default.removeItem(atPath: Self.storePath(path) + "-wal") }))
        cases.append(("old main file (closed 0) under the current WAL", .either, { try Self.takeStore(from: images.closedStores[0], into: $0, suffixes: [""]) }))
        cases.append(("old main file (closed 1) under the current WAL", .either, { try Self.takeStore(from: images.closedStores[1], into: $0, suffixes: [""]) }))
        cases.append(("current main file under an old WAL (image 2)", .either, { try Self.takeStore(from: images.images[2], into: $0, suffixes: ["-wal", "-shm"]) }))
        cases.append(("WAL truncated to half", .either, { path in
            let handle = try #require(FileHandle(forUpdatingAtPath: Self.storePath(path) + "-wal"))
            let size = try handle.seekToEnd()
            #expect(size > 0, "the control: the image's WAL holds frames")
            try handle.truncate(atOffset: size / 2)
            try handle.close()
        }))
        for (index, (label, expected, damage)) in cases.enumerated() {
            let path = root.appending("case\(index)")
            try Self.copy(images.images[3], path)
            try damage(path)
            let report = try await Self.expectSameAsReplayOnly(path, workload: images.workload, steps: 150, label)
            switch expected {
            case .opensFrom(let sequenceNumber):
                #expect(report.checkpointSequenceNumber == sequenceNumber, "\(label): \(report)")
            case .rejects:
                #expect(report.checkpointSequenceNumber == nil, "\(label): \(report)")
                #expect(report.rejectedCheckpoints.count == 1 && report.rejectedCheckpoints.allSatisfy { $0.hasPrefix("the checkpoint in read-side.sqlite: ") },
                        "\(label): \(report.rejectedCheckpoints)")
            case .replays:
                #expect(report.checkpointSequenceNumber == nil && report.rejectedCheckpoints.isEmpty, "\(label): \(report)")
            case .either:
                break
            }
        }
    }

    @Test("A3 with a crash image: the store of a later moment beside a journal that lost what its checkpoint proves is refused (journalShorterThanEvidence naming the store's checkpoint), by open and replay, and nothing is cut")
    func storeAheadOfTheJournal() async throws {
        let images = try await Images(seed: 123)
        defer { images.root.remove() }
        let path = images.root.appending("ahead")
        try Self.copy(images.images[3], path)
        // The journal and the key store of image 2: only the checkpoint proves more.
        try Self.copy(LedgerDirectory(images.images[2]).journal, LedgerDirectory(path).journal)
        try Self.copy(LedgerDirectory(images.images[2]).personalKeys, LedgerDirectory(path).personalKeys)
        let segmentsBefore = try LedgerDirectory(path).segmentNames()
        let sizesBefore = try segmentsBefore.map { try FileManager.default.attributesOfItem(atPath: LedgerDirectory(path).journal.appending($0).string)[.size] as? Int }
        func refused(_ error: any Error) -> Bool {
            guard case .storage(.journalShorterThanEvidence(let last, let evidence))? = error as? LedgerError else { return false }
            return last == images.checkpoints[2] && evidence.lastSequenceNumber == images.checkpoints[3]
                && evidence.source == "the checkpoint in read-side/read-side.sqlite"
        }
        await #expect(performing: { _ = try await Ledger.open(at: path, options: Self.options()) }, throws: refused)
        #expect(performing: { _ = try LedgerReplay.replay(at: path) }, throws: refused)
        #expect(try LedgerDirectory(path).segmentNames() == segmentsBefore)
        let sizesAfter = try segmentsBefore.map { try FileManager.default.attributesOfItem(atPath: LedgerDirectory(path).journal.appending($0).string)[.size] as? Int }
        #expect(sizesAfter == sizesBefore, "the refused open cut the journal")
        #expect(LedgerDirectory(path).checkpointSequenceNumber() == images.checkpoints[3], "the refused open changed the store's checkpoint")
    }

    // MARK: - P3: a forgotten person's texts in the store's pages

    static func expectNoMarker(_ path: FilePath, _ marker: String, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let image = EncryptedSQLite.readableImage(ofDatabaseAt: storePath(path), key: LedgerStore.integrityKey)
        #expect(!image.isEmpty, "\(label): no store", sourceLocation: sourceLocation)
        let found = Data(image).range(of: Data(marker.utf8)) != nil
        #expect(!found, "\(label): a forgotten person's note survives in a page of the store or its WAL", sourceLocation: sourceLocation)
    }

    /// Whether a value of the store's history rows holds `marker` (read through SQL).
    static func historyHolds(_ path: FilePath, _ marker: String) throws -> Bool {
        let needle = Data(marker.utf8)
        return try StoredCheckpoints.withStore(at: path) { store in
            for space in ArchiveSpace.allCases {
                for entry in try store.historyEntries(space: space.rawValue, from: nil, through: nil) where Data(entry.value).range(of: needle) != nil {
                    return true
                }
            }
            return false
        }
    }

    @Test("P3: a forgotten person's many notes leave no page of the store (history rows included), with checkpoints written in the background all along",
          arguments: [1, 3, 0])
    func forgettingManyNotesWithCheckpointsInFlight(interval: Int) async throws {
        let directory = try TemporaryDirectory("tally-attack-history-forget")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        let marker = "Zyxwvu"
        let ledger = try await Ledger.open(at: path, options: Self.options(.none, interval: interval))
        try await ledger.execute(s.setup())
        var ids: [TransactionID] = []
        for index in 0..<300 {
            let id: TransactionID = s.ids.next()
            ids.append(id)
            var entry = s.expense(Int64(100 + index), shared: true, payer: s.bob)
            entry.note = "\(marker) note \(index) " + String(repeating: "x", count: index % 200)
            try await ledger.execute(s.command(.recordTransaction(transactionID: id, entry: entry), by: s.bob))
            if index % 3 == 0 {
                var edited = entry
                edited.note = "\(marker) edited \(index)"
                try await ledger.execute(s.command(.editTransaction(transactionID: id, entry: edited), by: s.bob))
            }
            if index % 50 == 49 { try await ledger.checkpoint() }
        }
        try await ledger.checkpoint()
        // Alice's notes stay; the control: Bob's notes are in the store's history before forgetting.
        #expect(try Self.historyHolds(path, marker), "control: the store's history holds Bob's notes")
        try await ledger.execute(s.command(.removeMember(personID: s.bob, acknowledgeUnsettled: true)))
        try await ledger.execute(s.command(.forgetPerson(personID: s.bob)))
        for _ in 0..<10 { try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(5)))) }
        await ledger.checkpointWritten()
        #expect(await ledger.unfinishedForgetting.isEmpty)
        Self.expectNoMarker(path, marker, "interval \(interval), open")
        try await ledger.close()
        Self.expectNoMarker(path, marker, "interval \(interval), closed")
        #expect(try !Self.historyHolds(path, marker), "interval \(interval): a history row holds a forgotten note")
        let reopened = try await Ledger.open(at: path, options: Self.options(.none, interval: interval))
        let replayed = try LedgerReplay.replay(at: path)
        #expect(await reopened.state == replayed.state)
        try await reopened.close()
        Self.expectNoMarker(path, marker, "interval \(interval), reopened")
    }

    // MARK: - Audit next to a running ledger

    @Test("audit: auditing a ledger while it writes checkpoints reports no problem (a checkpoint replaced before it was read whole is not compared, never differing or unreadable)")
    func auditWhileCheckpointsAreWritten() async throws {
        let directory = try TemporaryDirectory("tally-attack-history-audit")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var workload = Workload(seed: 5)
        let ledger = try await Ledger.open(at: path, options: Self.options(.none, interval: 1))
        try await ledger.execute(workload.setup())
        for _ in 0..<300 { _ = await Self.outcome(ledger, workload.next()) }
        let commands = (0..<1_500).map { _ in workload.next() }
        let writer = Task {
            for command in commands { _ = try? await ledger.execute(command) }
        }
        var differs: [String] = []
        var audits = 0
        var compared = 0
        while !writer.isCancelled, audits < 60 {
            let report = try LedgerAudit.audit(at: path)
            audits += 1
            if case .differs(let sequenceNumber, let reason) = report.checkpoint { differs.append("\(sequenceNumber): \(reason)") }
            if case .matchesReplay = report.checkpoint { compared += 1 }
            if !report.problems.isEmpty { differs.append("problems: \(report.problems.map(\.message))") }
            if await ledger.lastSequenceNumber >= UInt64(commands.count) + 300 { break }
        }
        await writer.value
        try await ledger.close()
        #expect(differs.isEmpty, "\(differs.count) of \(audits) audits: \(differs.prefix(3))")
        let final = try LedgerAudit.audit(at: path)
        #expect(final.problems.isEmpty, "\(final.problems)")
        guard case .matchesReplay = final.checkpoint else {
            Issue.record("the idle ledger's checkpoint was not compared: \(final.checkpoint) (\(compared) of \(audits) compared while it wrote)")
            return
        }
    }

    /// An idle ledger with a checkpoint whose history rows are many, audited clean (the control).
    static func idleLedgerWithCheckpoint(_ directory: TemporaryDirectory, seed: UInt64) async throws -> FilePath {
        let path = directory.appending("ledger")
        var workload = Workload(seed: seed)
        let ledger = try await Ledger.open(at: path, options: Self.options())
        try await ledger.execute(workload.setup())
        for _ in 0..<40 { _ = await Self.outcome(ledger, workload.next()) }
        try await ledger.checkpoint()
        try await ledger.close()
        let clean = try LedgerAudit.audit(at: path)
        #expect(clean.problems.isEmpty, "the control: a clean audit before: \(clean.problems)")
        guard case .matchesReplay = clean.checkpoint else {
            Issue.record("the control: the checkpoint was compared: \(clean.checkpoint)")
            return path
        }
        return path
    }

    static func auditCodes(_ path: FilePath) throws -> (codes: [String], checkpoint: CheckpointStatus) {
        let report = try LedgerAudit.audit(at: path)
        return (report.problems.map(\.code).filter { $0 != "permissionsTooOpen" }, report.checkpoint)
    }

    @Test("audit: on an idle ledger whose checkpoint row does not decode, the checkpoint is checkpointUnreadable (never 'not compared', which is only for a writer replacing the checkpoint)")
    func auditOfIdleLedgerWithDamagedCheckpointRow() async throws {
        let directory = try TemporaryDirectory("tally-attack-history-unreadable")
        defer { directory.remove() }
        let path = try await Self.idleLedgerWithCheckpoint(directory, seed: 9)
        var bytes = try #require(try StoredCheckpoints.bytes(at: path))
        bytes[bytes.count - 1] ^= 0x01  // the CRC32C
        try StoredCheckpoints.replaceBytes(at: path, with: bytes)
        let (codes, checkpoint) = try Self.auditCodes(path)
        #expect(codes == ["checkpointUnreadable"], "\(codes)")
        guard case .unreadable = checkpoint else {
            Issue.record("expected unreadable, got \(checkpoint)")
            return
        }
    }

    @Test("audit: on an idle ledger, an altered history row, a history row removed, an extra one or the history emptied (checkpoint row kept) is checkpointDiffers naming the space")
    func auditFindsAlteredHistory() async throws {
        let directory = try TemporaryDirectory("tally-attack-history-altered")
        defer { directory.remove() }
        let base = try await Self.idleLedgerWithCheckpoint(directory, seed: 10)
        let space = ArchiveSpace.commandEntries
        let entries = try StoredCheckpoints.withStore(at: base) { try $0.historyEntries(space: space.rawValue, from: nil, through: nil) }
        try #require(entries.count > 2, "the control: the store's history holds command entries")
        let victim = entries[entries.count / 2]
        let cases: [(String, (LedgerStore) throws -> Void)] = [
            ("one byte of a value altered", { store in
                var value = victim.value
                value[value.count - 1] ^= 0x01
                try store.writeCheckpoint([ArchiveRow(space: space.rawValue, key: victim.key, value: value)], version: 0, replacingAll: false, state: nil)
            }),
            ("a row removed", { store in
                // Every row again but one: replacingAll empties the table first.
                let kept = entries.filter { $0.key != victim.key }.map { ArchiveRow(space: space.rawValue, key: $0.key, value: $0.value) }
                let others = try ArchiveSpace.allCases.filter { $0 != space }.flatMap { other in
                    try store.historyEntries(space: other.rawValue, from: nil, through: nil).map { ArchiveRow(space: other.rawValue, key: $0.key, value: $0.value) }
                }
                try store.writeCheckpoint(kept + others, version: 0, replacingAll: true, state: nil)
            }),
            ("an extra row", { store in
                try store.writeCheckpoint([ArchiveRow(space: space.rawValue, key: victim.key + [0xFF], value: victim.value)], version: 0, replacingAll: false, state: nil)
            }),
            ("the history emptied", { store in
                try store.writeCheckpoint([], version: 0, replacingAll: true, state: nil)
            }),
        ]
        for (index, (label, alter)) in cases.enumerated() {
            let path = directory.appending("case\(index)")
            try Self.copy(base, path)
            try StoredCheckpoints.withStore(at: path, alter)
            let (codes, checkpoint) = try Self.auditCodes(path)
            #expect(codes == ["checkpointDiffers"], "\(label): \(codes)")
            guard case .differs(_, let reason) = checkpoint else {
                Issue.record("\(label): expected differs, got \(checkpoint)")
                continue
            }
            #expect(reason.contains(index < 3 ? "history entries of \(space)" : "history entries of "), "\(label): \(reason)")
        }
    }

    // MARK: - Many touches of one key

    @Test("T5: an undo checked against many touches of one key in the store's history names the same first blocking event as with the history in memory, before and after reopening")
    func undoAgainstManyArchivedTouches() async throws {
        let directory = try TemporaryDirectory("tally-attack-history-touches")
        defer { directory.remove() }
        var s = Scenario()
        let setup = s.setup()
        let openJoint = setup[2]
        var commands: [Command] = []
        for index in 0..<20_000 {
            commands.append(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(Int64(1 + index % 500)))))
        }
        let undo = s.command(.undo(targetCommandID: openJoint.commandID))
        func blocked(_ ledger: Ledger) async -> String? {
            do {
                try await ledger.execute(undo)
                Issue.record("undoing the wallet's opening was accepted")
                return nil
            } catch {
                #expect(error.code == "undoBlocked", "\(error)")
                return error.message
            }
        }
        var messages: [String: String] = [:]
        for (label, stored) in [("stored", true), ("memory", false)] {
            let path = directory.appending(label)
            let ledger = try await Ledger.open(at: path, options: stored ? Self.options(.none, interval: 1_000) : Self.memoryOptions())
            try await ledger.execute(setup)
            for start in stride(from: 0, to: commands.count, by: 500) {
                _ = try await ledger.execute(each: Array(commands[start..<(start + 500)]))
            }
            if stored {
                try await ledger.checkpoint()
                #expect(await ledger.archivedEntriesInMemory == 0, "the control: the touches are read from the store")
            }
            messages[label] = await blocked(ledger)
            try await ledger.close()
            if stored {
                let reopened = try await Ledger.open(at: path, options: Self.options(.none, interval: 1_000))
                #expect(reopened.openReport.checkpointSequenceNumber != nil, "\(reopened.openReport.rejectedCheckpoints)")
                messages["reopened"] = await blocked(reopened)
                try await reopened.close()
            }
        }
        // The first touch after the opening blocks (the search stops there; timing is in Benchmarks/).
        #expect(messages["stored"] != nil && messages["stored"] == messages["memory"] && messages["reopened"] == messages["memory"], "\(messages)")
    }

    // MARK: - A damaged page that the open does not read

    @Test("T5: a damaged page of the store is found at open (full replay), or a command that reads it is refused (journalFailed, the store's history failed) and the reopened ledger answers it as a replay does; no command ever gets another answer, and the damage never keeps the ledger failing")
    func damagedPageAnywhere() async throws {
        let root = try TemporaryDirectory("tally-attack-history-pages")
        defer { root.remove() }
        let base = root.appending("base")
        var workload = Workload(seed: 31)
        let ledger = try await Ledger.open(at: base, options: Self.options(.none))
        try await ledger.execute(workload.setup())
        for _ in 0..<250 { _ = await Self.outcome(ledger, workload.next()) }
        try await ledger.checkpoint()
        try await ledger.close()
        #expect(try StoredCheckpoints.historyRowCount(at: base) > 0, "the control: the store holds the history")
        let probe = workload.issued
        var s = workload.s
        var probes: [Command] = []
        for id in probe { probes.append(s.command(.undo(targetCommandID: id))) }
        for id in probe { probes.append(s.command(.redo(targetCommandID: id))) }
        for id in probe.prefix(40) {
            var duplicate = s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(10)))
            duplicate.commandID = id
            probes.append(duplicate)
        }
        // The outcomes with the history all in memory.
        let reference = try await Self.openInMemory(copying: base, to: root.appending("memory"))
        var expected: [String] = []
        for command in probes { expected.append(await Self.outcome(reference, command)) }
        try await reference.close()

        let file = try Data(contentsOf: URL(fileURLWithPath: Self.storePath(base)))
        let declared = Int(file[16]) << 8 | Int(file[17])
        let pageSize = declared == 1 ? 65_536 : declared
        try #require(pageSize >= 512 && file.count / pageSize > 2, "the store's page size \(pageSize), \(file.count) bytes")
        var silent: [String] = []
        var foundAtOpen = 0
        var refusedPages = 0
        for page in 0..<(file.count / pageSize) {
            let path = root.appending("page\(page)")
            try Self.copy(base, path)
            let handle = try #require(FileHandle(forUpdatingAtPath: Self.storePath(path)))
            try handle.seek(toOffset: UInt64(page * pageSize + min(1_500, pageSize / 2)))
            handle.write(Data(repeating: 0xA5, count: 16))
            try handle.close()
            var damaged = try await Ledger.open(at: path, options: Self.options(.none))
            let openedFrom = damaged.openReport.checkpointSequenceNumber
            if openedFrom == nil { foundAtOpen += 1 }
            var differing: [String] = []
            var refused = 0
            for (index, command) in probes.enumerated() {
                let first = await Self.outcomeAndMessage(damaged, command)
                var got = first.code
                let historyFailed = await damaged.storeHistory.failure != nil
                if got == "journalFailed", historyFailed, refused == 0 {
                    // The damage was read: refused, never answered. Reopened, the ledger
                    // replays the journal and answers the same command as the reference.
                    refused += 1
                    refusedPages += 1
                    try? await damaged.close()
                    damaged = try await Ledger.open(at: path, options: Self.options(.none))
                    if damaged.openReport.checkpointSequenceNumber != nil { differing.append("reopened from the checkpoint after the damage was read") }
                    got = await Self.outcome(damaged, command)
                }
                if got != expected[index] { differing.append("\(command.action): \(got) \(first.message), expected \(expected[index])") }
            }
            if !differing.isEmpty {
                silent.append("page \(page) (opened from \(openedFrom.map(String.init) ?? "replay")): \(differing.count) differ, first \(differing[0])")
            }
            try? await damaged.close()
            // Open again: the damage must not keep the ledger failing.
            let again = try await Ledger.open(at: path, options: Self.options(.none))
            let command = s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(11)))
            let outcome = await Self.outcomeAndMessage(again, command)
            if outcome.code != "ok" { silent.append("page \(page): after reopening, a new command fails with \(outcome.code): \(outcome.message)") }
            try? await again.close()
            try? FileManager.default.removeItem(atPath: path.string)
        }
        #expect(silent.isEmpty, "\(silent.count) damaged page(s) changed outcomes (\(foundAtOpen) found at open, \(refusedPages) refused): \(silent.prefix(4))")
    }

    // MARK: - Encrypted ledgers, key rotation, repair

    @Test("T5 on an encrypted ledger: the store (its history included) is sealed with a key derived from the ledger key; after a key rotation the open replays, the old store is gone and undo keeps working; a checkpoint removed (as a repair sets the store aside) leaves no stale history read")
    func encryptedRotationAndRepair() async throws {
        let directory = try TemporaryDirectory("tally-attack-history-encrypted")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        let first = try JournalEncryption(keyID: 1, key: [UInt8](repeating: 1, count: 32))
        var options = Self.options(.none, interval: 2)
        options.encryption = first
        var workload = Workload(seed: 77)
        var ledger = try await Ledger.open(at: path, options: options)
        try await ledger.execute(workload.setup())
        for _ in 0..<120 { _ = await Self.outcome(ledger, workload.next()) }
        try await ledger.close()
        #expect(try StoredCheckpoints.historyRowCount(at: path, encryption: first) > 0, "the control: the store holds the history")
        let sealed = EncryptedSQLite.readableImage(ofDatabaseAt: Self.storePath(path), key: LedgerStore.integrityKey)
        #expect(Data(sealed).range(of: Data("note ".utf8)) == nil, "the store of an encrypted ledger is readable with the public key")
        let opened = EncryptedSQLite.readableImage(ofDatabaseAt: Self.storePath(path), key: ReadSide.pageKey(first))
        #expect(Data(opened).range(of: Data("note ".utf8)) != nil, "the control: the ledger's page key opens the store's pages")
        ledger = try await Ledger.open(at: path, options: options)
        #expect(ledger.openReport.checkpointSequenceNumber != nil, "\(ledger.openReport.rejectedCheckpoints)")
        for _ in 0..<60 { _ = await Self.outcome(ledger, workload.next()) }
        try await ledger.close()
        options.encryption = try first.rotated(toKeyID: 2, key: [UInt8](repeating: 2, count: 32))
        for round in 0..<3 {
            ledger = try await Ledger.open(at: path, options: options)
            // The store sealed with the old key cannot be read with the new one: rebuilt, the
            // state replayed; then opened from the checkpoints written under the new key.
            if round == 0 {
                #expect(ledger.openReport.checkpointSequenceNumber == nil, "round 0: \(ledger.openReport)")
            } else {
                #expect(ledger.openReport.checkpointSequenceNumber != nil, "round \(round): \(ledger.openReport.rejectedCheckpoints)")
            }
            for _ in 0..<60 { _ = await Self.outcome(ledger, workload.next()) }
            let replayed = try LedgerReplay.replay(at: path, encryption: options.encryption)
            #expect(await ledger.state == replayed.state, "round \(round)")
            try await ledger.close()
        }
        let old = EncryptedSQLite.readableImage(ofDatabaseAt: Self.storePath(path), key: ReadSide.pageKey(first))
        #expect(old.isEmpty, "after the rotation, pages of the store still open with the retired key")
        // The checkpoint and its history removed (as a repair sets the store aside): the open
        // replays, reads no stale history, and writes the history again.
        try StoredCheckpoints.remove(at: path, encryption: options.encryption)
        #expect(try StoredCheckpoints.historyRowCount(at: path, encryption: options.encryption) == 0)
        ledger = try await Ledger.open(at: path, options: options)
        #expect(ledger.openReport.checkpointSequenceNumber == nil)
        for _ in 0..<60 { _ = await Self.outcome(ledger, workload.next()) }
        let replayed = try LedgerReplay.replay(at: path, encryption: options.encryption)
        #expect(await ledger.state == replayed.state)
        try await ledger.close()
        #expect(try StoredCheckpoints.historyRowCount(at: path, encryption: options.encryption) > 0, "no history written after the checkpoint was removed")
        let audit = try LedgerAudit.audit(at: path, encryption: options.encryption)
        #expect(audit.problems.isEmpty, "\(audit.problems)")
        // The whole store set aside, as a repair does: rebuilt, replayed, the same state.
        let aside = directory.appending("set-aside")
        try FileManager.default.moveItem(atPath: LedgerDirectory(path).readSide.string, toPath: aside.string)
        ledger = try await Ledger.open(at: path, options: options)
        #expect(ledger.openReport.checkpointSequenceNumber == nil)
        for _ in 0..<20 { _ = await Self.outcome(ledger, workload.next()) }
        let replayedAgain = try LedgerReplay.replay(at: path, encryption: options.encryption)
        #expect(await ledger.state == replayedAgain.state)
        try await ledger.close()
        let final = try await Ledger.open(at: path, options: options)
        #expect(final.openReport.checkpointSequenceNumber != nil, "\(final.openReport.rejectedCheckpoints)")
        try await final.close()
    }

    // MARK: - Closing releases the store

    static func openDescriptors(containing text: String) -> Int {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return fds.filter { fd in
            ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")) ?? "").contains(text)
        }.count
    }

    @Test("closing a ledger closes its store: no descriptor of it (or its WAL) stays open after many open/close cycles with checkpoints")
    func closeReleasesArchive() async throws {
        let directory = try TemporaryDirectory("tally-attack-history-fds")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var workload = Workload(seed: 3)
        var ledger = try await Ledger.open(at: path, options: Self.options(.none, interval: 5))
        try await ledger.execute(workload.setup())
        #expect(Self.openDescriptors(containing: Self.storePath(path)) > 0, "the control: an open ledger holds its store open")
        try await ledger.close()
        for _ in 0..<10 {
            ledger = try await Ledger.open(at: path, options: Self.options(.none, interval: 5))
            for _ in 0..<30 { _ = await Self.outcome(ledger, workload.next()) }
            try await ledger.close()
        }
        let open = Self.openDescriptors(containing: Self.storePath(path))
        #expect(open == 0, "\(open) descriptor(s) of the closed ledger's store stay open")
    }

    // MARK: - Forgetting while commands and checkpoints run concurrently

    @Test("P3 and T5: forgetting a person while other commands and explicit checkpoints run concurrently leaves no note of theirs in the store and the state equals a replay")
    func forgettingConcurrently() async throws {
        for durability in [DurabilityPolicy.synchronous, .none] {
            let directory = try TemporaryDirectory("tally-attack-history-forget-concurrent")
            defer { directory.remove() }
            let path = directory.appending("ledger")
            var s = Scenario()
            let marker = "Mnbvcxy"
            let ledger = try await Ledger.open(at: path, options: Self.options(durability, interval: 1))
            try await ledger.execute(s.setup())
            for index in 0..<120 {
                var entry = s.expense(Int64(100 + index), shared: true, payer: s.bob)
                entry.note = "\(marker) \(index)"
                try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: entry), by: s.bob))
            }
            await ledger.checkpointWritten()
            #expect(try Self.historyHolds(path, marker), "control: the store's history holds Bob's notes")
            try await ledger.execute(s.command(.removeMember(personID: s.bob, acknowledgeUnsettled: true)))
            let forget = s.command(.forgetPerson(personID: s.bob))
            let others = (0..<200).map { _ in s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(7))) }
            await withTaskGroup(of: Void.self) { group in
                for chunk in stride(from: 0, to: others.count, by: 20) {
                    let commands = Array(others[chunk..<(chunk + 20)])
                    group.addTask { for command in commands { _ = try? await ledger.execute(command) } }
                }
                group.addTask { for _ in 0..<10 { try? await ledger.checkpoint() } }
                group.addTask {
                    try? await Task.sleep(for: .milliseconds(5))
                    _ = try? await ledger.execute(forget)
                }
            }
            await ledger.checkpointWritten()
            #expect(await ledger.unfinishedForgetting.isEmpty)
            Self.expectNoMarker(path, marker, "\(durability), open")
            let replayed = try LedgerReplay.replay(at: path)
            #expect(await ledger.state == replayed.state, "\(durability)")
            try await ledger.close()
            Self.expectNoMarker(path, marker, "\(durability), closed")
            #expect(try !Self.historyHolds(path, marker), "\(durability): a history row holds a forgotten note")
            let reopened = try await Ledger.open(at: path, options: Self.options(durability, interval: 1))
            let replayedAgain = try LedgerReplay.replay(at: path)
            #expect(await reopened.state == replayedAgain.state, "\(durability)")
            try await reopened.close()
        }
    }

    // MARK: - Something else at the store's path

    @Test("T5: a FIFO, a directory, a symlink or a read-only file at the store's path (or its WAL's), or a file at its folder's, neither hangs the open, the audit or the replay, nor changes undo outcomes; a symlink's target is not written through",
          .timeLimit(.minutes(10)))
    func strangeFilesAtArchivePath() async throws {
        let images = try await Images(seed: 5150)
        defer { images.root.remove() }
        let other = images.images[0]
        func storeBytes() -> [Data?] { Self.storeSuffixes.map { FileManager.default.contents(atPath: Self.storePath(other) + $0) } }
        let otherBytes = storeBytes()
        #expect(otherBytes[0] != nil, "the control: the older image has a store")
        func removeStore(_ path: FilePath) {
            for suffix in Self.storeSuffixes { try? FileManager.default.removeItem(atPath: Self.storePath(path) + suffix) }
        }
        let cases: [(String, (FilePath) throws -> Void)] = [
            ("FIFO", { path in
                removeStore(path)
                #expect(mkfifo(Self.storePath(path), 0o644) == 0)
            }),
            ("FIFO WAL", { path in
                try? FileManager.default.removeItem(atPath: Self.storePath(path) + "-wal")
                #expect(mkfifo(Self.storePath(path) + "-wal", 0o644) == 0)
            }),
            ("directory", { path in
                removeStore(path)
                try FileManager.default.createDirectory(atPath: Self.storePath(path), withIntermediateDirectories: false)
            }),
            ("symlink to an older image's store", { path in
                removeStore(path)
                try FileManager.default.createSymbolicLink(atPath: Self.storePath(path), withDestinationPath: Self.storePath(other))
            }),
            ("read-only", { path in
                #expect(chmod(Self.storePath(path), 0o444) == 0)
            }),
            ("a file at the read-side folder's path", { path in
                let folder = LedgerDirectory(path).readSide.string
                try FileManager.default.removeItem(atPath: folder)
                #expect(FileManager.default.createFile(atPath: folder, contents: Data("not a folder".utf8)))
            }),
        ]
        for (index, (label, damage)) in cases.enumerated() {
            let path = images.root.appending("strange\(index)")
            try Self.copy(images.images[3], path)
            try damage(path)
            _ = try? LedgerAudit.audit(at: path)
            _ = try? LedgerRepair.plan(at: path)
            _ = try? LedgerReplay.replay(at: path)
            try await Self.expectSameAsReplayOnly(path, workload: images.workload, steps: 120, label, memoryFrom: images.images[3])
        }
        // The symlink's target (another ledger's store) was not written through.
        #expect(storeBytes() == otherBytes, "the store a symlink pointed to was written")
        let untouched = try await Ledger.open(at: other, options: Self.options())
        #expect(untouched.openReport.checkpointSequenceNumber == images.checkpoints[0], "\(untouched.openReport.rejectedCheckpoints)")
        try await untouched.close()
    }
}
