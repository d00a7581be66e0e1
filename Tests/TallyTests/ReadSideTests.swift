import Foundation
import SystemPackage
import Tally
import TallyJournal
import TallyModel
import TallyProjections
import TallySQLiteEncryption
import TallyStore
import TallyTestSupport
import Testing

/// The read-side store (issue 14, Docs/Engine.md "Read side"): it shows exactly the durable
/// journal, is caught up or rebuilt at open whatever happened to it, and is never served when it
/// does not match the journal.
@Suite("Read-side store", .serialized)
struct ReadSideTests {
    static func options() -> LedgerOptions { .checkpointsOnRequest() }

    /// A household with transactions in two wallets, edits, deletes and a transfer.
    static func history(_ s: inout Scenario, count: Int) -> [[Command]] {
        var batches = [s.setup()]
        var recorded: [TransactionID] = []
        for index in 0..<count {
            let id: TransactionID = s.ids.next()
            recorded.append(id)
            var entry = s.expense(Int64(100 + index * 7))
            entry.date = Scenario.date(index % 2 == 0 ? "2026-01-05" : "2026-01-06")
            batches.append([s.command(.recordTransaction(transactionID: id, entry: entry))])
        }
        var edited = s.expense(4_321)
        edited.date = Scenario.date("2026-01-07")
        batches.append([s.command(.editTransaction(transactionID: recorded[1], entry: edited))])
        batches.append([s.command(.deleteTransaction(transactionID: recorded[2]))])
        batches.append([s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(3_333, shared: true, payer: s.bob)))])
        let transfer: TransferID = s.ids.next()
        batches.append([s.command(.recordTransfer(
            transferID: transfer, fromWalletID: s.joint, toWalletID: s.euroCard, amountSent: Scenario.chf(1_000),
            amountReceived: Scenario.eur(1_050), date: Scenario.date("2026-01-08"), note: nil))])
        return batches
    }

    static func storeFolder(_ path: FilePath) -> String { path.appending(LedgerDirectory.readSideName).string }

    /// Executes `batches` on the ledger at `path` (created when missing) and closes it.
    static func write(_ batches: some Sequence<[Command]>, to path: FilePath) async throws {
        let ledger = try await Ledger.open(at: path, options: options())
        for batch in batches { try await ledger.execute(batch) }
        try await ledger.close()
    }

    /// Reopens `path` and expects the store rebuilt or caught up as `status` says, and equal
    /// to the read models.
    static func expectReopened(_ path: FilePath, status: (String) -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let reopened = try await Ledger.open(at: path, options: options())
        #expect(status(reopened.openReport.readSide), "\(reopened.openReport.readSide)", sourceLocation: sourceLocation)
        try await expectStoreMatches(reopened, sourceLocation: sourceLocation)
        try await reopened.close()
    }

    /// The store of an open ledger shows its read models exactly.
    static func expectStoreMatches(_ ledger: Ledger, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let store = try #require(await ledger.flushedStore(), "no current store: \(ledger.openReport.readSide)", sourceLocation: sourceLocation)
        let wallets = await ledger.readModels.wallets
        #expect(try store.walletBalances(visibleTo: .audit) == wallets.balances(), sourceLocation: sourceLocation)
        #expect(try wallets.balances() == wallets.balances(asOf: .max), "the current-balance path equals the dated one (W3)", sourceLocation: sourceLocation)
        #expect(try store.totals() == wallets.totals(), sourceLocation: sourceLocation)
        #expect(try store.coverage()?.sequenceNumber == (await ledger.lastSequenceNumber), sourceLocation: sourceLocation)
        #expect(try store.rowCounts()["transactions"] == wallets.transactionIDs.count, sourceLocation: sourceLocation)
        #expect(try store.rowCounts()["transfers"] == wallets.transferIDs.count, sourceLocation: sourceLocation)
        let debts = await ledger.readModels.debts
        let nets = try debts.householdNetBalances().map { "\($0.personA) \($0.personB) \($0.aOwesB)" }
        #expect(nets == (try debts.householdBalances().filter { !$0.aOwesB.isZero }.map { "\($0.personA) \($0.personB) \($0.aOwesB)" }),
                "the running nets the store writes equal the item-by-item debts (S5)", sourceLocation: sourceLocation)
        #expect(try store.rowCounts()["household_debts"] == nets.count, sourceLocation: sourceLocation)
    }

    @Test("read side: after every durable batch the store's balances, totals and rows equal the read models")
    func storeFollowsEveryBatch() async throws {
        let directory = try TemporaryDirectory("tally-store-follows")
        defer { directory.remove() }
        var s = Scenario()
        let ledger = try await Ledger.open(at: directory.appending("ledger"), options: Self.options())
        for batch in Self.history(&s, count: 12) {
            try await ledger.execute(batch)
            try await Self.expectStoreMatches(ledger)
        }
        try await ledger.close()
    }

    @Test("read side: under relaxed durability the store is never offered behind the state, and is written once the journal is synced (close)")
    func relaxedDurabilityStore() async throws {
        let directory = try TemporaryDirectory("tally-store-relaxed")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var options = LedgerOptions(durability: .none)
        options.checkpointIntervalEvents = 1_000
        var s = Scenario()
        let ledger = try await Ledger.open(at: path, options: options)
        try await ledger.execute(s.setup())
        #expect(await ledger.flushedStore() == nil, "events not durable yet: the store is behind and not offered")
        try await ledger.execute(s.command(.openWallet(walletID: s.ids.next(), name: "Later", kind: .cash,
                                                       openingBalance: Scenario.chf(500), openedOn: Scenario.date("2026-01-02"), owner: nil)))
        #expect(await ledger.flushedStore() == nil, "a wallet opened (no transaction id) still leaves the store behind")
        try await ledger.close()
        let store = try #require(try Ledger.currentStore(at: path), "close synced the journal and wrote the store")
        #expect(try store.walletBalances(visibleTo: .audit).contains { $0.name == "Later" })
    }

    @Test("read side: keyset pages of a wallet list every live transaction once, newest date first, whatever the page size")
    func keysetPagination() async throws {
        let directory = try TemporaryDirectory("tally-store-pages")
        defer { directory.remove() }
        var s = Scenario()
        let ledger = try await Ledger.open(at: directory.appending("ledger"), options: Self.options())
        for batch in Self.history(&s, count: 25) { try await ledger.execute(batch) }
        let store = try #require(await ledger.flushedStore())
        let wallets = await ledger.readModels.wallets
        let expected = wallets.transactionIDs.compactMap { wallets.transaction($0) }
            .filter { $0.isLive && $0.details.walletID == s.joint }
            .sorted { ($0.details.date, $0.sequenceNumber) > ($1.details.date, $1.sequenceNumber) }
            .map(\.transactionID)
        #expect(expected.count == 25, "24 recorded, one deleted, one shared")
        for pageSize in [1, 5, 7, 100] {
            var listed: [TransactionID] = []
            var query = TransactionQuery(visibleTo: .audit)
            query.walletIDs = [s.joint]
            query.limit = pageSize
            while true {
                let page = try store.transactions(query)
                listed += page.rows.map(\.transaction.transactionID)
                guard let next = page.next else { break }
                query.after = next
            }
            #expect(listed == expected, "page size \(pageSize)")
        }
        var withDeleted = TransactionQuery(visibleTo: .audit)
        withDeleted.walletIDs = [s.joint]
        withDeleted.deleted = .included
        #expect(try store.transactions(withDeleted).rows.count == 26)
        try await ledger.close()
    }

    @Test("read side: a crash between the journal's fsync and the store's commit leaves the store behind; open catches it up from the journal tail")
    func storeBehindIsCaughtUp() async throws {
        let directory = try TemporaryDirectory("tally-store-behind")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        let batches = Self.history(&s, count: 8)
        try await Self.write(batches.prefix(5), to: path)
        // The store as the crash left it: the commit of the later batches never happened.
        try FileManager.default.copyItem(atPath: Self.storeFolder(path), toPath: directory.appending("store-early").string)
        try await Self.write(batches.dropFirst(5), to: path)
        try FileManager.default.removeItem(atPath: Self.storeFolder(path))
        try FileManager.default.moveItem(atPath: directory.appending("store-early").string, toPath: Self.storeFolder(path))
        #expect(try Ledger.currentStore(at: path) == nil, "a store behind the journal is never served")
        try await Self.expectReopened(path) { $0 == "caught up by \(batches.dropFirst(5).count) event(s)" }
        #expect(try Ledger.currentStore(at: path) != nil)
    }

    @Test("read side: a deleted store is rebuilt at open")
    func deletedStoreIsRebuilt() async throws {
        let directory = try TemporaryDirectory("tally-store-deleted")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        try await Self.write(Self.history(&s, count: 6), to: path)
        try FileManager.default.removeItem(atPath: Self.storeFolder(path))
        try await Self.expectReopened(path) { $0 == "rebuilt: it was empty or missing" }
    }

    @Test("read side: a store of another ledger (other chain value) is rebuilt, never served")
    func foreignStoreIsRebuilt() async throws {
        let directory = try TemporaryDirectory("tally-store-foreign")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        let other = directory.appending("other")
        var s = Scenario()
        try await Self.write(Self.history(&s, count: 6), to: path)
        var t = Scenario()
        t.advance(to: "2026-01-09")
        try await Self.write(Self.history(&t, count: 3), to: other)
        try FileManager.default.removeItem(atPath: Self.storeFolder(path))
        try FileManager.default.copyItem(atPath: Self.storeFolder(other), toPath: Self.storeFolder(path))
        #expect(try Ledger.currentStore(at: path) == nil)
        try await Self.expectReopened(path) { $0.hasPrefix("rebuilt: its chain value at sequence") }
    }

    @Test("read side: a damaged store file is rebuilt at open, never served")
    func damagedStoreIsRebuilt() async throws {
        let directory = try TemporaryDirectory("tally-store-damaged")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        try await Self.write(Self.history(&s, count: 6), to: path)
        let file = Self.storeFolder(path) + "/" + LedgerDirectory.readSideStoreName
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        for index in stride(from: 0, to: min(bytes.count, 8192), by: 3) { bytes[index] ^= 0x5A }
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        #expect(try Ledger.currentStore(at: path) == nil, "a damaged store is never served")
        try await Self.expectReopened(path) { $0.hasPrefix("rebuilt: ") }
    }

    @Test("read side: a FIFO in place of the store file is never opened (SQLite would block); readers ignore it and open sets it aside and rebuilds")
    func fifoAtStorePathIsSetAside() async throws {
        let directory = try TemporaryDirectory("tally-store-fifo")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        try await Self.write(Self.history(&s, count: 3), to: path)
        let file = Self.storeFolder(path) + "/" + LedgerDirectory.readSideStoreName
        for suffix in ["", "-wal", "-shm"] { _ = unlink(file + suffix) }
        #expect(mkfifo(file, 0o600) == 0)
        #expect(try Ledger.currentStore(at: path) == nil, "a reader ignores a store file that is not a regular file")
        try await Self.expectReopened(path) { $0 == "rebuilt: it was empty or missing" }
    }

    @Test("issue 28 (derived paths of the wrong kind): a file in place of the read side's folder, a folder in place of its database: readers answer, the writer's open sets each aside (kept, renamed .set-aside-1), rebuilds the store and writes the checkpoint into it again", arguments: ["read-side is a file", "read-side.sqlite is a folder"])
    func derivedPathOfTheWrongKindIsSetAside(variant: String) async throws {
        let directory = try TemporaryDirectory("tally-store-wrong-kind")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        try await Self.write(Self.history(&s, count: 3), to: path)
        let layout = LedgerDirectory(path)
        let replaced: FilePath
        switch variant {
        case "read-side is a file":
            replaced = layout.readSide
            try FileManager.default.removeItem(atPath: replaced.string)
            #expect(FileManager.default.createFile(atPath: replaced.string, contents: Data("x".utf8)))
        case "read-side.sqlite is a folder":
            replaced = layout.readSideStore
            for suffix in ["", "-wal", "-shm"] { _ = unlink(replaced.string + suffix) }
            try FileManager.default.createDirectory(atPath: replaced.string + "/inside", withIntermediateDirectories: true)
        default:
            Issue.record("unknown variant \(variant)")
            return
        }
        let expected = try LedgerReplay.replay(at: path).readModels.wallets.balances()
        #expect(try LedgerReplay.replay(at: path).lastSequenceNumber > 0, "a reader folds the journal whatever stands there")
        #expect(try Ledger.currentStore(at: path) == nil, "no store is served from a path of the wrong kind")
        let reopened = try await Ledger.open(at: path, options: Self.options())
        #expect(try await reopened.readModels.wallets.balances() == expected)
        try await Self.expectStoreMatches(reopened)
        try await reopened.checkpoint()
        try await reopened.close()
        #expect(FileManager.default.fileExists(atPath: replaced.string + ".set-aside-1"), "what stood there is kept, renamed")
        #expect(layout.checkpointSequenceNumber() != nil, "the checkpoint is written again")
        let audit = try LedgerAudit.audit(at: path)
        #expect(audit.problems.filter { $0.code != "permissionsTooOpen" }.isEmpty, "\(audit.problems)")
        try await Self.expectReopened(path) { $0 == "current" }
    }

    @Test("read side: a store ahead of a journal that was cut back (restored from an older copy) is rebuilt, never served")
    func storeAheadOfJournalIsRebuilt() async throws {
        let directory = try TemporaryDirectory("tally-store-ahead")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        let batches = Self.history(&s, count: 8)
        try await Self.write(batches.prefix(5), to: path)
        let journal = path.appending(LedgerDirectory.journalName).string
        try FileManager.default.copyItem(atPath: journal, toPath: directory.appending("journal-early").string)
        try await Self.write(batches.dropFirst(5), to: path)
        try FileManager.default.removeItem(atPath: journal)
        try FileManager.default.moveItem(atPath: directory.appending("journal-early").string, toPath: journal)
        #expect(try Ledger.currentStore(at: path) == nil, "a store beyond the journal is never served")
        try await Self.expectReopened(path) { $0.hasPrefix("rebuilt: it covers sequence") }
    }

    @Test("read side: rebuildReadSide folds the journal alone and rewrites every row")
    func rebuildOnDemand() async throws {
        let directory = try TemporaryDirectory("tally-store-rebuild")
        defer { directory.remove() }
        var s = Scenario()
        let ledger = try await Ledger.open(at: directory.appending("ledger"), options: Self.options())
        for batch in Self.history(&s, count: 9) { try await ledger.execute(batch) }
        let counts = try await ledger.rebuildReadSide()
        #expect(counts["transactions"] == 10)
        #expect(counts["wallet_balances"] == 2)
        try await Self.expectStoreMatches(ledger)
        try await ledger.close()
    }

    @Test("read side P3: after a person is forgotten their name is in no page of the store or its WAL, not even for a holder of the page key (free pages and old WAL frames included)")
    func forgettingLeavesNoNameInStore() async throws {
        let directory = try TemporaryDirectory("tally-store-forget")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        let database = Self.storeFolder(path) + "/" + LedgerDirectory.readSideStoreName
        var s = Scenario()
        let marker = "Zyxwvut Qorpleth"
        let ledger = try await Ledger.open(at: path, options: Self.options())
        try await ledger.execute(s.setup())
        let contact: PersonID = s.ids.next()
        try await ledger.execute(s.command(.addPerson(personID: contact, name: marker)))
        for _ in 0..<5 { try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(500)))) }
        #expect(try await ledger.flushedStore()?.personNames()[contact] == marker)
        try await ledger.close()
        let before = EncryptedSQLite.readableImage(ofDatabaseAt: database, key: LedgerStore.integrityKey)
        #expect(Data(before).range(of: Data(marker.utf8)) != nil, "the control: the page key reads the name before forgetting")
        let reopened = try await Ledger.open(at: path, options: Self.options())
        try await reopened.execute(s.command(.forgetPerson(personID: contact)))
        let names = try #require(try await reopened.flushedStore()?.personNames())
        #expect(names[contact] != nil && names[contact] != marker)
        try await reopened.close()
        let after = EncryptedSQLite.readableImage(ofDatabaseAt: database, key: LedgerStore.integrityKey)
        #expect(!after.isEmpty)
        #expect(Data(after).range(of: Data(marker.utf8)) == nil, "a forgotten name survives in a page of the store or its WAL")
        #expect(try Self.filesContaining(marker, inTree: Self.storeFolder(path)).isEmpty)
    }

    @Test("read side E13-S1: with encryption at rest no wallet name, amount or person name is readable in any file of the ledger folder, the store's WAL included; the store opens only with the key")
    func encryptedStoreLeaksNothing() async throws {
        let directory = try TemporaryDirectory("tally-store-encrypted")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var options = Self.options()
        options.encryption = try JournalEncryption(keyID: 1, key: [UInt8](repeating: 9, count: 32))
        var s = Scenario()
        let walletName = "Qwertzuiop Savings"
        let personName = "Plinkety Marker"
        let ledger = try await Ledger.open(at: path, options: options)
        try await ledger.execute(s.setup())
        let savings: WalletID = s.ids.next()
        try await ledger.execute(s.command(.openWallet(walletID: savings, name: walletName, kind: .bank,
                                                       openingBalance: Scenario.chf(0), openedOn: Scenario.date("2026-01-01"), owner: nil)))
        try await ledger.execute(s.command(.addPerson(personID: s.ids.next(), name: personName)))
        var entry = s.expense(123_456_789)
        entry.walletID = savings
        entry.kind = .income
        entry.categoryID = s.salary
        try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: entry)))
        try await Self.expectStoreMatches(ledger)
        // The store's WAL holds the latest commits now (no checkpoint yet): search while open.
        for marker in [walletName, personName, "123456789", "1234567.89"] {
            #expect(try Self.filesContaining(marker, inTree: path.string).isEmpty, "\(marker) readable")
        }
        try await ledger.close()
        for marker in [walletName, personName, "123456789"] {
            #expect(try Self.filesContaining(marker, inTree: path.string).isEmpty, "\(marker) readable after close")
        }
        #expect(throws: LedgerError.self, "without the key nothing of the ledger is read") { try Ledger.currentStore(at: path) }
        let otherKey = try JournalEncryption(keyID: 1, key: [UInt8](repeating: 3, count: 32))
        #expect((try? Ledger.currentStore(at: path, encryption: otherKey)) == nil, "another key never reads the store")
        let database = Self.storeFolder(path) + "/" + LedgerDirectory.readSideStoreName
        #expect(EncryptedSQLite.readableImage(ofDatabaseAt: database, key: LedgerStore.integrityKey).isEmpty,
                "the public integrity key reads no page of an encrypted ledger's store")
        let key = try #require(options.encryption?.keys[1])
        #expect(Data(EncryptedSQLite.readableImage(ofDatabaseAt: database, key: LedgerStore.pageKey(derivedFrom: key))).range(of: Data(walletName.utf8)) != nil,
                "the derived key reads the pages")
        let store = try #require(try Ledger.currentStore(at: path, encryption: options.encryption))
        #expect(try store.walletBalances(visibleTo: .audit).contains { $0.name == walletName && $0.balance.minorUnits == 123_456_789 })
        // The control: without encryption the same name is readable in the ledger folder (its journal).
        let plain = directory.appending("plain")
        var t = Scenario()
        let control = try await Ledger.open(at: plain, options: Self.options())
        try await control.execute(t.setup())
        try await control.execute(t.command(.openWallet(walletID: t.ids.next(), name: walletName, kind: .bank,
                                                        openingBalance: Scenario.chf(0), openedOn: Scenario.date("2026-01-01"), owner: nil)))
        #expect(try !Self.filesContaining(walletName, inTree: plain.string).isEmpty)
        try await control.close()
    }

    /// Every file under `root` (recursively) holding `text`.
    static func filesContaining(_ text: String, inTree root: String) throws -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var found: [String] = []
        while let relative = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let full = root + "/" + relative
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            if try fileContains(full, text) { found.append(full) }
        }
        return found
    }

    static func filesContaining(_ text: String, in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { name in try fileContains(folder + "/" + name, text) }
    }

    static func fileContains(_ path: String, _ text: String) throws -> Bool {
        try Data(contentsOf: URL(fileURLWithPath: path)).range(of: Data(text.utf8)) != nil
    }
}
