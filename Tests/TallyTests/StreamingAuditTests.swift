import Foundation
import GRDB
import SystemPackage
@testable import Tally
import TallyModel
import TallyJournal
import TallySQLiteEncryption
import TallyStore
import TallyTestSupport
import Testing

/// Issue 28 item 5: `tally audit` folds the journal once, in windows whose history goes to a
/// scratch archive (memory does not grow with the history), and compares the newest checkpoint
/// and the read-side store with that fold where it passes their sequence numbers.
@Suite("Audit: one streamed fold, compared on the way", .serialized)
struct StreamingAuditTests {
    /// A ledger with a checkpoint written half-way through its history (no other): the fold
    /// passes the checkpoint's sequence number long before its end. Every kind of live row.
    static func ledger(_ name: String) async throws -> (TemporaryDirectory, FilePath, checkpoint: UInt64, last: UInt64) {
        let directory = try TemporaryDirectory(name)
        let path = directory.appending("ledger")
        let ledger = try await Ledger.open(at: path, options: ReadSideIncrementalTests.options())
        let (setup, generated) = ReadSideIncrementalTests.history(seed: 23, count: 240)
        // No forgetting: it removes the checkpoints written before it (P3).
        let commands = generated.filter { command in
            if case .forgetPerson = command.action { return false }
            return true
        }
        try await ledger.execute(setup)
        for command in commands.prefix(120) { _ = try? await ledger.execute(command) }
        try await ledger.checkpoint()
        let checkpoint = await ledger.lastSequenceNumber
        for command in commands.dropFirst(120) { _ = try? await ledger.execute(command) }
        let last = await ledger.lastSequenceNumber
        try await ledger.close()
        return (directory, path, checkpoint, last)
    }

    static func audit(_ path: FilePath, window: Int) throws -> AuditReport {
        try LedgerAudit.audit(at: path, chainKey: nil, encryption: nil, fileSystem: PosixFileSystem(), progress: nil, window: window)
    }

    @Test("issue 28 item 5: folded in windows of a few events, the audit compares the checkpoint at its own sequence number (mid-history) and the store at the journal's end, and finds both equal", arguments: [7, 64, 10_000])
    func windowedAuditComparesCheckpointAndStore(window: Int) async throws {
        let (directory, path, checkpoint, last) = try await Self.ledger("tally-streaming-audit-windows")
        defer { directory.remove() }
        #expect(checkpoint > 60 && checkpoint + 60 < last, "the control: the checkpoint (\(checkpoint)) lies well inside the history (\(last))")
        let report = try Self.audit(path, window: window)
        #expect(report.problems.filter { $0.code != "permissionsTooOpen" }.isEmpty, "\(report.problems)")
        #expect(report.checkpoint == .matchesReplay(sequenceNumber: checkpoint))
        #expect(report.readSide == .matchesReplay(sequenceNumber: last, behind: 0))
        #expect(report.eventsDecoded == Int(last))
    }

    @Test("issue 28 item 5, T5: a history row of the store's checkpoint edited and resealed with the public integrity key is found by the page-by-page comparison (checkpointDiffers names the archived map), with the fold's history in windows or not", arguments: [7, 10_000])
    func editedArchiveEntryIsFound(window: Int) async throws {
        let (directory, path, checkpoint, _) = try await Self.ledger("tally-streaming-audit-archive")
        defer { directory.remove() }
        #expect(try Self.audit(path, window: window).checkpoint == .matchesReplay(sequenceNumber: checkpoint), "the control: the untouched checkpoint equals the fold")
        let pool = try EncryptedSQLite.openPool(atPath: LedgerDirectory(path).readSideStore.string, key: LedgerStore.integrityKey)
        let edited = try await pool.write { database in
            try database.execute(sql: """
                UPDATE history SET value = value || x'00'
                WHERE space = 8 AND key = (SELECT MIN(key) FROM history WHERE space = 8)
                """)
            return database.changesCount
        }
        try pool.close()
        #expect(edited > 0, "the control: one transaction's history row was edited")
        let report = try Self.audit(path, window: window)
        let problem = try #require(report.problems.first { $0.code == "checkpointDiffers" }, "\(report.problems)")
        #expect(problem.message.contains("transactions"), "\(problem.message)")
    }

    @Test("issue 28 item 5: a store row edited and resealed is found when the audit's fold commits its scratch store in windows (readSideDiffers names the table)")
    func editedStoreRowIsFoundWithWindows() async throws {
        let (directory, path, checkpoint, _) = try await Self.ledger("tally-streaming-audit-store")
        defer { directory.remove() }
        let pool = try EncryptedSQLite.openPool(atPath: LedgerDirectory(path).readSideStore.string, key: LedgerStore.integrityKey)
        try await pool.write { database in
            try database.execute(sql: "UPDATE transactions SET amount = -999999 WHERE transaction_id = (SELECT MAX(transaction_id) FROM transactions)")
        }
        try pool.close()
        let report = try Self.audit(path, window: 7)
        let problem = try #require(report.problems.first { $0.code == "readSideDiffers" }, "\(report.problems)")
        #expect(problem.message.contains("transactions"), "\(problem.message)")
        #expect(report.checkpoint == .matchesReplay(sequenceNumber: checkpoint), "the checkpoint is still compared")
    }

    @Test("issue 28 item 5, I30.4: the search index edited under unchanged rows (a search finds a transaction by a word its row does not hold) is found: readSideDiffers names the search index")
    func editedSearchIndexIsFound() async throws {
        let (directory, path, checkpoint, _) = try await Self.ledger("tally-streaming-audit-search-index")
        defer { directory.remove() }
        #expect(try Self.audit(path, window: 64).problems.filter { $0.code != "permissionsTooOpen" }.isEmpty, "the control: the untouched store audits clean")
        let pool = try EncryptedSQLite.openPool(atPath: LedgerDirectory(path).readSideStore.string, key: LedgerStore.integrityKey)
        let found = try await pool.write { database -> Int in
            // The index gets a word through FTS5 itself; the row's stored text is then put back.
            guard let row = try Row.fetchOne(database, sql: "SELECT id, c0 FROM transaction_search_content WHERE c0 IS NOT NULL ORDER BY id LIMIT 1") else { return 0 }
            let id: Int64 = row["id"]
            let note: String = row["c0"]
            try database.execute(sql: "UPDATE transaction_search SET note = 'zzqxv' WHERE rowid = ?", arguments: [id])
            try database.execute(sql: "UPDATE transaction_search_content SET c0 = ? WHERE id = ?", arguments: [note, id])
            return try Int.fetchOne(database, sql: "SELECT COUNT(*) FROM transaction_search WHERE transaction_search MATCH 'zzqxv'") ?? 0
        }
        try pool.close()
        #expect(found == 1, "the control: a search finds the transaction by a word its row does not hold")
        let report = try Self.audit(path, window: 64)
        let problem = try #require(report.problems.first { $0.code == "readSideDiffers" }, "\(report.problems)")
        let tables = try #require(problem.message.firstRange(of: "table(s) ").map { problem.message[$0.upperBound...] }?
            .components(separatedBy: " differ from").first?.components(separatedBy: ", "), "\(problem.message)")
        #expect(tables == ["transaction_search: index"], "only the index differs: every table's rows are the rebuild's (\(problem.message))")
        #expect(report.checkpoint == .matchesReplay(sequenceNumber: checkpoint), "the checkpoint is still compared")
    }

    @Test("issue 28 item 5: the fold stops where the audit asks, once each and in order, a stop at sequence 0 (a store that covers nothing yet) before any event, each with the fold as of it")
    func stopsAreReachedInOrder() async throws {
        let (directory, path, checkpoint, last) = try await Self.ledger("tally-streaming-audit-stops")
        defer { directory.remove() }
        let (keys, reader) = try LedgerReplay.openForReading(at: path, encryption: nil, fileSystem: PosixFileSystem(), allowingDamage: false)
        let storePath = directory.appending("scratch.sqlite").string
        let store = try LedgerStore(path: storePath, key: LedgerStore.integrityKey)
        defer { store.close() }
        var reached: [UInt64] = []
        var ended: UInt64?
        try StoreRebuild.fold(
            reader, through: last, personalTexts: keys, into: store, window: 50, stops: [0, checkpoint, last],
            reached: { folded, sequenceNumber in
                reached.append(sequenceNumber)
                #expect(folded.state.nextSequenceNumber - 1 == sequenceNumber)
                #expect(sequenceNumber == 0 || folded.state.residentEntryCount == 0, "the history as of the stop is in the scratch store")
            },
            end: { ended = $0.state.nextSequenceNumber - 1 })
        #expect(reached == [0, checkpoint, last])
        #expect(ended == last)
    }

    @Test("issue 28 attack (I30.1): a trigger planted in the read-side store (resealed with the public integrity key) is readSideDamaged in the audit, and the writer's open rebuilds the store without it: the next transaction is stored as recorded")
    func plantedTriggerIsDamage() async throws {
        let directory = try TemporaryDirectory("tally-streaming-audit-trigger")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        try await ReadSideTests.write(ReadSideTests.history(&s, count: 6), to: path)
        let storeFile = LedgerDirectory(path).readSideStore.string
        let pool = try EncryptedSQLite.openPool(atPath: storeFile, key: LedgerStore.integrityKey)
        try await pool.write { database in
            try database.execute(sql: """
                CREATE TRIGGER doubled AFTER INSERT ON transactions BEGIN
                    UPDATE transactions SET amount = amount * 2 WHERE transaction_id = NEW.transaction_id;
                END
                """)
        }
        try pool.close()
        let report = try LedgerAudit.audit(at: path)
        let problem = try #require(report.problems.first { $0.code == "readSideDamaged" }, "\(report.problems)")
        #expect(problem.message.contains("trigger doubled"), "\(problem.message)")

        let ledger = try await Ledger.open(at: path, options: ReadSideIncrementalTests.options())
        let id: TransactionID = s.ids.next()
        try await ledger.execute(s.command(.recordTransaction(transactionID: id, entry: s.expense(1_01))))
        try await ledger.close()
        let reopened = try EncryptedSQLite.openPool(atPath: storeFile, key: LedgerStore.integrityKey)
        let (triggers, amount) = try await reopened.read { database in
            (try Int.fetchOne(database, sql: "SELECT COUNT(*) FROM sqlite_schema WHERE type = 'trigger'") ?? -1,
             try Int64.fetchOne(database, sql: "SELECT amount FROM transactions WHERE transaction_id = ?", arguments: [Data(id.value.bytes)]))
        }
        try reopened.close()
        #expect(triggers == 0, "the rebuilt store holds no trigger")
        #expect(amount == 1_01, "the transaction is stored as recorded")
        #expect(try LedgerAudit.audit(at: path).problems.filter { $0.code != "permissionsTooOpen" }.isEmpty)
    }

    @Test("issue 28 attack (I30.2, P3): the scratch folder an audit killed on the way left (its process gone, nothing written for an hour) is removed by the next audit; one of a live process, or written within the hour, stays")
    func killedAuditsScratchFolderIsRemoved() async throws {
        let (directory, path, _, _) = try await Self.ledger("tally-streaming-audit-leftover")
        defer { directory.remove() }
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/true")
        try finished.run()
        finished.waitUntilExit()
        let temporary = FilePath(FileManager.default.temporaryDirectory.path)
        let dead = temporary.appending("tally-audit-scratch-\(finished.processIdentifier)-\(UUID().uuidString)")
        let live = temporary.appending("tally-audit-scratch-\(getpid())-\(UUID().uuidString)")
        // Not a name an audit makes: never removed, whatever number follows the prefix.
        let other = temporary.appending("tally-audit-scratch-\(finished.processIdentifier)-mine")
        let hoursAgo = Date(timeIntervalSinceNow: -2 * 3_600)
        for folder in [dead, live, other] {
            try FileManager.default.createDirectory(atPath: folder.string, withIntermediateDirectories: false)
            try FileManager.default.setAttributes([.modificationDate: hoursAgo], ofItemAtPath: folder.string)
        }
        // A dead process's folder written within the hour may be a running audit of another
        // process namespace: it stays.
        let recent = temporary.appending("tally-audit-scratch-\(finished.processIdentifier)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: recent.string, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: recent.string) }
        defer { for folder in [live, other] { try? FileManager.default.removeItem(atPath: folder.string) } }
        #expect(kill(finished.processIdentifier, 0) != 0, "the control: the process that owned the folder is gone")
        _ = try LedgerAudit.audit(at: path)
        #expect(!FileManager.default.fileExists(atPath: dead.string), "the dead audit's folder was removed")
        #expect(FileManager.default.fileExists(atPath: live.string), "a live process's folder stays")
        #expect(FileManager.default.fileExists(atPath: other.string), "a folder of another shape stays")
        #expect(FileManager.default.fileExists(atPath: recent.string), "a folder written within the hour stays")
    }
}
