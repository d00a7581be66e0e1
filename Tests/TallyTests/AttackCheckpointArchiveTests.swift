import Foundation
import SystemPackage
@testable import Tally
import TallyJournal
import TallyModel
import TallySQLiteEncryption
import TallyStore
import TallyTestSupport
import Testing

/// Attacks on the checkpoint archive (the command history T5 keeps on disk): a ledger that
/// archives its history must behave exactly as one that keeps it all in memory.
@Suite("Attack: checkpoint archive", .serialized)
struct AttackCheckpointArchiveTests {
    static func archivePath(_ ledger: FilePath) -> String {
        ledger.appending(LedgerDirectory.checkpointsName).appending(LedgerDirectory.checkpointArchiveName).string
    }

    static func options(_ durability: DurabilityPolicy = .synchronous, interval: Int = 0) -> LedgerOptions {
        var options = LedgerOptions(durability: durability)
        options.checkpointIntervalEvents = interval
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
                command = s.command(.recordTransaction(id, entry))
            } else if roll < 45 {
                let id = transactions.randomElement(using: &random)!
                var entry = s.expense(Int64.random(in: 1...50_000, using: &random), shared: Bool.random(using: &random))
                entry.note = Bool.random(using: &random) ? nil : "edited \(Int.random(in: 0..<1_000, using: &random))"
                command = s.command(.editTransaction(id, entry))
            } else if roll < 53 {
                command = s.command(.deleteTransaction(transactions.randomElement(using: &random)!))
            } else if roll < 57 {
                command = s.command(.restoreTransaction(transactions.randomElement(using: &random)!))
            } else if roll < 77 {
                command = s.command(.undo(issued.randomElement(using: &random)!))
            } else if roll < 94 {
                command = s.command(.redo(issued.randomElement(using: &random)!))
            } else {
                // A reused id: always a duplicate.
                let id: TransactionID = s.ids.next()
                command = s.command(.recordTransaction(id, s.expense(100)))
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

    @Test("T5: the state read from a closed ledger still holds the archived command history")
    func stateAfterCloseKeepsHistory() async throws {
        let directory = try TemporaryDirectory("tally-attack-archive-close")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var workload = Workload(seed: 7)
        let ledger = try await Ledger.open(at: path, options: Self.options())
        try await ledger.execute(workload.setup())
        for _ in 0..<20 { _ = await Self.outcome(ledger, workload.next()) }
        try await ledger.checkpoint()
        try await ledger.close()
        let afterClose = await ledger.state
        let replayed = try LedgerReplay.replay(at: path)
        #expect(afterClose.history.allEntries.count == replayed.state.history.allEntries.count,
                "the closed ledger's state lost its archived history entries")
        #expect(afterClose.history.allTouches.count == replayed.state.history.allTouches.count,
                "the closed ledger's state lost its archived touches")
    }

    // MARK: - T5: differential, archived history against history in memory

    /// Runs the same commands against a ledger that checkpoints every few events (history in
    /// the archive, checkpoints written in the background while the next commands run, reopened
    /// now and then) and one that never checkpoints (all history in memory): every outcome and
    /// the final states must agree.
    func differential(seed: UInt64, durability: DurabilityPolicy, interval: Int, steps: Int) async throws {
        let directory = try TemporaryDirectory("tally-attack-archive-diff")
        defer { directory.remove() }
        let archived = directory.appending("archived")
        let memory = directory.appending("memory")
        var workload = Workload(seed: seed)
        var random = SeededRandom(seed: seed &+ 1)
        var a = try await Ledger.open(at: archived, options: Self.options(durability, interval: interval))
        let b = try await Ledger.open(at: memory, options: Self.options(.none))
        let setup = workload.setup()
        try await a.execute(setup)
        try await b.execute(setup)
        var mismatches: [String] = []
        for step in 0..<steps {
            let command = workload.next()
            let outcomeA = await Self.outcome(a, command)
            let outcomeB = await Self.outcome(b, command)
            if outcomeA != outcomeB { mismatches.append("step \(step) \(command.action): archived \(outcomeA), in memory \(outcomeB)") }
            let roll = Int.random(in: 0..<100, using: &random)
            if roll < 3 {
                try await a.checkpoint()
            } else if roll < 5 {
                try await a.close()
                a = try await Ledger.open(at: archived, options: Self.options(durability, interval: interval))
                if a.openReport.checkpointSequenceNumber == nil && step > 10 {
                    mismatches.append("step \(step): reopened by full replay: \(a.openReport.rejectedCheckpoints)")
                }
            }
        }
        #expect(mismatches.isEmpty, "seed \(seed) \(durability) interval \(interval): \(mismatches.prefix(5))")
        let stateA = await a.state
        let stateB = await b.state
        #expect(stateA == stateB, "seed \(seed): the archived ledger's state differs from the in-memory one")
        let modelsA = await a.readModels
        let modelsB = await b.readModels
        #expect(modelsA == modelsB, "seed \(seed): the archived ledger's read models differ from the in-memory one")
        try await a.close()
        try await b.close()
        let reopened = try await Ledger.open(at: archived, options: Self.options(durability, interval: interval))
        let replayed = try LedgerReplay.replay(at: archived)
        #expect(await reopened.state == replayed.state, "seed \(seed): reopened state differs from a replay")
        #expect(await reopened.readModels == replayed.readModels, "seed \(seed): reopened read models differ from a replay")
        try await reopened.close()
    }

    @Test("T5: archived history behaves as history in memory (synchronous, a checkpoint every event or few)",
          arguments: [(UInt64(1), 1), (2, 2), (3, 3), (4, 5)])
    func differentialSynchronous(seed: UInt64, interval: Int) async throws {
        try await differential(seed: seed, durability: .synchronous, interval: interval, steps: 250)
    }

    @Test("T5: archived history behaves as history in memory (.none and .interval durability)",
          arguments: [(UInt64(11), 1), (12, 2), (13, 4)])
    func differentialRelaxed(seed: UInt64, interval: Int) async throws {
        try await differential(seed: seed, durability: .none, interval: interval, steps: 250)
        try await differential(seed: seed &+ 100, durability: .interval(milliseconds: 5), interval: interval, steps: 150)
    }

    // MARK: - T5 under concurrent execute calls

    @Test("T5: many concurrent commands while checkpoints are written: state equals a replay, before and after reopening")
    func concurrentCommandsAndCheckpoints() async throws {
        for durability in [DurabilityPolicy.synchronous, .none] {
            let directory = try TemporaryDirectory("tally-attack-archive-concurrent")
            defer { directory.remove() }
            let path = directory.appending("ledger")
            var s = Scenario()
            let ledger = try await Ledger.open(at: path, options: Self.options(durability, interval: 2))
            try await ledger.execute(s.setup())
            var chains: [[Command]] = []
            for _ in 0..<40 {
                let id: TransactionID = s.ids.next()
                let record = s.command(.recordTransaction(id, s.expense(1_000)))
                let edit = s.command(.editTransaction(id, s.expense(2_000)))
                chains.append([
                    record, edit, s.command(.undo(edit.commandID)), s.command(.redo(edit.commandID)),
                    s.command(.undo(record.commandID)), s.command(.undo(edit.commandID)), s.command(.undo(record.commandID)),
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
            #expect(reopened.openReport.checkpointSequenceNumber != nil)
            let replayedAgain = try LedgerReplay.replay(at: path)
            #expect(await reopened.state == replayedAgain.state, "\(durability)")
            // Each chain ends with its record undone (edit undone first): redo works from the archive.
            for chain in finalChains {
                try await reopened.execute(s.command(.redo(chain[0].commandID)))
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

    static func checkpointsFolder(_ ledger: FilePath) -> FilePath { ledger.appending(LedgerDirectory.checkpointsName) }

    /// Replaces the checkpoint files (not the archive) of `target` with those of `source`.
    static func takeCheckpointFiles(from source: FilePath, into target: FilePath) throws {
        let fm = FileManager.default
        for name in try fm.contentsOfDirectory(atPath: checkpointsFolder(target).string) where name.hasSuffix(LedgerDirectory.checkpointSuffix) {
            try fm.removeItem(atPath: checkpointsFolder(target).appending(name).string)
        }
        for name in try fm.contentsOfDirectory(atPath: checkpointsFolder(source).string) where name.hasSuffix(LedgerDirectory.checkpointSuffix) {
            try fm.copyItem(atPath: checkpointsFolder(source).appending(name).string, toPath: checkpointsFolder(target).appending(name).string)
        }
    }

    /// Replaces the archive files of `target` with those of `source` (those `source` lacks are removed).
    static func takeArchive(from source: FilePath, into target: FilePath, suffixes: [String] = ["", "-wal", "-shm"]) throws {
        let fm = FileManager.default
        for suffix in suffixes {
            let to = archivePath(target) + suffix
            try? fm.removeItem(atPath: to)
            let from = archivePath(source) + suffix
            if fm.fileExists(atPath: from) { try fm.copyItem(atPath: from, toPath: to) }
        }
    }

    /// Opens `path` (archived history) and a copy of it without checkpoints (history replayed
    /// into memory), runs `steps` more commands of `workload` on both and compares every outcome
    /// and the states; then reopens `path` and compares it with a replay.
    static func expectSameAsReplayOnly(
        _ path: FilePath, workload: Workload, steps: Int, _ label: String, memoryFrom: FilePath? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        var workload = workload
        let memory = FilePath(path.string + "-memory")
        try copy(memoryFrom ?? path, memory)
        try FileManager.default.removeItem(atPath: checkpointsFolder(memory).string)
        defer { try? FileManager.default.removeItem(atPath: memory.string) }
        let a = try await Ledger.open(at: path, options: options(interval: 3))
        let b = try await Ledger.open(at: memory, options: options(.none))
        let openedState = await a.state
        let replayedState = await b.state
        #expect(openedState == replayedState, "\(label): opened state differs from a replay (\(a.openReport))", sourceLocation: sourceLocation)
        var mismatches: [String] = []
        for step in 0..<steps {
            let command = workload.next()
            let outcomeA = await outcome(a, command)
            let outcomeB = await outcome(b, command)
            if outcomeA != outcomeB { mismatches.append("step \(step) \(command.action): archived \(outcomeA), replayed \(outcomeB)") }
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
    }

    /// A ledger taken through three checkpoints with undos and redos in between; an image of
    /// the whole directory is copied while it is open after each checkpoint (a crash image),
    /// and the archive's main file after each close.
    struct Images {
        let root: TemporaryDirectory
        var workload: Workload
        var images: [FilePath] = []
        var closedArchives: [FilePath] = []

        init(seed: UInt64) async throws {
            root = try TemporaryDirectory("tally-attack-archive-images")
            workload = Workload(seed: seed)
            let path = root.appending("live")
            var ledger = try await Ledger.open(at: path, options: AttackCheckpointArchiveTests.options())
            try await ledger.execute(workload.setup())
            for phase in 0..<3 {
                for _ in 0..<40 { _ = await AttackCheckpointArchiveTests.outcome(ledger, workload.next()) }
                try await ledger.checkpoint()
                let image = root.appending("image\(phase)")
                try AttackCheckpointArchiveTests.copy(path, image)  // idle: a crash image
                images.append(image)
                try await ledger.close()
                let closed = root.appending("closed\(phase)")
                try FileManager.default.createDirectory(atPath: checkpointsFolder(closed).string, withIntermediateDirectories: true)
                try AttackCheckpointArchiveTests.takeArchive(from: path, into: closed)
                closedArchives.append(closed)
                ledger = try await Ledger.open(at: path, options: AttackCheckpointArchiveTests.options())
            }
            // More history after the last image, in the live ledger's WAL.
            for _ in 0..<20 { _ = await AttackCheckpointArchiveTests.outcome(ledger, workload.next()) }
            try await ledger.checkpoint()
            let image = root.appending("image3")
            try AttackCheckpointArchiveTests.copy(path, image)
            images.append(image)
            try await ledger.close()
        }
    }

    @Test("T5 after a crash between the archive write and the checkpoint file write, and with archives of other moments restored")
    func crashImages() async throws {
        let images = try await Images(seed: 99)
        defer { images.root.remove() }
        let root = images.root
        var cases: [(String, (FilePath) throws -> Void)] = []
        // Archive written for checkpoint 3, the file never written (the older files stay).
        cases.append(("archive ahead of the files", { try Self.takeCheckpointFiles(from: images.images[2], into: $0) }))
        cases.append(("archive two checkpoints ahead of the files", { try Self.takeCheckpointFiles(from: images.images[1], into: $0) }))
        cases.append(("old archive (image 0) next to newer files", { try Self.takeArchive(from: images.images[0], into: $0) }))
        cases.append(("old archive (image 2) next to newer files", { try Self.takeArchive(from: images.images[2], into: $0) }))
        cases.append(("newest file deleted", { path in
            let names = try FileManager.default.contentsOfDirectory(atPath: Self.checkpointsFolder(path).string).filter { $0.hasSuffix(LedgerDirectory.checkpointSuffix) }.sorted()
            try FileManager.default.removeItem(atPath: Self.checkpointsFolder(path).appending(names.last!).string)
        }))
        cases.append(("WAL lost", { path in try FileManager.default.removeItem(atPath: Self.archivePath(path) + "-wal") }))
        cases.append(("old main file (closed 0) under the current WAL", { try Self.takeArchive(from: images.closedArchives[0], into: $0, suffixes: [""]) }))
        cases.append(("old main file (closed 1) under the current WAL", { try Self.takeArchive(from: images.closedArchives[1], into: $0, suffixes: [""]) }))
        cases.append(("current main file under an old WAL (image 2)", { try Self.takeArchive(from: images.images[2], into: $0, suffixes: ["-wal", "-shm"]) }))
        cases.append(("archive truncated to half", { path in
            let handle = try #require(FileHandle(forUpdatingAtPath: Self.archivePath(path) + "-wal"))
            let size = try handle.seekToEnd()
            try handle.truncate(atOffset: size / 2)
            try handle.close()
        }))
        for (index, (label, damage)) in cases.enumerated() {
            let path = root.appending("case\(index)")
            try Self.copy(images.images[3], path)
            try damage(path)
            try await Self.expectSameAsReplayOnly(path, workload: images.workload, steps: 150, label)
        }
    }

    // MARK: - P3: a forgotten person's texts in archive pages

    static func expectNoMarker(_ path: FilePath, _ marker: String, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let image = EncryptedSQLite.readableImage(ofDatabaseAt: archivePath(path), key: LedgerStore.integrityKey)
        #expect(!image.isEmpty, "\(label): no archive", sourceLocation: sourceLocation)
        let found = Data(image).range(of: Data(marker.utf8)) != nil
        #expect(!found, "\(label): a forgotten person's note survives in a page of the archive or its WAL", sourceLocation: sourceLocation)
    }

    @Test("P3: a forgotten person's many notes leave no page of the archive, with checkpoints written in the background all along",
          arguments: [1, 3, 0])
    func forgettingManyNotesWithCheckpointsInFlight(interval: Int) async throws {
        let directory = try TemporaryDirectory("tally-attack-archive-forget")
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
            try await ledger.execute(s.command(.recordTransaction(id, entry), by: s.bob))
            if index % 3 == 0 {
                var edited = entry
                edited.note = "\(marker) edited \(index)"
                try await ledger.execute(s.command(.editTransaction(id, edited), by: s.bob))
            }
            if index % 50 == 49 { try await ledger.checkpoint() }
        }
        try await ledger.checkpoint()
        // Alice's notes stay; the control: Bob's notes are in the archive before forgetting.
        let before = EncryptedSQLite.readableImage(ofDatabaseAt: Self.archivePath(path), key: LedgerStore.integrityKey)
        #expect(Data(before).range(of: Data(marker.utf8)) != nil, "control: the archive holds Bob's notes")
        try await ledger.execute(s.command(.removeMember(personID: s.bob, acknowledgeUnsettled: true)))
        try await ledger.execute(s.command(.forgetPerson(s.bob)))
        for _ in 0..<10 { try await ledger.execute(s.command(.recordTransaction(s.ids.next(), s.expense(5)))) }
        await ledger.checkpointWritten()
        #expect(await ledger.unfinishedForgetting.isEmpty)
        Self.expectNoMarker(path, marker, "interval \(interval), open")
        try await ledger.close()
        Self.expectNoMarker(path, marker, "interval \(interval), closed")
        let reopened = try await Ledger.open(at: path, options: Self.options(.none, interval: interval))
        let replayed = try LedgerReplay.replay(at: path)
        #expect(await reopened.state == replayed.state)
        try await reopened.close()
        Self.expectNoMarker(path, marker, "interval \(interval), reopened")
    }

    // MARK: - Audit next to a running ledger

    @Test("audit: auditing a ledger while it writes checkpoints reports no problem (a checkpoint replaced before it was read whole is not compared, never differing or unreadable)")
    func auditWhileCheckpointsAreWritten() async throws {
        let directory = try TemporaryDirectory("tally-attack-archive-audit")
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
        while !writer.isCancelled, audits < 60 {
            let report = try LedgerAudit.audit(at: path)
            audits += 1
            if case .differs(let sequenceNumber, let reason) = report.checkpoint { differs.append("\(sequenceNumber): \(reason)") }
            if !report.problems.isEmpty { differs.append("problems: \(report.problems.map(\.message))") }
            if await ledger.lastSequenceNumber >= UInt64(commands.count) + 300 { break }
        }
        await writer.value
        try await ledger.close()
        #expect(differs.isEmpty, "\(differs.count) of \(audits) audits: \(differs.prefix(3))")
        let final = try LedgerAudit.audit(at: path)
        #expect(final.problems.isEmpty, "\(final.problems)")
    }

    @Test("audit: on an idle ledger whose archive was replaced by an empty one, the newest checkpoint is checkpointUnreadable (never 'not compared', which is only for a writer replacing checkpoints)")
    func auditOfIdleLedgerWithReplacedArchive() async throws {
        let directory = try TemporaryDirectory("tally-attack-archive-replaced")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var workload = Workload(seed: 9)
        let ledger = try await Ledger.open(at: path, options: Self.options())
        try await ledger.execute(workload.setup())
        for _ in 0..<40 { _ = await Self.outcome(ledger, workload.next()) }
        try await ledger.checkpoint()
        try await ledger.close()
        #expect(try LedgerAudit.audit(at: path).problems.isEmpty, "the control: a clean audit before")
        let archivePath = LedgerDirectory(path).checkpointArchive.string
        CheckpointArchive.remove(at: archivePath)
        try CheckpointArchive(path: archivePath, key: LedgerStore.integrityKey).close()
        let report = try LedgerAudit.audit(at: path)
        #expect(report.problems.map(\.code).filter { $0 != "permissionsTooOpen" } == ["checkpointUnreadable"], "\(report.problems)")
        guard case .unreadable = report.checkpoint else {
            Issue.record("expected unreadable, got \(report.checkpoint)")
            return
        }
    }

    // MARK: - Many touches of one key

    @Test("T5: an undo checked against many archived touches of one key names the same first blocking event as with the history in memory")
    func undoAgainstManyArchivedTouches() async throws {
        let directory = try TemporaryDirectory("tally-attack-archive-touches")
        defer { directory.remove() }
        var s = Scenario()
        let setup = s.setup()
        let openJoint = setup[2]
        var commands: [Command] = []
        for index in 0..<20_000 {
            commands.append(s.command(.recordTransaction(s.ids.next(), s.expense(Int64(1 + index % 500)))))
        }
        let undo = s.command(.undo(openJoint.commandID))
        var messages: [String: String] = [:]
        for (label, interval) in [("archived", 1_000), ("memory", 0)] {
            let ledger = try await Ledger.open(at: directory.appending(label), options: Self.options(.none, interval: interval))
            try await ledger.execute(setup)
            for start in stride(from: 0, to: commands.count, by: 500) {
                _ = try await ledger.execute(each: Array(commands[start..<(start + 500)]))
            }
            if interval > 0 { try await ledger.checkpoint() }
            do {
                try await ledger.execute(undo)
                Issue.record("undoing the wallet's opening was accepted")
            } catch {
                #expect(error.code == "undoBlocked", "\(error)")
                messages[label] = error.message
            }
            try await ledger.close()
        }
        // The first touch after the opening blocks (the search stops there; timing is in Benchmarks/).
        #expect(messages["archived"] != nil && messages["archived"] == messages["memory"], "\(messages)")
    }

    // MARK: - A damaged page that the open does not read

    @Test("T5: a damaged page of the archive is found at open (full replay), or a command that reads it is refused (journalFailed naming the archive) and the reopened ledger answers it as a replay does; no command ever gets another answer")
    func damagedPageAnywhere() async throws {
        let root = try TemporaryDirectory("tally-attack-archive-pages")
        defer { root.remove() }
        let base = root.appending("base")
        var workload = Workload(seed: 31)
        let ledger = try await Ledger.open(at: base, options: Self.options(.none))
        try await ledger.execute(workload.setup())
        for _ in 0..<250 { _ = await Self.outcome(ledger, workload.next()) }
        try await ledger.checkpoint()
        try await ledger.close()
        let memory = root.appending("memory")
        try Self.copy(base, memory)
        try FileManager.default.removeItem(atPath: Self.checkpointsFolder(memory).string)
        let probe = workload.issued
        var s = workload.s
        var probes: [Command] = []
        for id in probe { probes.append(s.command(.undo(id))) }
        for id in probe { probes.append(s.command(.redo(id))) }
        for id in probe.prefix(40) {
            var duplicate = s.command(.recordTransaction(s.ids.next(), s.expense(10)))
            duplicate.commandID = id
            probes.append(duplicate)
        }
        // The outcomes with the history all in memory.
        let reference = try await Ledger.open(at: memory, options: Self.options(.none))
        var expected: [String] = []
        for command in probes { expected.append(await Self.outcome(reference, command)) }
        try await reference.close()

        let size = try #require(try FileManager.default.attributesOfItem(atPath: Self.archivePath(base))[.size] as? Int)
        let pageSize = 4_096
        var silent: [String] = []
        var foundAtOpen = 0
        for page in 0..<(size / pageSize) {
            let path = root.appending("page\(page)")
            try Self.copy(base, path)
            let handle = try #require(FileHandle(forUpdatingAtPath: Self.archivePath(path)))
            try handle.seek(toOffset: UInt64(page * pageSize + 1_500))
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
                if got == "journalFailed", first.message.contains("checkpoint archive"), refused == 0 {
                    // The damage was read: refused, never answered. Reopened, the ledger
                    // replays the journal and answers the same command as the reference.
                    refused += 1
                    try? await damaged.close()
                    damaged = try await Ledger.open(at: path, options: Self.options(.none))
                    if damaged.openReport.checkpointSequenceNumber != nil { differing.append("reopened from a checkpoint after the damage was read") }
                    got = await Self.outcome(damaged, command)
                }
                if got != expected[index] { differing.append("\(command.action): \(got), expected \(expected[index])") }
            }
            if !differing.isEmpty {
                silent.append("page \(page) (opened from \(openedFrom.map(String.init) ?? "replay")): \(differing.count) differ, first \(differing[0])")
            }
            try? await damaged.close()
            // Open again: the damage must not keep the ledger failing.
            let again = try await Ledger.open(at: path, options: Self.options(.none))
            let command = s.command(.recordTransaction(s.ids.next(), s.expense(11)))
            let outcome = await Self.outcome(again, command)
            if outcome != "ok" { silent.append("page \(page): after reopening, a new command fails with \(outcome)") }
            try? await again.close()
            try? FileManager.default.removeItem(atPath: path.string)
        }
        #expect(silent.isEmpty, "\(silent.count) damaged page(s) changed outcomes (\(foundAtOpen) found at open): \(silent.prefix(4))")
    }

    // MARK: - Encrypted ledgers, key rotation, repair

    @Test("T5 on an encrypted ledger: the archive is sealed with the ledger key; after a key rotation the open replays and undo keeps working; a repair that sets the checkpoints aside leaves no stale archive read")
    func encryptedRotationAndRepair() async throws {
        let directory = try TemporaryDirectory("tally-attack-archive-encrypted")
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
        let sealed = EncryptedSQLite.readableImage(ofDatabaseAt: Self.archivePath(path), key: LedgerStore.integrityKey)
        #expect(Data(sealed).range(of: Data("note ".utf8)) == nil, "the archive of an encrypted ledger is readable with the public key")
        ledger = try await Ledger.open(at: path, options: options)
        #expect(ledger.openReport.checkpointSequenceNumber != nil, "\(ledger.openReport.rejectedCheckpoints)")
        for _ in 0..<60 { _ = await Self.outcome(ledger, workload.next()) }
        try await ledger.close()
        options.encryption = try first.rotated(toKeyID: 2, key: [UInt8](repeating: 2, count: 32))
        for round in 0..<3 {
            ledger = try await Ledger.open(at: path, options: options)
            if round > 0 { #expect(ledger.openReport.checkpointSequenceNumber != nil, "round \(round): \(ledger.openReport.rejectedCheckpoints)") }
            for _ in 0..<60 { _ = await Self.outcome(ledger, workload.next()) }
            let replayed = try LedgerReplay.replay(at: path, encryption: options.encryption)
            #expect(await ledger.state == replayed.state, "round \(round)")
            try await ledger.close()
        }
        // Checkpoint files set aside (as a repair does): the open replays and empties the archive.
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.checkpointsFolder(path).string) where name.hasSuffix(LedgerDirectory.checkpointSuffix) {
            try FileManager.default.removeItem(atPath: Self.checkpointsFolder(path).appending(name).string)
        }
        ledger = try await Ledger.open(at: path, options: options)
        #expect(ledger.openReport.checkpointSequenceNumber == nil)
        for _ in 0..<60 { _ = await Self.outcome(ledger, workload.next()) }
        let replayed = try LedgerReplay.replay(at: path, encryption: options.encryption)
        #expect(await ledger.state == replayed.state)
        try await ledger.close()
        let audit = try LedgerAudit.audit(at: path, encryption: options.encryption)
        #expect(audit.problems.isEmpty, "\(audit.problems)")
    }

    // MARK: - Closing releases the archive

    static func openDescriptors(containing text: String) -> Int {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return fds.filter { fd in
            ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")) ?? "").contains(text)
        }.count
    }

    @Test("closing a ledger closes its archive: no descriptor of it stays open after many open/close cycles")
    func closeReleasesArchive() async throws {
        let directory = try TemporaryDirectory("tally-attack-archive-fds")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var workload = Workload(seed: 3)
        var ledger = try await Ledger.open(at: path, options: Self.options(.none, interval: 5))
        try await ledger.execute(workload.setup())
        try await ledger.close()
        for _ in 0..<10 {
            ledger = try await Ledger.open(at: path, options: Self.options(.none, interval: 5))
            for _ in 0..<30 { _ = await Self.outcome(ledger, workload.next()) }
            try await ledger.close()
        }
        let open = Self.openDescriptors(containing: Self.archivePath(path))
        #expect(open == 0, "\(open) descriptor(s) of the closed ledger's archive stay open")
    }

    // MARK: - Forgetting while commands and checkpoints run concurrently

    @Test("P3 and T5: forgetting a person while other commands and explicit checkpoints run concurrently leaves no note of theirs in the archive and the state equals a replay")
    func forgettingConcurrently() async throws {
        for durability in [DurabilityPolicy.synchronous, .none] {
            let directory = try TemporaryDirectory("tally-attack-archive-forget-concurrent")
            defer { directory.remove() }
            let path = directory.appending("ledger")
            var s = Scenario()
            let marker = "Mnbvcxy"
            let ledger = try await Ledger.open(at: path, options: Self.options(durability, interval: 1))
            try await ledger.execute(s.setup())
            for index in 0..<120 {
                var entry = s.expense(Int64(100 + index), shared: true, payer: s.bob)
                entry.note = "\(marker) \(index)"
                try await ledger.execute(s.command(.recordTransaction(s.ids.next(), entry), by: s.bob))
            }
            try await ledger.execute(s.command(.removeMember(personID: s.bob, acknowledgeUnsettled: true)))
            let forget = s.command(.forgetPerson(s.bob))
            let others = (0..<200).map { _ in s.command(.recordTransaction(s.ids.next(), s.expense(7))) }
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
            let reopened = try await Ledger.open(at: path, options: Self.options(durability, interval: 1))
            let replayedAgain = try LedgerReplay.replay(at: path)
            #expect(await reopened.state == replayedAgain.state, "\(durability)")
            try await reopened.close()
        }
    }

    // MARK: - Something else at the archive's path

    @Test("T5: a FIFO, a directory, a symlink or a read-only file at the archive's path (or its WAL's) neither hangs the open, the audit or the replay, nor changes undo outcomes",
          .timeLimit(.minutes(2)))
    func strangeFilesAtArchivePath() async throws {
        let images = try await Images(seed: 5150)
        defer { images.root.remove() }
        let other = images.images[0]
        let cases: [(String, (FilePath) throws -> Void)] = [
            ("FIFO", { path in
                CheckpointArchive.remove(at: Self.archivePath(path))
                #expect(mkfifo(Self.archivePath(path), 0o644) == 0)
            }),
            ("FIFO WAL", { path in
                try? FileManager.default.removeItem(atPath: Self.archivePath(path) + "-wal")
                #expect(mkfifo(Self.archivePath(path) + "-wal", 0o644) == 0)
            }),
            ("directory", { path in
                CheckpointArchive.remove(at: Self.archivePath(path))
                try FileManager.default.createDirectory(atPath: Self.archivePath(path), withIntermediateDirectories: false)
            }),
            ("symlink to an older image's archive", { path in
                CheckpointArchive.remove(at: Self.archivePath(path))
                try FileManager.default.createSymbolicLink(atPath: Self.archivePath(path), withDestinationPath: Self.archivePath(other))
            }),
            ("read-only", { path in
                #expect(chmod(Self.archivePath(path), 0o444) == 0)
            }),
        ]
        for (index, (label, damage)) in cases.enumerated() {
            let path = images.root.appending("strange\(index)")
            try Self.copy(images.images[3], path)
            try damage(path)
            _ = try? LedgerAudit.audit(at: path)
            _ = try? LedgerRepair.plan(at: path)
            try await Self.expectSameAsReplayOnly(path, workload: images.workload, steps: 120, label, memoryFrom: images.images[3])
        }
        // The symlink's target (another ledger's archive) was not written through.
        let untouched = try await Ledger.open(at: other, options: Self.options())
        #expect(untouched.openReport.checkpointSequenceNumber != nil, "\(untouched.openReport.rejectedCheckpoints)")
        try await untouched.close()
    }
}
