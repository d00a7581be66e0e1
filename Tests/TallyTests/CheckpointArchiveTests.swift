import Foundation
import GRDB
import SystemPackage
@testable import Tally
import TallyJournal
import TallyModel
import TallyProjections
import TallySQLiteEncryption
import TallyStore
import TallyTestSupport
import Testing

/// The checkpoint's history in the read-side store (issue 14, Docs/Engine.md "Checkpoints"):
/// the command history and the archived maps leave memory at each checkpoint (the store's
/// `history` table), undo and redo (T5) keep working from the store's history, across
/// restarts, and a history that cannot be read is never served.
@Suite("Checkpoint history in the store", .serialized)
struct CheckpointArchiveTests {
    static func options() -> LedgerOptions { .checkpointsOnRequest() }

    static func storeFile(_ ledger: FilePath) -> String { LedgerDirectory(ledger).readSideStore.string }

    /// The history rows of `space` in the store of the (closed) ledger at `ledger`.
    static func historyRows(_ ledger: FilePath, _ space: ArchiveSpace) throws -> [(key: [UInt8], value: [UInt8])] {
        try StoredCheckpoints.withStore(at: ledger) { try $0.historyEntries(space: space.rawValue, from: nil, through: nil) }
    }

    /// The touch rows of `key` in the store of the (closed) ledger at `ledger`.
    static func touchRows(_ ledger: FilePath, of key: EntityKey) throws -> [(key: [UInt8], value: [UInt8])] {
        let prefix = TouchRow.prefix(of: key)
        return try historyRows(ledger, .touches).filter { $0.key.starts(with: prefix) && $0.key.count == prefix.count + 8 }
    }

    /// Damages, behind SQLite's back, the page at the root of the store's `history` table (a
    /// single page for a short history: every history read needs it), after the WAL was
    /// checkpointed into the database file. The ledger at `ledger` is closed.
    static func damageHistoryPage(_ ledger: FilePath) throws {
        let file = storeFile(ledger)
        let pool = try EncryptedSQLite.openPool(atPath: file, key: LedgerStore.integrityKey)
        try pool.writeWithoutTransaction { database in try database.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        let (root, pageBytes, pages) = try pool.read { database in
            (try Int.fetchOne(database, sql: "SELECT rootpage FROM sqlite_schema WHERE name = 'history'") ?? 0,
             try Int.fetchOne(database, sql: "PRAGMA page_size") ?? 0,
             try Int.fetchOne(database, sql: "SELECT COUNT(*) FROM history") ?? 0)
        }
        try pool.close()
        try #require(root > 1 && pageBytes >= 512 && pages > 0, "the control: the store has a history table with rows")
        let handle = try #require(FileHandle(forUpdatingAtPath: file))
        let offset = UInt64((root - 1) * pageBytes + 100)
        try handle.seek(toOffset: offset)
        let original = try #require(try handle.read(upToCount: 16))
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: Data(original.map { $0 ^ 0x5A }))
        try handle.close()
    }

    /// Setup, then three transaction commands: record `first`, record `second`, edit `second`.
    struct History {
        var s = Scenario()
        var commands: [Command] = []
        let first: TransactionID
        let second: TransactionID

        init() {
            first = s.ids.next()
            second = s.ids.next()
            commands = s.setup()
            commands.append(s.command(.recordTransaction(transactionID: first, entry: s.expense(1_000))))
            commands.append(s.command(.recordTransaction(transactionID: second, entry: s.expense(2_000))))
            commands.append(s.command(.editTransaction(transactionID: second, entry: s.expense(2_500))))
        }

        var recordFirst: Command { commands[commands.count - 3] }
        var recordSecond: Command { commands[commands.count - 2] }
        var editSecond: Command { commands[commands.count - 1] }
    }

    static func expectEqualToReplay(_ ledger: Ledger, at path: FilePath, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let replayed = try LedgerReplay.replay(at: path)
        #expect(await ledger.state == replayed.state, "the state equals a replay of the journal", sourceLocation: sourceLocation)
        let models = await ledger.readModels
        #expect(models == replayed.readModels, "the read models equal a replay of the journal", sourceLocation: sourceLocation)
        #expect(try models.canonicalJSON().text == replayed.readModels.canonicalJSON().text, sourceLocation: sourceLocation)
    }

    @Test("T5 with the history in the store: after a checkpoint only later commands are in memory; undo and redo of a command in the store's history work, a later touch there blocks an undo, a command id there stays taken, also after reopening")
    func undoWorksFromTheStoresHistory() async throws {
        let directory = try TemporaryDirectory("tally-history-undo")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var history = History()
        let ledger = try await Ledger.open(at: path, options: Self.options())
        for command in history.commands { try await ledger.execute(command) }
        #expect(await ledger.commandHistoryInMemory.entries == history.commands.count)
        try await ledger.checkpoint()
        #expect(await ledger.commandHistoryInMemory == (0, 0), "a checkpoint moves every entry and touch to the store's history")

        // An id in the store's history is still taken.
        var duplicate = history.s.command(.recordTransaction(transactionID: history.s.ids.next(), entry: history.s.expense(10)))
        duplicate.commandID = history.recordFirst.commandID
        await #expect(throws: LedgerError.self) { try await ledger.execute(duplicate) }
        // The edit of `second` (in the store's history) blocks undoing its recording.
        do {
            try await ledger.execute(history.s.command(.undo(targetCommandID: history.recordSecond.commandID)))
            Issue.record("undoing a command a later edit depends on was accepted")
        } catch {
            #expect(error.code == "undoBlocked" && error.message.contains("command \(history.editSecond.commandID)"), "\(error)")
        }
        // Undo and redo of a command in the store's history.
        let undo = history.s.command(.undo(targetCommandID: history.recordFirst.commandID))
        try await ledger.execute(undo)
        #expect(await ledger.state.transactions[history.first]?.isDeleted == true)
        #expect(await ledger.commandHistoryInMemory.entries == 2, "the undo and the entry it marked undone")
        try await ledger.execute(history.s.command(.redo(targetCommandID: history.recordFirst.commandID)))
        #expect(await ledger.state.transactions[history.first]?.isDeleted == false)
        try await Self.expectEqualToReplay(ledger, at: path)
        try await ledger.checkpoint()
        let checkpointed = await ledger.lastSequenceNumber
        try await ledger.close()
        let entries = try Self.historyRows(path, .commandEntries)
        #expect(entries.count == history.commands.count + 2, "every command's entry (the undo's and the redo's too) is a row of the store's history: \(entries.count)")
        #expect(try StoredCheckpoints.checkpoint(at: path)?.sequenceNumber == checkpointed)

        let reopened = try await Ledger.open(at: path, options: Self.options())
        #expect(reopened.openReport.checkpointSequenceNumber == checkpointed && reopened.openReport.rejectedCheckpoints.isEmpty,
                "\(reopened.openReport.rejectedCheckpoints)")
        #expect(await reopened.commandHistoryInMemory.entries == 0, "the last checkpoint moved the rest to the store")
        try await reopened.execute(history.s.command(.undo(targetCommandID: history.editSecond.commandID)))
        #expect(await reopened.state.transactions[history.second]?.details.amount == Scenario.chf(2_000), "the edit undone from the store's history")
        await #expect(throws: LedgerError.self) { try await reopened.execute(duplicate) }
        try await Self.expectEqualToReplay(reopened, at: path)
        try await reopened.close()
    }

    @Test("T5, issue 28 (bytes): the touches of one key a checkpoint writes are one history row (a wallet 200 transactions touch: one row, not 200); the first of them still blocks undoing the wallet's opening from the store's history, also after reopening, and the touches read back equal those folded")
    func touchesOfOneKeyAreOneRowPerCheckpoint() async throws {
        let directory = try TemporaryDirectory("tally-history-touches")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        let setup = s.setup()
        let ledger = try await Ledger.open(at: path, options: Self.options())
        try await ledger.execute(setup)
        var recorded: [Command] = []
        for _ in 0..<200 {
            recorded.append(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(1_00))))
            try await ledger.execute(recorded[recorded.count - 1])
        }
        let wallet = EntityKey.wallet(s.joint)
        let folded = await ledger.state.history.touches(of: wallet)
        #expect(folded.count > 200, "the control: the opening and every transaction touch the wallet (\(folded.count))")
        try await ledger.checkpoint()
        #expect(await ledger.state.history.touches(of: wallet) == folded, "read back from the store's history")
        try await ledger.close()

        let rows = try Self.historyRows(path, .touches)
        #expect(try Self.touchRows(path, of: wallet).count == 1, "one row for the wallet's touches")
        #expect(rows.count < 250, "a row per key touched, not per touch: \(rows.count) rows for \(200 * 4) touches or more")

        let reopened = try await Ledger.open(at: path, options: Self.options())
        #expect(await reopened.state.history.touches(of: wallet) == folded)
        do {
            try await reopened.execute(s.command(.undo(targetCommandID: setup[2].commandID)))
            Issue.record("undoing the opening of a wallet 200 transactions use was accepted")
        } catch {
            #expect(error.code == "undoBlocked" && error.message.contains("command \(recorded[0].commandID)"), "\(error)")
        }
        try await Self.expectEqualToReplay(reopened, at: path)
        try await reopened.close()
    }

    @Test("T5, issue 28: a rebuild of the store after commands past the last checkpoint (tally rebuild after an open that replayed a tail) settles the states against the rebuilt store's checkpoint: the next checkpoint writes no touch beside the rebuild's rows, each touch is in one row, and an audit is clean")
    func rebuildPastTheCheckpointLeavesEachTouchInOneRow() async throws {
        let directory = try TemporaryDirectory("tally-history-rebuild-touches")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        let ledger = try await Ledger.open(at: path, options: Self.options())
        try await ledger.execute(s.setup())
        for round in 0..<3 {
            for _ in 0..<20 { try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(1_00)))) }
            if round == 0 { try await ledger.checkpoint() }
            if round == 1 { _ = try await ledger.rebuildReadSide() }
        }
        try await ledger.checkpoint()
        try await Self.expectEqualToReplay(ledger, at: path)
        try await ledger.close()

        var listed: [UInt64] = []
        for row in try Self.touchRows(path, of: .wallet(s.joint)) {
            listed += TouchRow.expanded(row).map { $0.key.suffix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
        }
        #expect(listed.count > 60 && listed.count == Set(listed).count, "each of the wallet's \(Set(listed).count) touches in one row (\(listed.count) listed)")
        let audit = try LedgerAudit.audit(at: path)
        #expect(audit.problems.filter { $0.code != "permissionsTooOpen" }.isEmpty, "\(audit.problems)")
    }

    @Test("T5, STYLE 7: a touch row that does not decode (no touches, a count past its bytes, touches out of order, a sequence number past the largest, trailing bytes, a short key) gives no touches and is recorded as a defect, never a crash; a valid row gives its touches back")
    func malformedTouchRowsAreDefects() throws {
        final class Recorder: ArchiveSource, @unchecked Sendable {
            var failures: [String] = []
            func value(space: UInt8, key: [UInt8]) -> [UInt8]? { nil }
            func entries(space: UInt8, from lower: [UInt8]?, through upper: [UInt8]?) -> [(key: [UInt8], value: [UInt8])] { [] }
            func bookEntries(matching filter: BookFilter) -> [(key: [UInt8], value: [UInt8])] { [] }
            func failDecoding(_ reason: String) { failures.append(reason) }
        }
        var s = Scenario()
        let chain: CommandID = s.ids.next()
        let touches = [UInt64(5), 9, 4_000].map { CommandHistory.Touch(sequenceNumber: $0, tag: .transactionRecorded, chain: chain) }
        let row = try #require(TouchRow.row(key: .wallet(s.joint), touches: touches.reversed()))
        let valid = Recorder()
        #expect(TouchRow.touches(key: row.key, value: row.value, reportingTo: valid) == touches)
        #expect(valid.failures.isEmpty && TouchRow.entityKey(row.key, reportingTo: valid) == .wallet(s.joint))
        #expect(TouchRow.row(key: .wallet(s.joint), touches: []) == nil)

        func encoded(_ count: UInt64, _ distances: [UInt64], trailing: [UInt8] = []) -> [UInt8] {
            var writer = BinaryWriter()
            writer.writeVarUInt(count)
            for distance in distances {
                writer.writeVarUInt(distance)
                writer.writeVarUInt(UInt64(EventTag.transactionRecorded.rawValue))
                writer.write(chain)
            }
            return writer.bytes + trailing
        }
        let farKey = Array(row.key.dropLast(8)) + [UInt8](repeating: 0xFF, count: 8)
        for (name, key, value) in [
            ("no touches", row.key, encoded(0, [])), ("a count past its bytes", row.key, encoded(3, [0, 1])),
            ("out of order", row.key, encoded(2, [0, 0])), ("a first distance", row.key, encoded(1, [1])),
            ("past the largest sequence number", farKey, encoded(2, [0, 1])), ("trailing bytes", row.key, encoded(1, [0], trailing: [7])),
            ("a short key", [UInt8](repeating: 0, count: 11), encoded(1, [0])),
        ] {
            let recorder = Recorder()
            #expect(TouchRow.touches(key: key, value: value, reportingTo: recorder).isEmpty, "\(name)")
            #expect(recorder.failures.count == 1, "\(name): \(recorder.failures)")
        }
    }

    @Test("a store without the checkpoint (removed, or the store file deleted) is never read: the open replays; a damaged history page (which the open does not read) refuses the first command that reads it and fails the ledger, and the reopen replays; undo then works and the next checkpoint is used")
    func missingOrDamagedHistoryMeansReplay() async throws {
        for damage in ["removed", "store deleted", "damaged"] {
            let directory = try TemporaryDirectory("tally-history-\(damage.replacingOccurrences(of: " ", with: "-"))")
            defer { directory.remove() }
            let path = directory.appending("ledger")
            var history = History()
            let ledger = try await Ledger.open(at: path, options: Self.options())
            for command in history.commands { try await ledger.execute(command) }
            try await ledger.checkpoint()  // with the history in the store
            let last = await ledger.lastSequenceNumber
            try await ledger.close()
            #expect(try StoredCheckpoints.historyRowCount(at: path) > 0, "\(damage): the control: the checkpoint wrote history rows")
            switch damage {
            case "removed":
                try StoredCheckpoints.remove(at: path)
                #expect(try StoredCheckpoints.bytes(at: path) == nil && StoredCheckpoints.historyRowCount(at: path) == 0)
            case "store deleted":
                for file in LedgerStore.files(at: Self.storeFile(path)) where FileManager.default.fileExists(atPath: file) {
                    try FileManager.default.removeItem(atPath: file)
                }
            default:
                try Self.damageHistoryPage(path)
            }
            var reopened = try await Ledger.open(at: path, options: Self.options())
            let undo = history.s.command(.undo(targetCommandID: history.recordFirst.commandID))
            if damage == "damaged" {
                // Found when read: refused, never answered from a missing entry.
                #expect(reopened.openReport.checkpointSequenceNumber == last, "the open reads no page of the history")
                do {
                    try await reopened.execute(undo)
                    Issue.record("an undo that reads the damaged page was accepted")
                } catch {
                    #expect(error.code == "journalFailed" && error.message.contains(LedgerDirectory.readSideStoreName), "\(error)")
                }
                #expect(await reopened.storeHistory.failure != nil)
                await #expect(throws: LedgerError.self, "the ledger stays failed") {
                    try await reopened.execute(history.s.command(.recordTransaction(transactionID: history.s.ids.next(), entry: history.s.expense(5))))
                }
                try? await reopened.close()
                reopened = try await Ledger.open(at: path, options: Self.options())
                #expect(reopened.openReport.checkpointSequenceNumber == nil, "once the damage was read, the reopen replays the journal: \(reopened.openReport)")
            } else {
                #expect(reopened.openReport.checkpointSequenceNumber == nil, "\(damage): opened from a checkpoint without its history")
                #expect(reopened.openReport.rejectedCheckpoints.isEmpty, "\(damage): there is no checkpoint to pass over: \(reopened.openReport.rejectedCheckpoints)")
                #expect(reopened.openReport.readSide.hasPrefix(damage == "removed" ? "current" : "rebuilt"), "\(damage): \(reopened.openReport.readSide)")
            }
            #expect(reopened.openReport.eventsReplayed == last, "\(damage): a full replay")
            try await reopened.execute(undo)
            #expect(await reopened.state.transactions[history.first]?.isDeleted == true)
            try await Self.expectEqualToReplay(reopened, at: path)
            try await reopened.checkpoint()
            let undone = await reopened.lastSequenceNumber
            try await reopened.close()
            // The next open uses the new checkpoint, with its history.
            let third = try await Ledger.open(at: path, options: Self.options())
            #expect(third.openReport.checkpointSequenceNumber == undone && third.openReport.eventsReplayed == 0,
                    "\(damage): \(third.openReport.rejectedCheckpoints)")
            try await third.execute(history.s.command(.redo(targetCommandID: history.recordFirst.commandID)))
            #expect(await third.state.transactions[history.first]?.isDeleted == false, "\(damage): redone from the store's history")
            try await Self.expectEqualToReplay(third, at: path)
            try await third.close()
            #expect(try LedgerAudit.audit(at: path).isClean, "\(damage)")
        }
    }

    @Test("a checkpoint passed over at open leaves none of its history behind: an audit finds its altered and foreign history rows (checkpointDiffers), the open replays, and the next checkpoint replaces the whole history table, so no later state reads them")
    func passedOverCheckpointLeavesNoHistory() async throws {
        let directory = try TemporaryDirectory("tally-history-passed-over")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var history = History()
        let ledger = try await Ledger.open(at: path, options: Self.options())
        for command in history.commands { try await ledger.execute(command) }
        try await ledger.checkpoint()
        try await ledger.close()
        #expect(try LedgerAudit.audit(at: path).isClean, "the control: an untouched ledger audits clean")
        // Alter one entry (another entry's value) and add one of a key no command has.
        let entries = try Self.historyRows(path, .commandEntries)
        try #require(entries.count >= 2)
        let foreignKey = [UInt8](repeating: 0xEE, count: entries[0].key.count)
        try StoredCheckpoints.withStore(at: path) { store in
            try store.writeCheckpoint([
                ArchiveRow(space: ArchiveSpace.commandEntries.rawValue, key: entries[0].key, value: entries[1].value),
                ArchiveRow(space: ArchiveSpace.commandEntries.rawValue, key: foreignKey, value: entries[1].value),
            ], version: 0, replacingAll: false, state: nil)
        }
        let audit = try LedgerAudit.audit(at: path)
        let differs = try #require(audit.problems.first { $0.code == "checkpointDiffers" }, "\(audit.problems)")
        #expect(differs.message.contains("commandEntries"), "\(differs.message)")
        // The checkpoint itself damaged: passed over.
        var bytes = try #require(try StoredCheckpoints.bytes(at: path))
        bytes[bytes.count / 2] ^= 0x01
        try StoredCheckpoints.replaceBytes(at: path, with: bytes)
        let reopened = try await Ledger.open(at: path, options: Self.options())
        #expect(reopened.openReport.checkpointSequenceNumber == nil)
        #expect(reopened.openReport.rejectedCheckpoints == ["the checkpoint in \(LedgerDirectory.readSideStoreName): checksum mismatch (damaged)"],
                "\(reopened.openReport.rejectedCheckpoints)")
        try await Self.expectEqualToReplay(reopened, at: path)
        try await reopened.execute(history.s.command(.undo(targetCommandID: history.recordFirst.commandID)))
        try await reopened.checkpoint()
        try await reopened.close()
        #expect(try StoredCheckpoints.withStore(at: path) { try $0.historyValue(space: ArchiveSpace.commandEntries.rawValue, key: foreignKey) } == nil,
                "the foreign row went with the checkpoint that replaced the whole table")
        #expect(try LedgerAudit.audit(at: path).isClean, "no altered row is left")
        let third = try await Ledger.open(at: path, options: Self.options())
        #expect(third.openReport.eventsReplayed == 0 && third.openReport.rejectedCheckpoints.isEmpty)
        #expect(await third.state.history.entry(for: history.recordFirst.commandID)?.isUndone == true)
        try await third.execute(history.s.command(.redo(targetCommandID: history.recordFirst.commandID)))
        #expect(await third.state.history.entry(for: history.recordFirst.commandID)?.isUndone == false)
        try await Self.expectEqualToReplay(third, at: path)
        try await third.close()
    }

    @Test("history P3: after a person is forgotten their notes (a transaction's, a transfer's) are in no history row, and in no page of the store or its WAL, not even for a holder of the page key; the transfer's row keeps the note redacted with its owner")
    func forgettingLeavesNoNoteInHistory() async throws {
        let directory = try TemporaryDirectory("tally-history-forget")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        let marker = "Qwertzuiop Lkjhgf note"
        let ledger = try await Ledger.open(at: path, options: Self.options())
        try await ledger.execute(s.setup())
        let expense: TransactionID = s.ids.next()
        var noted = s.expense(6_000, shared: true, payer: s.bob)
        noted.note = marker
        try await ledger.execute(s.command(.recordTransaction(transactionID: expense, entry: noted), by: s.bob))
        // Bob's edit: its compensation (the history) holds the previous details, note included.
        var edited = noted
        edited.note = nil
        try await ledger.execute(s.command(.editTransaction(transactionID: expense, entry: edited), by: s.bob))
        // Bob's transfer note, a marker of its own: its row in the store's transfers table holds
        // it, and after the checkpoint an edit keeps the record as of it (history, space 9).
        let transferMarker = "Mnbvcxy Poiuztr transfer"
        let transfer: TransferID = s.ids.next()
        try await ledger.execute(s.command(.recordTransfer(
            transferID: transfer, fromWalletID: s.joint, toWalletID: s.euroCard, amountSent: Scenario.chf(1_000), amountReceived: Scenario.eur(1_050),
            date: Scenario.date("2026-01-08"), note: transferMarker), by: s.bob))
        try await ledger.checkpoint()
        try await ledger.execute(s.command(.editTransfer(
            transferID: transfer, fromWalletID: s.joint, toWalletID: s.euroCard, amountSent: Scenario.chf(1_100), amountReceived: Scenario.eur(1_150),
            date: Scenario.date("2026-01-08"), note: transferMarker + " edited"), by: s.bob))
        try await ledger.close()
        #expect(try !Self.keptTransfers(path).isEmpty, "the control: the edit kept the transfer's record as of the checkpoint")
        func historyHoldsMarker() throws -> Bool {
            try ArchiveSpace.allCases.contains { space in
                try Self.historyRows(path, space).contains { Data($0.value).range(of: Data(marker.utf8)) != nil }
            }
        }
        #expect(try historyHoldsMarker(), "the control: the store's history holds the note before forgetting")
        let before = EncryptedSQLite.readableImage(ofDatabaseAt: Self.storeFile(path), key: LedgerStore.integrityKey)
        #expect(Data(before).range(of: Data(marker.utf8)) != nil, "the control: a page of the store holds the note before forgetting")
        #expect(Data(before).range(of: Data(transferMarker.utf8)) != nil, "the control: a page of the store holds the transfer's note before forgetting")
        let reopened = try await Ledger.open(at: path, options: Self.options())
        try await reopened.execute(s.command(.removeMember(personID: s.bob, acknowledgeUnsettled: true)))
        try await reopened.execute(s.command(.forgetPerson(personID: s.bob)))
        try await reopened.checkpoint()
        let forgotten = await reopened.lastSequenceNumber
        try await reopened.close()
        #expect(try StoredCheckpoints.checkpoint(at: path)?.sequenceNumber == forgotten, "the control: a checkpoint after the forgetting")
        #expect(try StoredCheckpoints.historyRowCount(at: path) > 0, "the control: that checkpoint wrote history rows")
        #expect(try !historyHoldsMarker(), "a forgotten note survives in a row of the store's history")
        let after = EncryptedSQLite.readableImage(ofDatabaseAt: Self.storeFile(path), key: LedgerStore.integrityKey)
        #expect(!after.isEmpty)
        #expect(Data(after).range(of: Data(marker.utf8)) == nil, "a forgotten note survives in a page of the store or its WAL")
        #expect(Data(after).range(of: Data(transferMarker.utf8)) == nil, "a forgotten transfer note survives in a page of the store or its WAL")
        let redacted = try StoredCheckpoints.withStore(at: path) { try $0.historyValue(space: ArchiveSpace.walletTransfers.rawValue, key: transfer.archiveBytes) }
        var binary = BinaryReader(try #require(redacted))
        let note = try TransferRecord(archive: &binary).transfer.note
        #expect(note?.owner == s.bob && note?.text == nil, "the transfer's note is redacted in its row, its owner kept: \(String(describing: note))")
        let third = try await Ledger.open(at: path, options: Self.options())
        #expect(third.openReport.checkpointSequenceNumber == forgotten)
        try await Self.expectEqualToReplay(third, at: path)
        try await third.close()
    }

    /// A new ledger in a temporary directory named `name`, set up, with a category "Pets" of
    /// its own (C3: one a test can delete with its transactions).
    static func ledgerWithPets(_ name: String) async throws -> (TemporaryDirectory, FilePath, Scenario, Ledger, CategoryID) {
        let directory = try TemporaryDirectory(name)
        let path = directory.appending("ledger")
        var s = Scenario()
        let ledger = try await Ledger.open(at: path, options: Self.options())
        try await ledger.execute(s.setup())
        let pets: CategoryID = s.ids.next()
        try await ledger.execute(s.command(.createCategory(
            categoryID: pets, name: "Pets", group: .expense, budgetType: .wants, shareable: true, icon: nil, color: nil)))
        return (directory, path, s, ledger, pets)
    }

    @Test("G5, T2, T3, W6, S6, C3 with transactions, transfers and settlements in the store's history: ids stay taken, edits, deletes, restores, a settlement of a shared item there and a category reassignment read them from the store; the state equals a replay, also after reopening")
    func validationReadsRecordsInTheStore() async throws {
        var (directory, path, s, ledger, pets) = try await Self.ledgerWithPets("tally-history-records")
        defer { directory.remove() }
        let mine: TransactionID = s.ids.next()
        let shared: TransactionID = s.ids.next()
        let transfer: TransferID = s.ids.next()
        let settlement: SettlementID = s.ids.next()
        let recordMine = s.command(.recordTransaction(transactionID: mine, entry: s.expense(900, category: pets)))
        try await ledger.execute(recordMine)
        try await ledger.execute(s.command(.recordTransaction(transactionID: shared, entry: s.expense(4_000, shared: true, payer: s.alice))))
        try await ledger.execute(s.command(.recordTransfer(
            transferID: transfer, fromWalletID: s.joint, toWalletID: s.euroCard, amountSent: Scenario.chf(1_000),
            amountReceived: Scenario.eur(1_050), date: Scenario.date("2026-01-08"), note: nil)))
        try await ledger.checkpoint()
        #expect(await ledger.archivedEntriesInMemory == 0, "a checkpoint moves every archived map's entries out of memory")

        // Ids stay taken.
        await expectRejection(ledger, s.command(.recordTransaction(transactionID: mine, entry: s.expense(10))), code: "duplicateID", rule: "G5")
        await expectRejection(ledger, s.command(.recordTransfer(
            transferID: transfer, fromWalletID: s.joint, toWalletID: s.euroCard, amountSent: Scenario.chf(1), amountReceived: Scenario.eur(1),
            date: Scenario.date("2026-01-08"), note: nil)), code: "duplicateID", rule: "G5")
        // Edit, delete and restore a transaction in the store's history; delete a transfer there.
        try await ledger.execute(s.command(.editTransaction(transactionID: mine, entry: s.expense(950, category: pets))))
        try await ledger.execute(s.command(.deleteTransaction(transactionID: mine)))
        try await ledger.execute(s.command(.restoreTransaction(transactionID: mine)))
        try await ledger.execute(s.command(.deleteTransfer(transferID: transfer)))
        #expect(await ledger.state.transfers[transfer]?.isDeleted == true)
        // Bob settles what he owes for the shared expense in the store's history (S6: it is covered).
        try await ledger.execute(s.command(.recordSettlement(
            settlementID: settlement, from: s.bob, to: s.alice, amount: Scenario.chf(2_000), date: Scenario.date("2026-01-09"),
            covers: nil, isAdvance: false, groupID: nil)))
        #expect(await ledger.state.debts.settlement(coveringTransaction: shared) == settlement)
        try await ledger.checkpoint()
        await expectRejection(ledger, s.command(.recordSettlement(
            settlementID: settlement, from: s.bob, to: s.alice, amount: Scenario.chf(1), date: Scenario.date("2026-01-09"),
            covers: nil, isAdvance: true, groupID: nil)), code: "duplicateID", rule: "G5")
        // C3: deleting the category moves its transaction in the store's history, and owns it (T5).
        try await ledger.execute(s.command(.deleteCategory(categoryID: pets, reassignTo: s.groceries)))
        #expect(await ledger.state.transactions[mine]?.details.categoryID == s.groceries)
        await expectRejection(ledger, s.command(.undo(targetCommandID: recordMine.commandID)), code: "undoBlocked", rule: "T5")
        try await Self.expectEqualToReplay(ledger, at: path)
        try await ledger.checkpoint()
        try await ledger.close()
        for space in [ArchiveSpace.transactions, .walletTransfers, .debtSettlements] {
            #expect(try !Self.historyRows(path, space).isEmpty, "the store's history holds the \(space)")
        }

        let reopened = try await Ledger.open(at: path, options: Self.options())
        #expect(reopened.openReport.eventsReplayed == 0 && reopened.openReport.rejectedCheckpoints.isEmpty)
        #expect(await reopened.archivedEntriesInMemory == 0)
        #expect(await reopened.state.transactions[mine]?.details.amount == Scenario.chf(950))
        try await Self.expectEqualToReplay(reopened, at: path)
        try await reopened.close()
    }

    /// The records the store's commits kept in `history` as of its checkpoint in the book
    /// `space` (8: transactions, 9: transfers), by key (the ledger at `ledger` may be open: a
    /// read of its files).
    static func keptRecords<Key: ArchiveCodable & Hashable, Value: ArchiveCodable>(
        _ ledger: FilePath, _ space: ArchiveSpace
    ) throws -> [Key: Value] {
        try StoredCheckpoints.withStore(at: ledger) { store in
            var kept: [Key: Value] = [:]
            for entry in try store.historyRows(space: space.rawValue, after: nil, limit: 1_000) {
                var keyReader = BinaryReader(entry.key)
                var valueReader = BinaryReader(entry.value)
                kept[try Key(archive: &keyReader)] = try Value(archive: &valueReader)
            }
            return kept
        }
    }

    /// A copy of the open ledger at `path` (a crash image: its store's rows are past its
    /// checkpoint at `checkpoint`) opens from the checkpoint, replays the tail, equals a replay
    /// and audits clean.
    static func expectCrashImageOpensFromCheckpoint(_ ledger: Ledger, at path: FilePath, checkpoint: UInt64, in directory: TemporaryDirectory) async throws {
        let image = directory.appending("image")
        try FileManager.default.copyItem(atPath: path.string, toPath: image.string)
        let reopened = try await Ledger.open(at: image, options: Self.options())
        let last = await ledger.lastSequenceNumber
        #expect(reopened.openReport.checkpointSequenceNumber == checkpoint && reopened.openReport.eventsReplayed == last - checkpoint,
                "\(reopened.openReport)")
        try await Self.expectEqualToReplay(reopened, at: image)
        try await reopened.close()
        let audit = try LedgerAudit.audit(at: image)
        #expect(audit.problems.filter { $0.code != "permissionsTooOpen" }.isEmpty, "\(audit.problems)")
    }

    @Test("T2, T3, C3, issue 28: the transaction book is the store's transactions table: the first commit after a checkpoint that changes a transaction keeps its record as of the checkpoint in history (once, however often it changes; none for one recorded since), so a crash image past the checkpoint opens from it and equals a replay, and audits clean; the next checkpoint drops the kept records")
    func transactionRowsKeepTheirCheckpointValue() async throws {
        var (directory, path, s, ledger, pets) = try await Self.ledgerWithPets("tally-history-kept")
        defer { directory.remove() }
        var ids: [TransactionID] = []
        for index in 0..<6 {
            let id: TransactionID = s.ids.next()
            ids.append(id)
            try await ledger.execute(s.command(.recordTransaction(transactionID: id, entry: s.expense(Int64(100 + index), category: index >= 4 ? pets : s.groceries))))
        }
        try await ledger.checkpoint()
        let checkpoint = await ledger.lastSequenceNumber
        let atCheckpoint = await ledger.readModels.transactions
        #expect(try Self.keptTransactions(path).isEmpty, "the control: nothing changed since the checkpoint")

        try await ledger.execute(s.command(.editTransaction(transactionID: ids[0], entry: s.expense(999))))
        try await ledger.execute(s.command(.deleteTransaction(transactionID: ids[1])))
        try await ledger.execute(s.command(.restoreTransaction(transactionID: ids[1])))
        try await ledger.execute(s.command(.editTransaction(transactionID: ids[2], entry: s.expense(998))))
        try await ledger.execute(s.command(.editTransaction(transactionID: ids[2], entry: s.expense(997))))
        try await ledger.execute(s.command(.deleteTransaction(transactionID: ids[3])))
        try await ledger.execute(s.command(.deleteCategory(categoryID: pets, reassignTo: s.groceries)))  // moves ids[4], ids[5] (C3)
        let later: TransactionID = s.ids.next()
        try await ledger.execute(s.command(.recordTransaction(transactionID: later, entry: s.expense(50))))
        try await ledger.execute(s.command(.editTransaction(transactionID: later, entry: s.expense(51))))
        #expect(await ledger.flushedStore() != nil, "the store shows every command")
        let kept = try Self.keptTransactions(path)
        #expect(Set(kept.keys) == Set(ids), "one kept record per transaction changed since the checkpoint; none for one recorded since")
        for id in ids { #expect(kept[id] == atCheckpoint[id], "the kept record is the transaction as of the checkpoint") }
        try await Self.expectCrashImageOpensFromCheckpoint(ledger, at: path, checkpoint: checkpoint, in: directory)

        try await ledger.checkpoint()
        #expect(try Self.keptTransactions(path).isEmpty, "a checkpoint drops the records kept as of the one before")
        try await Self.expectEqualToReplay(ledger, at: path)
        try await ledger.close()
    }

    /// The transaction records the store's commits kept in `history` (space 8) as of its checkpoint.
    static func keptTransactions(_ ledger: FilePath) throws -> [TransactionID: TransactionRecord] { try keptRecords(ledger, .transactions) }

    /// The transfer records the store's commits kept in `history` (space 9) as of its checkpoint.
    static func keptTransfers(_ ledger: FilePath) throws -> [TransferID: TransferRecord] { try keptRecords(ledger, .walletTransfers) }

    @Test("W3, W6, issue 28 (one fact in one place): the transfer book is the store's transfers table, not history rows: a transfer leaves its journal record and its transfers row (note and last change with it); the first commit after a checkpoint that edits or deletes one keeps its record as of the checkpoint in history (none for one recorded since), so a crash image past the checkpoint opens from it, equals a replay and audits clean; the next checkpoint drops the kept records")
    func transferRowsKeepTheirCheckpointValue() async throws {
        var (directory, path, s, ledger, _) = try await Self.ledgerWithPets("tally-transfers-kept")
        defer { directory.remove() }
        func record(_ id: TransferID, _ amount: Int64, note: String?) -> Command {
            s.command(.recordTransfer(
                transferID: id, fromWalletID: s.joint, toWalletID: s.euroCard, amountSent: Scenario.chf(amount), amountReceived: Scenario.eur(amount + 50),
                date: Scenario.date("2026-01-08"), note: note))
        }
        let ids: [TransferID] = [s.ids.next(), s.ids.next(), s.ids.next()]
        for (index, id) in ids.enumerated() { try await ledger.execute(record(id, Int64(1_000 + index), note: index == 0 ? "rent share" : nil)) }
        try await ledger.checkpoint()
        let checkpoint = await ledger.lastSequenceNumber
        let atCheckpoint = await ledger.readModels.wallets.transfers
        #expect(try Self.keptTransfers(path).isEmpty, "the control: nothing changed since the checkpoint")
        let before = try StoredCheckpoints.withStore(at: path) { try $0.historyRows(space: ArchiveSpace.walletTransfers.rawValue, after: nil, limit: 10) }
        #expect(before.isEmpty, "a checkpoint writes no history row of a transfer: the book is the table")

        let later: TransferID = s.ids.next()
        try await ledger.execute(s.command(.editTransfer(
            transferID: ids[0], fromWalletID: s.joint, toWalletID: s.euroCard, amountSent: Scenario.chf(2_000), amountReceived: Scenario.eur(2_100),
            date: Scenario.date("2026-01-09"), note: "rent share, corrected")))
        try await ledger.execute(s.command(.deleteTransfer(transferID: ids[1])))
        try await ledger.execute(record(later, 300, note: "new"))
        try await ledger.execute(s.command(.deleteTransfer(transferID: later)))
        #expect(await ledger.flushedStore() != nil, "the store shows every command")
        let kept = try Self.keptTransfers(path)
        #expect(Set(kept.keys) == [ids[0], ids[1]], "one kept record per transfer changed since the checkpoint; none for one recorded since")
        for id in [ids[0], ids[1]] { #expect(kept[id] == atCheckpoint[id], "the kept record is the transfer as of the checkpoint") }
        #expect(kept[ids[0]]?.transfer.note?.text == "rent share", "its note as of the checkpoint")

        try await Self.expectCrashImageOpensFromCheckpoint(ledger, at: path, checkpoint: checkpoint, in: directory)
        let image = try await Ledger.open(at: directory.appending("image"), options: Self.options())
        #expect(await image.state.transfers[ids[0]]?.transfer.note?.text == "rent share, corrected")
        try await image.close()

        try await ledger.checkpoint()
        #expect(try Self.keptTransfers(path).isEmpty, "a checkpoint drops the records kept as of the one before")
        let stored = try StoredCheckpoints.withStore(at: path) { store in
            try (ids + [later]).map { id in try store.historyValue(space: ArchiveSpace.walletTransfers.rawValue, key: id.archiveBytes) }
        }
        let folded = await ledger.readModels.wallets.transfers
        for (id, bytes) in zip(ids + [later], stored) {
            #expect(bytes != nil && bytes == folded[id]?.archiveBytes, "\(id) reads back from its row as folded (note, last change, deleted)")
        }
        try await Self.expectEqualToReplay(ledger, at: path)
        try await ledger.close()
    }

    /// The store's rows of the (open or closed) ledger at `ledger`: per table, and per space of
    /// `history`, with the rows of history that hold `id`'s bytes.
    static func storeRows(_ ledger: FilePath, holding id: TransactionID) throws -> (tables: [String: Int], history: [ArchiveSpace: Int], holding: [ArchiveSpace: Int]) {
        try StoredCheckpoints.withStore(at: ledger) { store in
            var history: [ArchiveSpace: Int] = [:]
            var holding: [ArchiveSpace: Int] = [:]
            let bytes = id.archiveBytes
            for space in ArchiveSpace.allCases {
                let rows = try store.historyRows(space: space.rawValue, after: nil, limit: 100_000)
                history[space] = rows.count
                holding[space] = rows.filter { row in
                    (row.key + row.value).indices.contains { index in (row.key + row.value)[index...].starts(with: bytes) }
                }.count
            }
            return (try store.rowCounts(), history, holding)
        }
    }

    @Test("issue 28 (one fact in one place), T1, S3: one transaction leaves its journal record and its own rows in the store, nothing else: its transactions row, a row per tag and per share, its search row; in the history only its command's undo entry and the touch of its key; no copy or index of its record")
    func oneTransactionsRows() async throws {
        let directory = try TemporaryDirectory("tally-one-transaction")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        let ledger = try await Ledger.open(at: path, options: Self.options())
        try await ledger.execute(s.setup())
        try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(100, shared: true))))  // its month total's cell and debt pair exist
        try await ledger.checkpoint()
        let id: TransactionID = s.ids.next()
        let before = try Self.storeRows(path, holding: id)
        let journalBefore = await ledger.lastSequenceNumber
        var entry = s.expense(4_000, shared: true)
        entry.note = "dinner"
        entry.tags = ["food", "friends"]
        try await ledger.execute(s.command(.recordTransaction(transactionID: id, entry: entry)))
        try await ledger.checkpoint()
        #expect(await ledger.lastSequenceNumber == journalBefore + 1, "one journal record")
        let after = try Self.storeRows(path, holding: id)
        func growth<Key: Hashable>(_ after: [Key: Int], _ before: [Key: Int]) -> [Key: Int] {
            var grown: [Key: Int] = [:]
            for (key, count) in after where before[key] != count { grown[key] = count - (before[key] ?? 0) }
            return grown
        }
        let tables = growth(after.tables, before.tables)
        #expect(tables == ["transactions": 1, "transaction_tags": 2, "transaction_shares": 2, "transaction_search": 1], "\(tables)")
        let history = growth(after.history, before.history)
        #expect(history[ArchiveSpace.transactions] == nil && after.history[ArchiveSpace.transactions] == 0, "no record of it in history: the book is the table")
        #expect(history[ArchiveSpace.commandEntries] == 1, "its command's undo entry (T5): \(history)")
        #expect(after.holding.filter { $0.value > 0 } == [ArchiveSpace.commandEntries: 1, ArchiveSpace.touches: 1],
                "only its command's entry and the touch of its key hold its id: \(after.holding)")
        #expect(Set(history.keys).isSubset(of: [ArchiveSpace.commandEntries, ArchiveSpace.touches]), "\(history)")
        try await Self.expectEqualToReplay(ledger, at: path)
        try await ledger.close()
    }

    @Test("issue 28, T1-T3, S3: every field of a transaction record round-trips through the store's rows (an empty note, a note without tags, a tag entered twice and one with a space, a split with an override, one with people as entered, a deleted one): read back after a checkpoint, each equals the record the fold made")
    func recordsRoundTripThroughTheRows() async throws {
        let directory = try TemporaryDirectory("tally-record-rows")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        let ledger = try await Ledger.open(at: path, options: Self.options())
        try await ledger.execute(s.setup())
        var entries: [TransactionEntry] = []
        var entry = s.expense(100)
        entry.note = ""
        entries.append(entry)
        entry = s.expense(200)
        entry.note = "rent"
        entries.append(entry)
        entry = s.expense(300)
        entry.tags = ["food", "food", "x y"]
        entries.append(entry)
        entry = s.expense(400, shared: true, override: [s.ratio(s.alice, 7_000), s.ratio(s.bob, 3_000)])
        entry.note = "dinner"
        entry.tags = ["friends"]
        entries.append(entry)
        entry = s.expense(500, payer: s.alice)
        entry.splitWith = .equal([s.alice, s.bob])
        entries.append(entry)
        var ids: [TransactionID] = []
        for entry in entries {
            let id: TransactionID = s.ids.next()
            ids.append(id)
            try await ledger.execute(s.command(.recordTransaction(transactionID: id, entry: entry)))
        }
        try await ledger.execute(s.command(.deleteTransaction(transactionID: ids[1])))
        let folded = await ledger.readModels.transactions  // before the checkpoint: the fold's, in memory
        try await ledger.checkpoint()
        try await ledger.close()
        let stored = try StoredCheckpoints.withStore(at: path) { store in
            try ids.map { id in
                try store.historyValue(space: ArchiveSpace.transactions.rawValue, key: id.archiveBytes).map { bytes in
                    var binary = BinaryReader(bytes)
                    return try TransactionRecord(archive: &binary)
                }
            }
        }
        for (id, record) in zip(ids, stored) {
            #expect(folded.residentValue(forKey: id) != nil, "the control: \(id) was in memory")
            #expect(record == folded.residentValue(forKey: id), "\(id) reads back from its rows as folded")
        }
    }

    @Test("issue 28: a checkpoint copied into a store rebuilt from the read models (its rows newer, the records of the changes in between not kept) is marked incomplete and not restored by the next open, which replays; the next checkpoint written is complete again")
    func copiedCheckpointIsNotRestored() async throws {
        var (directory, path, s, ledger, _) = try await Self.ledgerWithPets("tally-history-incomplete")
        defer { directory.remove() }
        let id: TransactionID = s.ids.next()
        try await ledger.execute(s.command(.recordTransaction(transactionID: id, entry: s.expense(100))))
        try await ledger.checkpoint()
        try await ledger.execute(s.command(.editTransaction(transactionID: id, entry: s.expense(200))))
        try await ledger.close()
        let copied = directory.appending("copy.sqlite").string
        try StoredCheckpoints.withStore(at: path) { store in
            #expect(try store.keptRecordsComplete(), "the control: the ledger's own checkpoint keeps every record")
            let copy = try LedgerStore(path: copied)
            defer { copy.close() }
            try copy.copyCheckpoint(from: store)
            #expect(try !copy.keptRecordsComplete(), "a copied checkpoint is incomplete")
            try copy.writeCheckpoint([], version: 1, replacingAll: false, state: nil)
            #expect(try copy.keptRecordsComplete(), "a checkpoint written is complete")
        }
        // The ledger's store marked as a rebuild's copy: its checkpoint is passed over.
        let pool = try EncryptedSQLite.openPool(atPath: Self.storeFile(path), key: LedgerStore.integrityKey)
        try await pool.write { database in try database.execute(sql: "UPDATE history_version SET complete = 0") }
        try pool.close()
        let reopened = try await Ledger.open(at: path, options: Self.options())
        #expect(reopened.openReport.checkpointSequenceNumber == nil, "\(reopened.openReport)")
        #expect(reopened.openReport.rejectedCheckpoints.contains { $0.contains("does not keep every transaction") }, "\(reopened.openReport.rejectedCheckpoints)")
        try await Self.expectEqualToReplay(reopened, at: path)
        try await reopened.close()
    }

    @Test("issue 28: a store whose main file and WAL are of different moments (the main file of an earlier close under the WAL written on a later one) is refused at open, before its checkpoint or rows are read: the writer's open replays and rebuilds it, and the ledger equals a replay")
    func mainFileAndWriteAheadLogOfDifferentMoments() async throws {
        let directory = try TemporaryDirectory("tally-store-moments")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        let store = Self.storeFile(path)
        var s = Scenario()
        var ledger = try await Ledger.open(at: path, options: Self.options())
        try await ledger.execute(s.setup())
        try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(100))))
        try await ledger.checkpoint()
        try await ledger.close()  // the WAL copied into the main file, emptied
        let earlier = directory.appending("earlier.sqlite")
        try FileManager.default.copyItem(atPath: store, toPath: earlier.string)
        ledger = try await Ledger.open(at: path, options: Self.options())
        try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(200))))
        try await ledger.close()  // a later main file: the next session's WAL is written on it
        ledger = try await Ledger.open(at: path, options: Self.options())
        for amount in 1...30 { try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(Int64(amount))))) }
        try await ledger.checkpoint()
        #expect(await ledger.flushedStore() != nil)
        let image = directory.appending("image")
        try FileManager.default.copyItem(atPath: path.string, toPath: image.string)  // open: the session's pages are in the WAL
        try await ledger.close()
        let imageStore = Self.storeFile(image)
        #expect(try FileManager.default.attributesOfItem(atPath: imageStore + "-wal")[.size] as? Int ?? 0 > 0, "the control: the image's WAL holds the session")
        #expect(throws: Never.self, "the control: the image as copied opens") { try LedgerStore(path: imageStore).close() }
        try FileManager.default.removeItem(atPath: imageStore)
        try FileManager.default.copyItem(atPath: earlier.string, toPath: imageStore)
        #expect {
            try LedgerStore(path: imageStore)
        } throws: { error in
            guard case .damaged(_, let message) = error as? StoreError else { return false }
            return message.contains("different moments")
        }
        let reopened = try await Ledger.open(at: image, options: Self.options())
        #expect(reopened.openReport.checkpointSequenceNumber == nil, "the checkpoint of a store refused is not read: \(reopened.openReport)")
        #expect(reopened.openReport.readSide.contains("different moments"), "\(reopened.openReport.readSide)")
        try await Self.expectEqualToReplay(reopened, at: image)
        try await reopened.close()
    }

    @Test("a history read that fails while the ledger is open (every page of the store damaged) refuses the write that needed it and fails the ledger, never validating against a missing entry; reopening rebuilds the store and replays")
    func failedHistoryReadFailsTheLedger() async throws {
        let directory = try TemporaryDirectory("tally-history-read-failure")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var history = History()
        let ledger = try await Ledger.open(at: path, options: Self.options())
        for command in history.commands { try await ledger.execute(command) }
        try await ledger.checkpoint()
        #expect(await ledger.archivedEntriesInMemory == 0, "the control: the transactions are read from the store")
        // Damage every page of the store and of its WAL, behind SQLite's back (every KiB, so
        // that each page and WAL frame has a changed byte whatever the page size).
        var damaged = 0
        for file in LedgerStore.files(at: Self.storeFile(path)) where !file.hasSuffix("-shm") {
            guard let handle = FileHandle(forUpdatingAtPath: file) else { continue }
            let size = try handle.seekToEnd()
            var offset: UInt64 = 200
            while offset + 16 < size {
                try handle.seek(toOffset: offset)
                try handle.write(contentsOf: Data(repeating: 0xA5, count: 16))
                offset += 1024
                damaged += 1
            }
            try handle.close()
        }
        #expect(damaged > 4, "the control: the store has pages to damage")
        do {
            try await ledger.execute(history.s.command(.editTransaction(transactionID: history.first, entry: history.s.expense(1_234))))
            Issue.record("an edit validated although its transaction could not be read")
        } catch {
            #expect(error.code == "journalFailed" && error.message.contains(LedgerDirectory.readSideStoreName), "\(error)")
        }
        #expect(await ledger.storeHistory.failure != nil)
        await #expect(throws: LedgerError.self, "the ledger stays failed") {
            try await ledger.execute(history.s.command(.recordTransaction(transactionID: history.s.ids.next(), entry: history.s.expense(5))))
        }
        try? await ledger.close()
        let reopened = try await Ledger.open(at: path, options: Self.options())
        #expect(reopened.openReport.checkpointSequenceNumber == nil, "\(reopened.openReport.rejectedCheckpoints)")
        #expect(reopened.openReport.readSide.hasPrefix("rebuilt"), "\(reopened.openReport.readSide)")
        try await reopened.execute(history.s.command(.editTransaction(transactionID: history.first, entry: history.s.expense(1_234))))
        try await Self.expectEqualToReplay(reopened, at: path)
        try await reopened.close()
    }

    @Test("W1-W6, S5-S7, B2-B6, C3 with the read models' history in the store: balances, debts (a settlement oldest first and one with a list over items in the store's history), group balances, a period closed over transactions there and a category reassignment equal a replay, also after reopening; a checkpoint does not grow with the transactions behind it")
    func readModelsHistoryLivesInTheStore() async throws {
        let directory = try TemporaryDirectory("tally-history-read-models")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        let ledger = try await Ledger.open(at: path, options: Self.options())
        try await ledger.execute(s.setup())
        let pets: CategoryID = s.ids.next()
        let group: TallyModel.GroupID = s.ids.next()
        try await ledger.execute([
            s.command(.createCategory(categoryID: pets, name: "Pets", group: .expense, budgetType: .wants, shareable: true, icon: nil, color: nil)),
            s.command(.setPayday(day: 1)),
            s.command(.allocateBudget(categoryID: pets, amount: Scenario.chf(50_000), fromPeriod: nil)),
            s.command(.createGroup(groupID: group, name: "Trip", members: [s.alice, s.bob])),
        ])
        var transactions: [TransactionID] = []
        /// `count` expenses (every fifth in Pets, every third shared when `shared`), a transfer
        /// and a group expense.
        func record(_ count: Int, shared: Bool) async throws -> [Command] {
            var commands: [Command] = []
            for index in 0..<count {
                let id: TransactionID = s.ids.next()
                transactions.append(id)
                commands.append(s.command(.recordTransaction(transactionID: id, entry: s.expense(
                    Int64(100 + index), shared: shared && index % 3 == 0, category: index % 5 == 0 ? pets : nil))))
            }
            commands.append(s.command(.recordTransfer(
                transferID: s.ids.next(), fromWalletID: s.joint, toWalletID: s.euroCard, amountSent: Scenario.chf(1_000),
                amountReceived: Scenario.eur(1_050), date: Scenario.date("2026-01-08"), note: nil)))
            commands.append(s.command(.recordGroupExpense(
                expenseID: s.ids.next(), groupID: group, paidBy: s.bob, amount: Scenario.chf(3_000), date: Scenario.date("2026-01-07"),
                note: "dinner", split: .equal([s.alice, s.bob]))))
            for result in try await ledger.execute(each: commands) { _ = try result.get() }
            return commands
        }
        _ = try await record(100, shared: true)
        try await ledger.checkpoint()
        #expect(await ledger.archivedEntriesInMemory == 0, "a checkpoint moves the read models' history out of memory too")
        let small = try await Self.checkpointSize(ledger)
        _ = try await record(900, shared: false)  // nothing left open: only history
        try await ledger.checkpoint()
        let large = try await Self.checkpointSize(ledger)
        #expect(large < small + 1_024, "a checkpoint holds no transactions: \(small) bytes after 100, \(large) after 1,000")

        // Edits, deletes and restores of transactions in the store's history; settlements over items there.
        try await ledger.execute(s.command(.editTransaction(transactionID: transactions[0], entry: s.expense(7_777, shared: true))))
        try await ledger.execute(s.command(.deleteTransaction(transactionID: transactions[3])))
        try await ledger.execute(s.command(.restoreTransaction(transactionID: transactions[3])))
        try await ledger.execute(s.command(.deleteTransaction(transactionID: transactions[6])))
        try await ledger.execute(s.command(.recordSettlement(
            settlementID: s.ids.next(), from: s.bob, to: s.alice, amount: Scenario.chf(5_000), date: Scenario.date("2026-01-09"),
            covers: nil, isAdvance: false, groupID: nil)))
        try await ledger.execute(s.command(.recordSettlement(
            settlementID: s.ids.next(), from: s.bob, to: s.alice, amount: Scenario.chf(55), date: Scenario.date("2026-01-09"),
            covers: [.transaction(transactions[9])], isAdvance: false, groupID: nil)))
        try await ledger.execute(s.command(.recordSettlement(
            settlementID: s.ids.next(), from: s.alice, to: s.bob, amount: Scenario.chf(1_500), date: Scenario.date("2026-01-09"),
            covers: nil, isAdvance: false, groupID: group)))
        try await Self.expectEqualToReplay(ledger, at: path)
        try await ledger.checkpoint()
        // B6: January closes over transactions all in the store's history; C3 moves some there.
        s.advance(to: "2026-02-03")
        try await ledger.execute(s.command(.closePeriod))
        try await ledger.execute(s.command(.deleteCategory(categoryID: pets, reassignTo: s.groceries)))
        let models = await ledger.readModels
        #expect(models.budgets.closedPeriods.count == 1)
        try await Self.expectEqualToReplay(ledger, at: path)
        try await ledger.checkpoint()
        // `read` answers from the live read models (the history stays in the store), before
        // and after the close, as the detached value does.
        let live = try await ledger.auditRead { try $0.wallets.balances() }
        #expect(await ledger.archivedEntriesInMemory == 0, "reading balances brings no history into memory")
        #expect(live == (try models.wallets.balances()))
        try await ledger.close()
        #expect(try await ledger.auditRead { try $0.wallets.balances() } == live, "after the close: rebuilt from the journal")

        let reopened = try await Ledger.open(at: path, options: Self.options())
        #expect(reopened.openReport.eventsReplayed == 0 && reopened.openReport.rejectedCheckpoints.isEmpty, "\(reopened.openReport)")
        #expect(await reopened.archivedEntriesInMemory == 0)
        try await Self.expectEqualToReplay(reopened, at: path)
        try await reopened.close()
    }

    /// The size of the encoded checkpoint `ledger`'s store holds (its `checkpoint` row).
    static func checkpointSize(_ ledger: Ledger) async throws -> Int {
        try #require(await ledger.readSide.storedCheckpoint()).encoded().count
    }

    @Test("T5 memory with background checkpoints: commands executed one by one and 100 at a time while a checkpoint is written every 40 events leave in the acknowledged state only what changed since the last one (the head and in-flight batches are refolded from it, never left unsettled); after a last checkpoint nothing archived is in memory; the state equals a replay")
    func backgroundCheckpointsBoundMemory() async throws {
        let directory = try TemporaryDirectory("tally-history-bounded")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        var options = LedgerOptions()
        options.checkpointIntervalEvents = 40
        let ledger = try await Ledger.open(at: path, options: options)
        try await ledger.execute(s.setup())
        var peak = 0
        for round in 0..<12 {
            var commands: [Command] = []
            for index in 0..<100 {
                commands.append(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(Int64(100 + index), shared: index % 4 == 0))))
            }
            // One by one and concurrently: batches are in flight while checkpoints finish.
            if round % 2 == 0 {
                for command in commands { try await ledger.execute(command) }
            } else {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for command in commands { group.addTask { try await ledger.execute(command) } }
                    try await group.waitForAll()
                }
            }
            await ledger.checkpointWritten()
            peak = max(peak, await ledger.archivedEntriesInMemory + ledger.commandHistoryInMemory.touches)
        }
        // 1,200 commands: each leaves some ten entries (transaction, category member, history
        // entry and touches, the read models' book); a bound of a few intervals' worth holds only
        // when every checkpoint's settle reached the state that reads and validation use.
        #expect(peak < 40 * 10 * 4, "entries in memory after a background checkpoint: \(peak)")
        #expect(await ledger.checkpointFailures == 0)
        #expect(await ledger.readSide.storedCheckpoint() != nil, "the control: the background checkpoints went to the store")
        try await ledger.checkpoint()
        #expect(await ledger.archivedEntriesInMemory == 0, "after a checkpoint of everything, no archived entry is in memory")
        #expect(await ledger.commandHistoryInMemory == (0, 0))
        try await Self.expectEqualToReplay(ledger, at: path)
        let last = await ledger.lastSequenceNumber
        try await ledger.close()
        #expect(try StoredCheckpoints.checkpoint(at: path)?.sequenceNumber == last)
    }
}
