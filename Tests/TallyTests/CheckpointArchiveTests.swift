import Foundation
import SystemPackage
@testable import Tally
import TallyJournal
import TallyModel
import TallySQLiteEncryption
import TallyStore
import TallyTestSupport
import Testing

/// The checkpoint archive (issue 14, Docs/Engine.md "Checkpoints and the archive"): the command
/// history leaves memory at each checkpoint, undo and redo (T5) keep working from the archive,
/// across restarts, and an archive that does not match is never read.
@Suite("Checkpoint archive", .serialized)
struct CheckpointArchiveTests {
    static func options() -> LedgerOptions { .checkpointsOnRequest() }

    static func archivePath(_ ledger: FilePath) -> String {
        ledger.appending(LedgerDirectory.checkpointsName).appending(LedgerDirectory.checkpointArchiveName).string
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
            commands.append(s.command(.recordTransaction(first, s.expense(1_000))))
            commands.append(s.command(.recordTransaction(second, s.expense(2_000))))
            commands.append(s.command(.editTransaction(second, s.expense(2_500))))
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

    @Test("T5 with the history archived: after a checkpoint only later commands are in memory; undo and redo of an archived command work, an archived later touch blocks an undo, an archived command id stays taken, also after reopening")
    func undoWorksFromTheArchive() async throws {
        let directory = try TemporaryDirectory("tally-archive-undo")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var history = History()
        let ledger = try await Ledger.open(at: path, options: Self.options())
        for command in history.commands { try await ledger.execute(command) }
        #expect(await ledger.commandHistoryInMemory.entries == history.commands.count)
        try await ledger.checkpoint()
        #expect(await ledger.commandHistoryInMemory == (0, 0), "a checkpoint moves every entry and touch to the archive")
        #expect(FileManager.default.fileExists(atPath: Self.archivePath(path)))

        // An archived id is still taken.
        var duplicate = history.s.command(.recordTransaction(history.s.ids.next(), history.s.expense(10)))
        duplicate.commandID = history.recordFirst.commandID
        await #expect(throws: LedgerError.self) { try await ledger.execute(duplicate) }
        // The edit of `second` (archived) blocks undoing its recording.
        do {
            try await ledger.execute(history.s.command(.undo(history.recordSecond.commandID)))
            Issue.record("undoing a command a later edit depends on was accepted")
        } catch {
            #expect(error.code == "undoBlocked" && error.message.contains("command \(history.editSecond.commandID)"), "\(error)")
        }
        // Undo and redo of an archived command.
        let undo = history.s.command(.undo(history.recordFirst.commandID))
        try await ledger.execute(undo)
        #expect(await ledger.state.transactions[history.first]?.isDeleted == true)
        #expect(await ledger.commandHistoryInMemory.entries == 2, "the undo and the entry it marked undone")
        try await ledger.execute(history.s.command(.redo(history.recordFirst.commandID)))
        #expect(await ledger.state.transactions[history.first]?.isDeleted == false)
        try await Self.expectEqualToReplay(ledger, at: path)
        try await ledger.checkpoint()
        try await ledger.close()

        let reopened = try await Ledger.open(at: path, options: Self.options())
        #expect(reopened.openReport.checkpointSequenceNumber != nil && reopened.openReport.rejectedCheckpoints.isEmpty,
                "\(reopened.openReport.rejectedCheckpoints)")
        #expect(await reopened.commandHistoryInMemory.entries == 0, "the last checkpoint archived the rest")
        try await reopened.execute(history.s.command(.undo(history.editSecond.commandID)))
        #expect(await reopened.state.transactions[history.second]?.details.amount == Scenario.chf(2_000), "the edit undone from the archive")
        await #expect(throws: LedgerError.self) { try await reopened.execute(duplicate) }
        try await Self.expectEqualToReplay(reopened, at: path)
        try await reopened.close()
    }

    @Test("an archive that lacks the checkpoint's rows (deleted) is never read: the open replays; a damaged page (which the open does not read) refuses the first command that reads it, and the reopen replays; undo then works")
    func missingOrDamagedArchiveMeansReplay() async throws {
        for damage in ["deleted", "damaged"] {
            let directory = try TemporaryDirectory("tally-archive-\(damage)")
            defer { directory.remove() }
            let path = directory.appending("ledger")
            var history = History()
            let ledger = try await Ledger.open(at: path, options: Self.options())
            for command in history.commands { try await ledger.execute(command) }
            try await ledger.checkpoint()  // with the history archived
            try await ledger.close()
            let archive = Self.archivePath(path)
            if damage == "deleted" {
                CheckpointArchive.remove(at: archive)
            } else {
                let handle = try #require(FileHandle(forUpdatingAtPath: archive))
                let size = try handle.seekToEnd()
                #expect(size > 4096)
                try handle.seek(toOffset: 4096 + 100)  // inside the second page: its tag no longer matches
                handle.write(Data(repeating: 0x5A, count: 64))
                try handle.close()
            }
            var reopened = try await Ledger.open(at: path, options: Self.options())
            let undo = history.s.command(.undo(history.recordFirst.commandID))
            if damage == "damaged" {
                // Found when read: refused, never answered from a missing entry.
                #expect(reopened.openReport.checkpointSequenceNumber != nil, "the open reads no page of the entries")
                do {
                    try await reopened.execute(undo)
                    Issue.record("an undo that reads the damaged page was accepted")
                } catch {
                    #expect(error.code == "journalFailed" && error.message.contains("checkpoint archive"), "\(error)")
                }
                try? await reopened.close()
                reopened = try await Ledger.open(at: path, options: Self.options())
                #expect(reopened.openReport.checkpointSequenceNumber == nil, "once the damage was read, the reopen replays the journal")
            } else {
                #expect(reopened.openReport.checkpointSequenceNumber == nil, "\(damage): opened from a checkpoint without its history")
                let rejected = reopened.openReport.rejectedCheckpoints
                #expect(rejected.contains { $0.contains(LedgerDirectory.checkpointArchiveName) }, "\(damage): \(rejected)")
            }
            try await reopened.execute(undo)
            try await Self.expectEqualToReplay(reopened, at: path)
            try await reopened.checkpoint()
            try await reopened.close()
            // The next open uses the new checkpoint, with a fresh archive.
            let third = try await Ledger.open(at: path, options: Self.options())
            #expect(third.openReport.checkpointSequenceNumber != nil, "\(damage): \(third.openReport.rejectedCheckpoints)")
            try await Self.expectEqualToReplay(third, at: path)
            try await third.close()
        }
    }

    @Test("opening from the older of the two checkpoints discards the newer one's rows, so later checkpoints never read them")
    func olderCheckpointDiscardsNewerRows() async throws {
        let directory = try TemporaryDirectory("tally-archive-older")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var history = History()
        let ledger = try await Ledger.open(at: path, options: Self.options())
        for command in history.commands { try await ledger.execute(command) }
        try await ledger.checkpoint()
        // Changes an archived entry (undone), then checkpoints again: the entry has two versions.
        try await ledger.execute(history.s.command(.undo(history.recordFirst.commandID)))
        try await ledger.checkpoint()
        try await ledger.close()
        let checkpoints = path.appending(LedgerDirectory.checkpointsName).string
        let names = try FileManager.default.contentsOfDirectory(atPath: checkpoints).filter { $0.hasSuffix(LedgerDirectory.checkpointSuffix) }.sorted()
        #expect(names.count == 2)
        let newest = try #require(names.last)
        try FileManager.default.removeItem(atPath: checkpoints + "/" + newest)
        let reopened = try await Ledger.open(at: path, options: Self.options())
        #expect(reopened.openReport.checkpointSequenceNumber == UInt64(try #require(names.first).prefix(20)))
        #expect(reopened.openReport.eventsReplayed > 0)
        try await Self.expectEqualToReplay(reopened, at: path)
        // The entry is undone (replayed tail); redo it and checkpoint at a later sequence.
        try await reopened.execute(history.s.command(.redo(history.recordFirst.commandID)))
        try await reopened.execute(history.s.command(.recordTransaction(history.s.ids.next(), history.s.expense(70))))
        try await reopened.checkpoint()
        try await reopened.close()
        let third = try await Ledger.open(at: path, options: Self.options())
        #expect(third.openReport.eventsReplayed == 0)
        try await Self.expectEqualToReplay(third, at: path)
        #expect(await third.state.history.entry(for: history.recordFirst.commandID)?.isUndone == false)
        try await third.close()
    }

    @Test("archive P3: after a person is forgotten their note is in no page of the archive or its WAL, not even for a holder of the page key")
    func forgettingLeavesNoNoteInArchive() async throws {
        let directory = try TemporaryDirectory("tally-archive-forget")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        let marker = "Qwertzuiop Lkjhgf note"
        let ledger = try await Ledger.open(at: path, options: Self.options())
        try await ledger.execute(s.setup())
        let expense: TransactionID = s.ids.next()
        var noted = s.expense(6_000, shared: true, payer: s.bob)
        noted.note = marker
        try await ledger.execute(s.command(.recordTransaction(expense, noted), by: s.bob))
        // Bob's edit: its compensation (the history) holds the previous details, note included.
        var edited = noted
        edited.note = nil
        try await ledger.execute(s.command(.editTransaction(expense, edited), by: s.bob))
        try await ledger.checkpoint()
        try await ledger.close()
        let archive = Self.archivePath(path)
        let before = EncryptedSQLite.readableImage(ofDatabaseAt: archive, key: LedgerStore.integrityKey)
        #expect(Data(before).range(of: Data(marker.utf8)) != nil, "the control: the archive holds the note before forgetting")
        let reopened = try await Ledger.open(at: path, options: Self.options())
        try await reopened.execute(s.command(.removeMember(personID: s.bob, acknowledgeUnsettled: true)))
        try await reopened.execute(s.command(.forgetPerson(s.bob)))
        try await reopened.checkpoint()
        try await reopened.close()
        let after = EncryptedSQLite.readableImage(ofDatabaseAt: archive, key: LedgerStore.integrityKey)
        #expect(!after.isEmpty)
        #expect(Data(after).range(of: Data(marker.utf8)) == nil, "a forgotten note survives in a page of the archive or its WAL")
        let third = try await Ledger.open(at: path, options: Self.options())
        try await Self.expectEqualToReplay(third, at: path)
        try await third.close()
    }

    @Test("G5, T2, T3, W6, S6, C3 with transactions, transfers and settlements archived: ids stay taken, edits, deletes, restores, a settlement of an archived shared item and a category reassignment read them from the archive; the state equals a replay, also after reopening")
    func validationReadsArchivedRecords() async throws {
        let directory = try TemporaryDirectory("tally-archive-records")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        let ledger = try await Ledger.open(at: path, options: Self.options())
        try await ledger.execute(s.setup())
        let pets: CategoryID = s.ids.next()
        try await ledger.execute(s.command(.createCategory(
            categoryID: pets, name: "Pets", group: .expense, budgetType: .wants, shareable: true, icon: nil, color: nil)))
        let mine: TransactionID = s.ids.next()
        let shared: TransactionID = s.ids.next()
        let transfer: TransferID = s.ids.next()
        let settlement: SettlementID = s.ids.next()
        let recordMine = s.command(.recordTransaction(mine, s.expense(900, category: pets)))
        try await ledger.execute(recordMine)
        try await ledger.execute(s.command(.recordTransaction(shared, s.expense(4_000, shared: true, payer: s.alice))))
        try await ledger.execute(s.command(.recordTransfer(
            transferID: transfer, from: s.joint, to: s.euroCard, amountSent: Scenario.chf(1_000),
            amountReceived: Scenario.eur(1_050), date: Scenario.date("2026-01-08"), note: nil)))
        try await ledger.checkpoint()
        #expect(await ledger.archivedEntriesInMemory == 0, "a checkpoint moves every archived map's entries out of memory")

        // Ids stay taken.
        await expectRejection(ledger, s.command(.recordTransaction(mine, s.expense(10))), code: "duplicateID", rule: "G5")
        await expectRejection(ledger, s.command(.recordTransfer(
            transferID: transfer, from: s.joint, to: s.euroCard, amountSent: Scenario.chf(1), amountReceived: Scenario.eur(1),
            date: Scenario.date("2026-01-08"), note: nil)), code: "duplicateID", rule: "G5")
        // Edit, delete and restore an archived transaction; delete an archived transfer.
        try await ledger.execute(s.command(.editTransaction(mine, s.expense(950, category: pets))))
        try await ledger.execute(s.command(.deleteTransaction(mine)))
        try await ledger.execute(s.command(.restoreTransaction(mine)))
        try await ledger.execute(s.command(.deleteTransfer(transfer)))
        #expect(await ledger.state.transfers[transfer]?.isDeleted == true)
        // Bob settles what he owes for the archived shared expense (S6: it is covered).
        try await ledger.execute(s.command(.recordSettlement(
            settlementID: settlement, from: s.bob, to: s.alice, amount: Scenario.chf(2_000), date: Scenario.date("2026-01-09"),
            covers: nil, isAdvance: false, groupID: nil)))
        #expect(await ledger.state.debts.settlement(coveringTransaction: shared) == settlement)
        try await ledger.checkpoint()
        await expectRejection(ledger, s.command(.recordSettlement(
            settlementID: settlement, from: s.bob, to: s.alice, amount: Scenario.chf(1), date: Scenario.date("2026-01-09"),
            covers: nil, isAdvance: true, groupID: nil)), code: "duplicateID", rule: "G5")
        // C3: deleting the category moves its archived transaction, and owns it (T5).
        try await ledger.execute(s.command(.deleteCategory(pets, reassignTo: s.groceries)))
        #expect(await ledger.state.transactions[mine]?.details.categoryID == s.groceries)
        await expectRejection(ledger, s.command(.undo(recordMine.commandID)), code: "undoBlocked", rule: "T5")
        try await Self.expectEqualToReplay(ledger, at: path)
        try await ledger.checkpoint()
        try await ledger.close()

        let reopened = try await Ledger.open(at: path, options: Self.options())
        #expect(reopened.openReport.eventsReplayed == 0 && reopened.openReport.rejectedCheckpoints.isEmpty)
        #expect(await reopened.archivedEntriesInMemory == 0)
        #expect(await reopened.state.transactions[mine]?.details.amount == Scenario.chf(950))
        try await Self.expectEqualToReplay(reopened, at: path)
        try await reopened.close()
    }

    @Test("an archive read that fails while the ledger is open (a damaged page) refuses the write that needed it and fails the ledger, never validating against a missing entry; reopening sets the archive aside and replays")
    func failedArchiveReadFailsTheLedger() async throws {
        let directory = try TemporaryDirectory("tally-archive-read-failure")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var history = History()
        let ledger = try await Ledger.open(at: path, options: Self.options())
        for command in history.commands { try await ledger.execute(command) }
        try await ledger.checkpoint()
        // Damage every page of the archive and of its WAL, behind SQLite's back (every KiB, so
        // that each page and WAL frame has a changed byte whatever the page size).
        for file in CheckpointArchive.files(at: Self.archivePath(path)).dropLast() {
            guard let handle = FileHandle(forUpdatingAtPath: file) else { continue }
            let size = try handle.seekToEnd()
            var offset: UInt64 = 200
            while offset + 16 < size {
                try handle.seek(toOffset: offset)
                handle.write(Data(repeating: 0xA5, count: 16))
                offset += 1024
            }
            try handle.close()
        }
        do {
            try await ledger.execute(history.s.command(.editTransaction(history.first, history.s.expense(1_234))))
            Issue.record("an edit validated although its transaction could not be read")
        } catch {
            #expect(error.code == "journalFailed" && error.message.contains("checkpoint archive"), "\(error)")
        }
        await #expect(throws: LedgerError.self, "the ledger stays failed") {
            try await ledger.execute(history.s.command(.recordTransaction(history.s.ids.next(), history.s.expense(5))))
        }
        try? await ledger.close()
        let reopened = try await Ledger.open(at: path, options: Self.options())
        #expect(reopened.openReport.checkpointSequenceNumber == nil, "\(reopened.openReport.rejectedCheckpoints)")
        try await reopened.execute(history.s.command(.editTransaction(history.first, history.s.expense(1_234))))
        try await Self.expectEqualToReplay(reopened, at: path)
        try await reopened.close()
    }

    @Test("W1-W6, S5-S7, B2-B6, C3 with the read models archived: balances, debts (a settlement oldest first and one with a list over archived items), group balances, a period closed over archived transactions and a category reassignment equal a replay, also after reopening; a checkpoint does not grow with the transactions behind it")
    func readModelsLiveInTheArchive() async throws {
        let directory = try TemporaryDirectory("tally-archive-read-models")
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
                commands.append(s.command(.recordTransaction(id, s.expense(
                    Int64(100 + index), shared: shared && index % 3 == 0, category: index % 5 == 0 ? pets : nil))))
            }
            commands.append(s.command(.recordTransfer(
                transferID: s.ids.next(), from: s.joint, to: s.euroCard, amountSent: Scenario.chf(1_000),
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
        let small = try Self.newestCheckpointSize(path)
        _ = try await record(900, shared: false)  // nothing left open: only history
        try await ledger.checkpoint()
        let large = try Self.newestCheckpointSize(path)
        #expect(large < small + 1_024, "a checkpoint holds no transactions: \(small) bytes after 100, \(large) after 1,000")

        // Edits, deletes and restores of archived transactions; settlements over archived items.
        try await ledger.execute(s.command(.editTransaction(transactions[0], s.expense(7_777, shared: true))))
        try await ledger.execute(s.command(.deleteTransaction(transactions[3])))
        try await ledger.execute(s.command(.restoreTransaction(transactions[3])))
        try await ledger.execute(s.command(.deleteTransaction(transactions[6])))
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
        // B6: January closes over transactions all in the archive; C3 moves archived ones.
        s.advance(to: "2026-02-03")
        try await ledger.execute(s.command(.closePeriod))
        try await ledger.execute(s.command(.deleteCategory(pets, reassignTo: s.groceries)))
        let models = await ledger.readModels
        #expect(models.budgets.closedPeriods.count == 1)
        try await Self.expectEqualToReplay(ledger, at: path)
        try await ledger.checkpoint()
        // `read` answers from the live read models (the history stays in the archive), before
        // and after the close, as the detached value does.
        let live = try await ledger.read { try $0.wallets.balances() }
        #expect(await ledger.archivedEntriesInMemory == 0, "reading balances brings no history into memory")
        #expect(live == (try models.wallets.balances()))
        try await ledger.close()
        #expect(try await ledger.read { try $0.wallets.balances() } == live, "after the close: rebuilt from the journal")

        let reopened = try await Ledger.open(at: path, options: Self.options())
        #expect(reopened.openReport.eventsReplayed == 0 && reopened.openReport.rejectedCheckpoints.isEmpty, "\(reopened.openReport)")
        #expect(await reopened.archivedEntriesInMemory == 0)
        try await Self.expectEqualToReplay(reopened, at: path)
        try await reopened.close()
    }

    static func newestCheckpointSize(_ ledger: FilePath) throws -> Int {
        let folder = ledger.appending(LedgerDirectory.checkpointsName).string
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(LedgerDirectory.checkpointSuffix) }.sorted()
        let newest = try #require(names.last)
        return try #require(try FileManager.default.attributesOfItem(atPath: folder + "/" + newest)[.size] as? Int)
    }

    @Test("T5 memory with background checkpoints: commands executed one by one and 100 at a time while a checkpoint is written every 40 events leave in the acknowledged state only what changed since the last one (the head and in-flight batches are refolded from it, never left unsettled); the state equals a replay")
    func backgroundCheckpointsBoundMemory() async throws {
        let directory = try TemporaryDirectory("tally-archive-bounded")
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
                commands.append(s.command(.recordTransaction(s.ids.next(), s.expense(Int64(100 + index), shared: index % 4 == 0))))
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
        try await Self.expectEqualToReplay(ledger, at: path)
        try await ledger.close()
    }

}
