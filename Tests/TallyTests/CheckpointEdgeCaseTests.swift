import Foundation
import GRDB
import SystemPackage
@testable import Tally
import TallyJournal
import TallyModel
import TallySQLiteEncryption
import TallyTestSupport
import Testing
import TallyStore

/// The checkpoint (the read-side store's `checkpoint` row and `history` table) is only a cache:
/// one that does not belong to the journal (stale, foreign, another format, damaged) is
/// rejected with its reason and the ledger opens by full replay; a failed checkpoint write
/// never stops the ledger; without a store there are no checkpoints.
@Suite("Checkpoint edge cases", .serialized)
struct CheckpointEdgeCaseTests {
    /// Checkpoints only when asked (`Ledger.checkpoint()`), no fsync.
    static func options() -> LedgerOptions { .checkpointsOnRequest(durability: .none) }

    /// What `rejectedCheckpoints` says of the store's checkpoint for `defect`.
    static func rejection(_ defect: String) -> String { "the checkpoint in \(LedgerDirectory.readSideStoreName): \(defect)" }

    /// Opens `path` and expects a full replay that rejected the store's checkpoint for
    /// `reason`, and the same read models as a replay of the journal alone.
    static func expectFullReplay(at path: FilePath, rejectedFor reason: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let ledger = try await Ledger.open(at: path, options: options())
        #expect(ledger.openReport.checkpointSequenceNumber == nil, sourceLocation: sourceLocation)
        #expect(ledger.openReport.eventsReplayed == (await ledger.lastSequenceNumber), sourceLocation: sourceLocation)
        #expect(ledger.openReport.rejectedCheckpoints.count == 1, "\(ledger.openReport.rejectedCheckpoints)", sourceLocation: sourceLocation)
        #expect(ledger.openReport.rejectedCheckpoints.first?.hasPrefix(rejection("")) == true,
                "\(ledger.openReport.rejectedCheckpoints)", sourceLocation: sourceLocation)
        #expect(ledger.openReport.rejectedCheckpoints.first?.contains(reason) == true,
                "\(ledger.openReport.rejectedCheckpoints)", sourceLocation: sourceLocation)
        let replayed = try LedgerReplay.replay(at: path)
        #expect(try await ledger.readModels.canonicalJSON().text == replayed.readModels.canonicalJSON().text, sourceLocation: sourceLocation)
        #expect(await ledger.state == replayed.state, sourceLocation: sourceLocation)
        try await ledger.close()
    }

    /// `bytes` with the CRC32C at its end recomputed (an altered checkpoint that is not
    /// "damaged").
    static func withChecksum(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        let crc = bytes.withUnsafeBytes { CRC32C.extend(0, UnsafeRawBufferPointer(rebasing: $0[0..<(bytes.count - 4)])) }
        withUnsafeBytes(of: crc.littleEndian) { bytes.replaceSubrange((bytes.count - 4)..<bytes.count, with: $0) }
        return bytes
    }

    /// A ledger at `path` with the setup and a checkpoint of it in its store; returns the
    /// checkpoint's sequence number.
    @discardableResult
    static func checkpointedLedger(at path: FilePath, _ s: inout Scenario) async throws -> UInt64 {
        let ledger = try await Ledger.open(at: path, options: options())
        try await ledger.execute(s.setup())
        try await ledger.execute(s.command(.setPayday(day: 25)))
        try await ledger.checkpoint()
        let checkpointed = await ledger.lastSequenceNumber
        try await ledger.close()
        #expect(try StoredCheckpoints.checkpoint(at: path)?.sequenceNumber == checkpointed, "the control: the store holds the checkpoint")
        let reopened = try await Ledger.open(at: path, options: options())
        #expect(reopened.openReport.checkpointSequenceNumber == checkpointed && reopened.openReport.rejectedCheckpoints.isEmpty,
                "the control: the checkpoint as written is used: \(reopened.openReport.rejectedCheckpoints)")
        try await reopened.close()
        return checkpointed
    }

    @Test("checkpoint guarantee (issue 13 A3): a checkpoint beyond the journal's end is evidence of acknowledged records: open and replay refuse the shorter journal (journalShorterThanEvidence naming the store's checkpoint), nothing is cut")
    func staleCheckpointIsRejected() async throws {
        let directory = try TemporaryDirectory("tally-ckp-stale")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        let ledger = try await Ledger.open(at: path, options: Self.options())
        try await ledger.execute(s.setup())
        try await ledger.close()
        let journal = path.appending(LedgerDirectory.journalName).string
        try FileManager.default.copyItem(atPath: journal, toPath: directory.appending("journal-early").string)
        let longer = try await Ledger.open(at: path, options: Self.options())
        try await longer.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(1200))))
        try await longer.checkpoint()
        let checkpointed = await longer.lastSequenceNumber
        try await longer.close()
        try FileManager.default.removeItem(atPath: journal)
        try FileManager.default.moveItem(atPath: directory.appending("journal-early").string, toPath: journal)
        let isShorter: (any Error) -> Bool = { error in
            guard case .storage(.journalShorterThanEvidence(let last, let evidence))? = error as? LedgerError else { return false }
            return last == checkpointed - 1 && evidence.lastSequenceNumber == checkpointed
                && evidence.source == "the checkpoint in \(LedgerDirectory.readSideName)/\(LedgerDirectory.readSideStoreName)"
        }
        await #expect(performing: { try await Ledger.open(at: path, options: Self.options()) }, throws: isShorter)
        #expect(performing: { try LedgerReplay.replay(at: path) }, throws: isShorter)
        #expect(try LedgerReplay.replay(at: path, allowingDamage: true).lastSequenceNumber == checkpointed - 1)
        #expect(try StoredCheckpoints.checkpoint(at: path)?.sequenceNumber == checkpointed, "the evidence is kept")
    }

    @Test("checkpoint guarantee (issue 13 A3): a checkpoint of another journal (same sequence number, other chain) is evidence the journal was replaced: open refuses with chainMismatch at that frame; repair sets the store with the checkpoint aside")
    func foreignCheckpointIsRejected() async throws {
        let directory = try TemporaryDirectory("tally-ckp-foreign")
        defer { directory.remove() }
        var checkpointed: UInt64 = 0
        for (name, clock) in [("ours", Int64(1_767_607_200_000)), ("theirs", 1_767_700_000_000)] {
            var s = Scenario()
            s.clock = clock  // same commands recorded at other times: other bytes, other chain
            let ledger = try await Ledger.open(at: directory.appending(name), options: Self.options())
            try await ledger.execute(s.setup())
            try await ledger.checkpoint()
            checkpointed = await ledger.lastSequenceNumber
            try await ledger.close()
        }
        let ours = directory.appending("ours")
        let theirs = try #require(try StoredCheckpoints.bytes(at: directory.appending("theirs")))
        #expect(try StoredCheckpoints.bytes(at: ours) != theirs, "the control: the two checkpoints differ")
        try StoredCheckpoints.replaceBytes(at: ours, with: theirs)
        let isChainMismatch: (any Error) -> Bool = { error in
            guard case .storage(.corruption(let problem))? = error as? LedgerError else { return false }
            return problem.kind == .chainMismatch && problem.location.sequenceNumber != nil && problem.detail.contains("after sequence \(checkpointed)")
        }
        await #expect(performing: { try await Ledger.open(at: ours, options: Self.options()) }, throws: isChainMismatch)
        let plan = try LedgerRepair.plan(at: ours)
        #expect(plan.journal.isEmpty && plan.checkpointMismatch != nil && plan.setsAsideStore, "\(plan)")
        let setAside = try #require(try LedgerRepair.apply(plan, at: ours))
        let kept = LedgerDirectory(setAside).readSideStore
        #expect(FileManager.default.fileExists(atPath: kept.string), "the store is set aside, not deleted")
        let repaired = try await Ledger.open(at: ours, options: Self.options())
        #expect(await repaired.lastSequenceNumber == checkpointed && repaired.openReport.checkpointSequenceNumber == nil)
        #expect(repaired.openReport.rejectedCheckpoints.isEmpty, "\(repaired.openReport.rejectedCheckpoints)")
        try await repaired.close()
        #expect(try StoredCheckpoints.bytes(at: ours) == nil, "the rebuilt store holds no checkpoint of the other journal")
    }

    @Test("checkpoint guarantee: a checkpoint of another format version (CRC recomputed: 2, the files of an older version, and 4, a newer one) is rejected as unsupported")
    func otherFormatVersionIsRejected() async throws {
        let directory = try TemporaryDirectory("tally-ckp-version")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        try await Self.checkpointedLedger(at: path, &s)
        let original = try #require(try StoredCheckpoints.bytes(at: path))
        #expect(original[8] == 3 && original[9] == 0, "the control: format version 3 (UInt16 LE at offset 8)")
        for version: UInt8 in [2, 4] {
            var bytes = original
            bytes[8] = version
            try StoredCheckpoints.replaceBytes(at: path, with: Self.withChecksum(bytes))
            try await Self.expectFullReplay(at: path, rejectedFor: "checkpoint format \(version) is not supported")
        }
    }

    @Test("checkpoint guarantee: a validation state of the previous layout (tally.ledgerState.v6: hand-written record layouts, a person's forgottenAt without a presence byte) is passed over and the ledger replays")
    func previousLedgerStateLayoutIsPassedOver() async throws {
        let directory = try TemporaryDirectory("tally-ckp-state-previous")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        try await Self.checkpointedLedger(at: path, &s)
        var checkpoint = try #require(try StoredCheckpoints.checkpoint(at: path))
        var state = try #require(checkpoint.sections[FoldedState.ledgerStateSection])
        let current = Array(LedgerState.checkpointMagic.utf8)
        let previous = Array("tally.ledgerState.v6".utf8)
        try #require(state[0] == UInt8(current.count) && Array(state[1...current.count]) == current)
        state.replaceSubrange(0...current.count, with: [UInt8(previous.count)] + previous)  // the length byte and the magic
        checkpoint.sections[FoldedState.ledgerStateSection] = state
        try StoredCheckpoints.replaceBytes(at: path, with: checkpoint.encoded())
        try await Self.expectFullReplay(at: path, rejectedFor: "not a ledger state checkpoint")
    }

    @Test("checkpoint guarantee: a damaged checkpoint (a flipped byte), a row that is not a checkpoint, and one whose sequence number ends no journal frame are each rejected (one older than rows of its history: AttackCheckpointArchiveTests, crash images) with their reason and the ledger replays; the audit reports such a checkpoint unreadable")
    func damagedCheckpointIsRejected() async throws {
        let directory = try TemporaryDirectory("tally-ckp-damaged")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        try await Self.checkpointedLedger(at: path, &s)
        #expect(try LedgerAudit.audit(at: path).isClean, "the control: the checkpoint as written audits clean")
        let original = try #require(try StoredCheckpoints.bytes(at: path))
        var flipped = original
        flipped[original.count / 2] ^= 0x40
        // Inside the setup's frame (14 events, one batch): no frame ends there.
        var inside = try Checkpoint.decode(original)
        inside.sequenceNumber = 5
        let notInJournal = "covers sequence 5, which the journal does not end a frame at"
        // (name, checkpoint row, why the open passes it over, what the audit says, history rows removed first)
        let cases: [(String, [UInt8], String, String, Bool)] = [
            ("flipped", flipped, "checksum mismatch (damaged)", "checksum mismatch (damaged)", false),
            ("not a checkpoint", Array("not a checkpoint at all, but long enough to be read as one".utf8), "not a checkpoint", "not a checkpoint", false),
            ("inside a frame", inside.encoded(), notInJournal, notInJournal, true),
        ]
        for (name, bytes, reason, auditReason, removesHistory) in cases {
            if removesHistory {
                try StoredCheckpoints.remove(at: path)
                #expect(try StoredCheckpoints.historyRowCount(at: path) == 0)
            }
            try StoredCheckpoints.replaceBytes(at: path, with: bytes)
            try await Self.expectFullReplay(at: path, rejectedFor: reason)
            let audit = try LedgerAudit.audit(at: path)
            #expect(audit.problems.map(\.code) == ["checkpointUnreadable"], "\(name): \(audit.problems)")
            #expect(audit.problems.first?.message.contains(auditReason) == true, "\(name): \(audit.problems)")
        }
    }

    @Test("checkpoint guarantee (A3): the checkpoints/ folder of an older version (checkpoint files, their archive, a leftover *.checkpoint.tmp) is evidence until the writer's open removes it: a file naming more than the journal holds is refused (journalShorterThanEvidence), one within it is removed and never used; the store's checkpoint is")
    func legacyCheckpointsFolderIsRemovedAtOpen() async throws {
        let directory = try TemporaryDirectory("tally-ckp-legacy")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        let checkpointed = try await Self.checkpointedLedger(at: path, &s)
        let legacy = path.appending(LedgerDirectory.legacyCheckpointsName).string
        try FileManager.default.createDirectory(atPath: legacy, withIntermediateDirectories: false)
        func name(_ sequenceNumber: UInt64) -> String { String(repeating: "0", count: 20 - String(sequenceNumber).count) + String(sequenceNumber) }
        // A checkpoint file naming more than the journal holds: evidence of lost records.
        let beyond = legacy + "/\(name(checkpointed + 1)).checkpoint"
        #expect(FileManager.default.createFile(atPath: beyond, contents: Data("an older version's checkpoint".utf8)))
        let isShorter: (any Error) -> Bool = { error in
            guard case .storage(.journalShorterThanEvidence(_, let evidence))? = error as? LedgerError else { return false }
            return evidence.lastSequenceNumber == checkpointed + 1 && evidence.source.hasPrefix(LedgerDirectory.legacyCheckpointsName)
        }
        await #expect(performing: { try await Ledger.open(at: path, options: Self.options()) }, throws: isShorter)
        #expect(performing: { try LedgerReplay.replay(at: path) }, throws: isShorter)
        #expect(FileManager.default.fileExists(atPath: beyond), "a refused open removes nothing")
        try FileManager.default.removeItem(atPath: beyond)
        // Files within the journal: a checkpoint whose state differs from the store's (were it
        // read), a leftover temporary file, an archive.
        var other = try #require(try StoredCheckpoints.checkpoint(at: path))
        other.sections[FoldedState.readModelsSection] = []
        try Data(other.encoded()).write(to: URL(fileURLWithPath: legacy + "/\(name(checkpointed)).checkpoint"))
        try Data(other.encoded()).write(to: URL(fileURLWithPath: legacy + "/\(name(checkpointed)).checkpoint.tmp"))
        try FileManager.default.copyItem(atPath: LedgerDirectory(path).readSideStore.string, toPath: legacy + "/archive.sqlite")
        #expect(try LedgerReplay.replay(at: path).lastSequenceNumber == checkpointed, "a reader neither uses nor needs the folder")
        let reopened = try await Ledger.open(at: path, options: Self.options())
        #expect(!FileManager.default.fileExists(atPath: legacy), "the legacy folder is gone")
        #expect(reopened.openReport.checkpointSequenceNumber == checkpointed && reopened.openReport.rejectedCheckpoints.isEmpty,
                "\(reopened.openReport.rejectedCheckpoints)")
        #expect(await reopened.lastSequenceNumber == checkpointed)
        try await reopened.close()
    }

    @Test("G4, STYLE 7: a checkpoint row of the wrong type (an integer, a text: an unencrypted store resealed with the public integrity key) and history rows of the wrong types are typed defects, never a crash: open, replay and audit go on, the open replays in full")
    func checkpointRowOfTheWrongTypeIsRejected() async throws {
        let directory = try TemporaryDirectory("tally-ckp-wrong-type")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        let checkpointed = try await Self.checkpointedLedger(at: path, &s)
        for (name, sql) in [("an integer state", "UPDATE checkpoint SET state = 42"),
                            ("a text state", "UPDATE checkpoint SET state = 'not bytes'"),
                            ("history of the wrong types", "UPDATE history SET key = 7, version = 'late' WHERE (space, key) = (SELECT space, key FROM history WHERE space = 8 LIMIT 1)")] {
            let copy = directory.appending("copy-\(name.count)")
            try FileManager.default.copyItem(atPath: path.string, toPath: copy.string)
            let pool = try EncryptedSQLite.openPool(atPath: LedgerDirectory(copy).readSideStore.string, key: LedgerStore.integrityKey)
            try await pool.write { database in try database.execute(sql: sql) }
            try pool.close()
            #expect(try LedgerReplay.replay(at: copy).lastSequenceNumber == checkpointed, "\(name): a reader gathers evidence and replays")
            _ = try LedgerAudit.audit(at: copy)
            let reopened = try await Ledger.open(at: copy, options: Self.options())
            #expect(await reopened.lastSequenceNumber == checkpointed, "\(name)")
            #expect(await reopened.state == (try LedgerReplay.replay(at: copy).state), "\(name): the state is the journal's")
            try await reopened.close()
        }
    }

    @Test("checkpoint guarantee: a failed checkpoint write (the store refuses the checkpoint row) increments checkpointFailures; checkpoint() reports it, commands go on, the store keeps the last good checkpoint and the ledger reopens equal from it")
    func failedCheckpointWriteIsCounted() async throws {
        let directory = try TemporaryDirectory("tally-ckp-write-fails")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        let storeFile = LedgerDirectory(path).readSideStore.string
        var options = LedgerOptions()
        options.checkpointIntervalEvents = 2
        var s = Scenario()
        let ledger = try await Ledger.open(at: path, options: options)
        try await ledger.execute(s.setup())  // 14 events: a checkpoint is written
        await ledger.checkpointWritten()  // in the background, off the actor
        #expect(await ledger.checkpointFailures == 0)
        let good = await ledger.lastSequenceNumber
        #expect(await ledger.readSide.storedCheckpoint()?.sequenceNumber == good, "the control: the first checkpoint is in the store")
        // Another connection makes every write of the checkpoint row fail (its transaction, with
        // the history rows, rolls back); the read tables are written as before.
        let refusal = "checkpoint row refused by the test"
        var waiting = Configuration()
        waiting.busyMode = .timeout(10)  // the ledger's store writer may be committing
        let pool = try EncryptedSQLite.openPool(atPath: storeFile, key: LedgerStore.integrityKey, configuration: waiting)
        try await pool.write { database in
            try database.execute(sql: "CREATE TRIGGER refuse_checkpoint BEFORE INSERT ON checkpoint BEGIN SELECT RAISE(ABORT, '\(refusal)'); END")
        }
        try pool.close()
        try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(1200))))
        try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(1300))))
        await ledger.checkpointWritten()
        #expect(await ledger.checkpointFailures == 1)
        #expect(await ledger.readSide.storedCheckpoint()?.sequenceNumber == good, "the failed write left the last good checkpoint")
        await #expect { try await ledger.checkpoint() } throws: { error in
            (error as? LedgerError)?.code == "journalFailed" && (error as? LedgerError)?.message.contains(refusal) == true
        }
        #expect(await ledger.checkpointFailures == 1, "checkpoint() reports its failure instead of counting it")
        try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(1400))))
        await ledger.checkpointWritten()  // a checkpoint starts behind its commit's store write
        try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(1500))))
        await ledger.checkpointWritten()
        #expect(await ledger.checkpointFailures == 3, "background writes go on failing, one per commit past the interval, and are counted")
        let live = try await ledger.readModels.canonicalJSON().text
        let last = await ledger.lastSequenceNumber
        try await ledger.close()
        // The trigger gone (a store with it is of another schema, which an open rebuilds).
        let cleanup = try EncryptedSQLite.openPool(atPath: storeFile, key: LedgerStore.integrityKey, configuration: waiting)
        try await cleanup.write { database in try database.execute(sql: "DROP TRIGGER refuse_checkpoint") }
        try cleanup.close()
        #expect(try StoredCheckpoints.checkpoint(at: path)?.sequenceNumber == good)
        let reopened = try await Ledger.open(at: path, options: options)
        #expect(reopened.openReport.checkpointSequenceNumber == good && reopened.openReport.eventsReplayed == last - good,
                "\(reopened.openReport)")
        #expect(await reopened.lastSequenceNumber == last)
        #expect(try await reopened.readModels.canonicalJSON().text == live)
        #expect(await reopened.state == (try LedgerReplay.replay(at: path)).state)
        try await reopened.close()
    }

    @Test("no store, no checkpoints: on an injected file system, and with keepsReadSide off, checkpoint() writes none, the history stays in memory and every open replays the whole journal")
    func noStoreMeansNoCheckpoints() async throws {
        let directory = try TemporaryDirectory("tally-ckp-no-store")
        defer { directory.remove() }
        let injected = FaultInjectingFileSystem(seed: 21)
        try injected.createDirectory(at: FilePath("/households"))
        var onInjected = LedgerOptions.checkpointsOnRequest()
        onInjected.fileSystem = injected
        var turnedOff = LedgerOptions()
        turnedOff.checkpointIntervalEvents = 2
        turnedOff.keepsReadSide = false
        for (name, path, options) in [
            ("injected file system", FilePath("/households/muster"), onInjected), ("keepsReadSide off", directory.appending("ledger"), turnedOff),
        ] {
            var s = Scenario()
            let ledger = try await Ledger.open(at: path, options: options)
            try await ledger.execute(s.setup())
            try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(1200))))
            try await ledger.checkpoint()
            await ledger.checkpointWritten()
            #expect(await ledger.checkpointFailures == 0, "\(name)")
            #expect(await ledger.archivedEntriesInMemory > 0, "\(name): the history stays in memory")
            #expect(await ledger.commandHistoryInMemory.entries > 0, "\(name)")
            let last = await ledger.lastSequenceNumber
            try await ledger.close()
            #expect(!FileManager.default.fileExists(atPath: LedgerDirectory(path).readSideStore.string), "\(name): no store on disk")
            let reopened = try await Ledger.open(at: path, options: options)
            #expect(reopened.openReport.checkpointSequenceNumber == nil && reopened.openReport.eventsReplayed == last, "\(name)")
            #expect(reopened.openReport.rejectedCheckpoints.isEmpty, "\(name): \(reopened.openReport.rejectedCheckpoints)")
            #expect(await reopened.lastSequenceNumber == last)
            try await reopened.close()
        }
    }
}
