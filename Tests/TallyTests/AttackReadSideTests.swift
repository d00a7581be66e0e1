import Crypto
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

/// Attacks on the read-side store (issue 14). Each test states the behaviour observed when it
/// was written; a failing test is a finding. Shell reproductions: Scripts/attack/readside-*.sh.
@Suite("Attack: read-side store", .serialized)
struct AttackReadSideTests {
    static func options() -> LedgerOptions { .checkpointsOnRequest() }

    static func storeFile(_ ledger: FilePath) -> String { ledger.appending(LedgerDirectory.readSideName).appending(LedgerDirectory.readSideStoreName).string }

    /// Runs `batches` on the ledger at `path` and closes it; the ledger (and its store's pool)
    /// is released when this returns, so SQLite checkpoints the store's WAL into its file.
    static func run(_ path: FilePath, _ options: LedgerOptions, _ batches: [[Command]]) async throws -> [WalletBalance] {
        let ledger = try await Ledger.open(at: path, options: options)
        for batch in batches { try await ledger.execute(batch) }
        let balances = try await ledger.readModels.wallets.balances()
        try await ledger.close()
        return balances
    }

    // MARK: Held (P3): a forgetting whose key file could not be written, finished at open

    /// Held (passes): with the key file unwritable during `forgetPerson` the command is
    /// acknowledged and the forgetting stays unfinished, but the store is already written with the
    /// name redacted (the state redacts a forgotten person's name before the key is destroyed), so
    /// the store that open keeps as "current" agrees with the state.
    @Test("attack P3: a forgetting finished by open still leaves the name in a store opened as current")
    func forgettingFinishedAtOpenLeavesNameInStore() async throws {
        let directory = try TemporaryDirectory("tally-attack-forget-open")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        let marker = "Zyxwvut Qorpleth"
        let contact: PersonID
        do {
            let ledger = try await Ledger.open(at: path, options: Self.options())
            try await ledger.execute(s.setup())
            contact = s.ids.next()
            try await ledger.execute(s.command(.addPerson(personID: contact, name: marker)))
            try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(500))))
            // The key file cannot be replaced while the forgetting commits (stands in for an I/O
            // error): a directory squats on its temporary name.
            let squat = path.appending(LedgerDirectory.personalKeysName + LedgerDirectory.temporarySuffix).string
            try FileManager.default.createDirectory(atPath: squat, withIntermediateDirectories: true)
            FileManager.default.createFile(atPath: squat + "/x", contents: Data())
            try await ledger.execute(s.command(.forgetPerson(personID: contact)))  // acknowledged
            #expect(await !ledger.unfinishedForgetting.isEmpty, "the control: the forgetting could not finish")
            try await ledger.close()
            try FileManager.default.removeItem(atPath: squat)
        }
        let reopened = try await Ledger.open(at: path, options: Self.options())
        #expect(reopened.openReport.forgettingCompleted == [contact], "the control: open completed the forgetting")
        let stateName = await reopened.state.people[contact]?.name.description
        #expect(stateName != marker, "the control: the state reads the name redacted")
        let store = try #require(await reopened.flushedStore(), "\(reopened.openReport.readSide)")
        let storeNames = try store.personNames()
        #expect(storeNames[contact] != marker, "the store still serves the forgotten name (read side: \(reopened.openReport.readSide))")
        #expect(storeNames[contact] == stateName, "store and state disagree on the person's name")
        try await reopened.close()
    }

    // MARK: Finding 2: an older image of one page is accepted (encrypted ledger, no key needed)

    /// Observed before the fix (the live-table digest in the coverage row): for some page of the database file, putting back its older sealed image (taken
    /// from a copy of the same store before more batches) gives a store that `Ledger.open` reports
    /// "current" and whose `walletBalances(visibleTo: .audit)` differ from the read models: AES-GCM binds a page to
    /// its number only, not to a version or to the coverage row. The same mixed file is what a
    /// power loss during a checkpoint can leave (`synchronous = OFF`).
    @Test("attack: an older sealed image of one store page is never served as current balances (encrypted ledger)")
    func olderPageImageIsServed() async throws {
        let directory = try TemporaryDirectory("tally-attack-page-rollback")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var options = Self.options()
        options.encryption = try JournalEncryption(keyID: 1, key: [UInt8](repeating: 7, count: 32))
        var s = Scenario()
        _ = try await Self.run(path, options, [s.setup()] + (0..<4).map { i in [s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(100 + Int64(i))))] })
        let file = Self.storeFile(path)
        let old = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        let expected = try await Self.run(path, options, (0..<4).map { i in [s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(9_000 + Int64(i))))] })
        let new = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        let walBytes = (try? FileManager.default.attributesOfItem(atPath: file + "-wal")[.size] as? Int) ?? 0
        let pageBytes = Int(UInt16(new[16]) << 8 | UInt16(new[17]))
        var served: [Int] = []
        for page in 1..<(min(old.count, new.count) / pageBytes) where old[(page * pageBytes)..<((page + 1) * pageBytes)] != new[(page * pageBytes)..<((page + 1) * pageBytes)] {
            var mixed = new
            mixed.replaceSubrange((page * pageBytes)..<((page + 1) * pageBytes), with: old[(page * pageBytes)..<((page + 1) * pageBytes)])
            try Data(mixed).write(to: URL(fileURLWithPath: file))
            guard let store = try? Ledger.currentStore(at: path, encryption: options.encryption),
                  let balances = try? store.walletBalances(visibleTo: .audit) else { continue }
            if balances != expected { served.append(page + 1) }
        }
        try Data(new).write(to: URL(fileURLWithPath: file))
        // Observed before the fix: served was not empty (e.g. the wallet_balances page): old balances, coverage current.
        #expect(served.isEmpty, "pages whose older image is served as current balances: \(served) (WAL bytes after close: \(walBytes))")
    }

    // MARK: Finding 3: key rotation

    /// Rotating the ledger key makes the store unreadable with the new page key; open must
    /// rebuild it (not leave it "unavailable") and it must match the read models.
    @Test("attack: key rotation then reopen rebuilds a store that matches the read models")
    func keyRotationRebuilds() async throws {
        let directory = try TemporaryDirectory("tally-attack-rotation")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var options = Self.options()
        let first = try JournalEncryption(keyID: 1, key: [UInt8](repeating: 1, count: 32))
        options.encryption = first
        var s = Scenario()
        _ = try await Self.run(path, options, [s.setup(), [s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(300)))]])
        options.encryption = try first.rotated(toKeyID: 2, key: [UInt8](repeating: 2, count: 32))
        let expected = try await Self.run(path, options, [[s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(400)))]])
        let ledger = try await Ledger.open(at: path, options: options)
        #expect(ledger.openReport.readSide == "current", "\(ledger.openReport.readSide)")
        let store = try #require(await ledger.flushedStore(), "\(ledger.openReport.readSide)")
        #expect(try store.walletBalances(visibleTo: .audit) == expected)
        try await ledger.close()
    }

    // MARK: Concurrency: 64 concurrent executes, store vs read models

    @Test("attack: 64 concurrent executes with edits, deletes, undo and transfers; the store equals the read models")
    func concurrentExecutes() async throws {
        let directory = try TemporaryDirectory("tally-attack-concurrent")
        defer { directory.remove() }
        var s = Scenario()
        let ledger = try await Ledger.open(at: directory.appending("ledger"), options: Self.options())
        try await ledger.execute(s.setup())
        var commands: [Command] = []
        var ids: [TransactionID] = []
        for index in 0..<64 {
            let id: TransactionID = s.ids.next()
            ids.append(id)
            commands.append(s.command(.recordTransaction(transactionID: id, entry: s.expense(Int64(10 + index)))))
        }
        await withTaskGroup(of: Void.self) { group in
            for command in commands { group.addTask { _ = try? await ledger.execute(command) } }
        }
        var later: [Command] = []
        for index in stride(from: 0, to: 64, by: 3) { later.append(s.command(.deleteTransaction(transactionID: ids[index]))) }
        for index in stride(from: 1, to: 64, by: 5) {
            var edited = s.expense(77_000 + Int64(index))
            edited.date = Scenario.date("2026-01-09")
            later.append(s.command(.editTransaction(transactionID: ids[index], entry: edited)))
        }
        await withTaskGroup(of: Void.self) { group in
            for command in later { group.addTask { _ = try? await ledger.execute(command) } }
        }
        if let last = later.last { _ = try? await ledger.execute(s.command(.undo(targetCommandID: last.commandID))) }
        let store = try #require(await ledger.flushedStore())
        let wallets = await ledger.readModels.wallets
        #expect(try store.walletBalances(visibleTo: .audit) == wallets.balances())
        #expect(try store.totals() == wallets.totals())
        #expect(try store.rowCounts()["transactions"] == wallets.transactionIDs.count)
        try await ledger.close()
        let reopened = try await Ledger.open(at: directory.appending("ledger"), options: Self.options())
        #expect(reopened.openReport.readSide == "current")
        #expect(try await reopened.flushedStore()?.walletBalances(visibleTo: .audit) == wallets.balances())
        try await reopened.close()
    }

    // MARK: Finding: a reader during the forgetting keeps the name in the WAL

    /// Observed before the fix: FAILED. While another connection holds a read transaction on the store (a
    /// `Ledger.currentStore` reader, a widget, `tally balances` in another process), the
    /// forgetting commit's `PRAGMA wal_checkpoint(TRUNCATE)` cannot complete; SQLite reports that
    /// in the pragma's result row (busy = 1), not as an error, so `LedgerStore.commit` goes on as
    /// if it had truncated. The WAL keeps the frames written before the forgetting, whose
    /// `people` page holds the name; an unencrypted ledger's pages open with the public
    /// integrity key, so the name is readable while the ledger stays open (nothing truncates
    /// again; the WAL is deleted only when the last connection closes).
    /// Fixed: the busy flag is read; after retries the store is marked stale (not offered) and
    /// the next commit rewrites it and truncates the WAL once the reader is gone.
    @Test("attack P3: a store reader during forgetPerson delays the WAL truncation; the store is not offered meanwhile, and the next commit truncates it (public integrity key)")
    func readerDuringForgettingKeepsNameInWAL() async throws {
        let directory = try TemporaryDirectory("tally-attack-forget-reader")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        let marker = "Zyxwvut Qorpleth"
        let ledger = try await Ledger.open(at: path, options: Self.options())
        try await ledger.execute(s.setup())
        let contact: PersonID = s.ids.next()
        try await ledger.execute(s.command(.addPerson(personID: contact, name: marker)))
        for _ in 0..<3 { try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(500)))) }
        _ = await ledger.flushedStore()  // the store writer commits off the actor: wait for it
        let file = Self.storeFile(path)
        #expect(try Self.walFramesContaining(marker, walPath: file + "-wal") > 0, "the control: the name is in the WAL before")
        // A reader holding a snapshot, as a concurrent `currentStore` reader does while it reads.
        let reader = try EncryptedSQLite.openPool(atPath: file, key: LedgerStore.integrityKey)
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let thread = Thread {
            try? reader.read { database in
                _ = try Int.fetchOne(database, sql: "SELECT COUNT(*) FROM people")
                started.signal()
                release.wait()
            }
            started.signal()
        }
        thread.start()
        started.wait()
        try await ledger.execute(s.command(.forgetPerson(personID: contact)))
        release.signal()
        #expect(try await ledger.flushedStore()?.personNames()[contact] != marker, "the control: the store redacts the name")
        // The reader kept the old frames alive: the store is stale, not offered.
        #expect(await ledger.flushedStore() == nil, "a store whose WAL could not be truncated after a forgetting is not offered")
        try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(600))))
        #expect(await ledger.flushedStore() != nil, "the next commit rewrote the store (asking for it runs a write still scheduled)")
        let later = try Self.walFramesContaining(marker, walPath: file + "-wal")
        #expect(later == 0, "\(later) WAL frame(s) still hold the name after one more batch")
        try await ledger.close()
    }

    /// WAL frames (any generation) whose page, opened with the public integrity key, holds `text`.
    static func walFramesContaining(_ text: String, walPath: String) throws -> Int {
        guard let data = FileManager.default.contents(atPath: walPath), data.count > 32 else { return 0 }
        let bytes = [UInt8](data)
        let pageBytes = Int(UInt32(bytes[8]) << 24 | UInt32(bytes[9]) << 16 | UInt32(bytes[10]) << 8 | UInt32(bytes[11]))
        let needle = Array(text.utf8)
        var offset = 32, index: UInt32 = 0, hits = 0
        while offset + 24 + pageBytes <= bytes.count {
            let pageNumber = UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
            let page = Array(bytes[(offset + 24)..<(offset + 24 + pageBytes)])
            let clear = pageNumber == 1 ? 100 : 0
            let bodyEnd = pageBytes - 28
            var ad = Array("TSQ1".utf8) + [2]
            withUnsafeBytes(of: pageNumber.bigEndian) { ad += $0 }
            withUnsafeBytes(of: index.bigEndian) { ad += $0 }
            ad += page[0..<clear]
            if let box = try? AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: page[bodyEnd..<(bodyEnd + 12)]), ciphertext: page[clear..<bodyEnd], tag: page[(bodyEnd + 12)...]),
               let plain = try? AES.GCM.open(box, using: LedgerStore.integrityKey, authenticating: ad),
               Data(plain).range(of: Data(needle)) != nil {
                hits += 1
            }
            offset += 24 + pageBytes
            index += 1
        }
        return hits
    }
}
