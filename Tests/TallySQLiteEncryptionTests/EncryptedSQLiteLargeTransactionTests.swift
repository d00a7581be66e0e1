import Crypto
import Foundation
import GRDB
import Testing
import TallySQLiteEncryption

/// Issue 28 item 7: a transaction larger than SQLite's page cache, with the cache spilling.
///
/// SQLite writes such a transaction's pages to the WAL before it commits; a page written again
/// in the same transaction overwrites its frame in place, every frame appended after that is
/// written with zero salts and checksums, and the commit re-reads those frames whole to
/// compute their checksums (`walRewriteChecksums`). The next reader that rebuilds the WAL
/// index checks those checksums over the pages it reads back.
@Suite("Encrypted SQLite: transactions larger than the page cache")
struct EncryptedSQLiteLargeTransactionTests {
    typealias Fixture = EncryptedSQLiteFixture
    let key = SymmetricKey(size: .bits256)

    /// How a test opens its databases: through the encrypting VFS, or plain SQLite to show
    /// that the steps themselves keep every row.
    enum Opening: String, CaseIterable, CustomTestStringConvertible {
        case encrypted, plain
        var testDescription: String { rawValue }
    }

    /// A page cache of this many pages: a transaction of `rowsPerTransaction` rows needs
    /// hundreds.
    static let cachePages = 10
    static let rowsPerTransaction = 3_000
    static let payloadBytes = 200

    func openPool(_ fixture: Fixture, _ opening: Opening) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA cache_size = \(Self.cachePages); PRAGMA cache_spill = ON")
        }
        switch opening {
        case .encrypted: return try EncryptedSQLite.openPool(atPath: fixture.databasePath, key: key, configuration: configuration)
        case .plain: return try DatabasePool(path: fixture.databasePath, configuration: configuration)
        }
    }

    /// Creates the table and commits a first large transaction (batch 0); with `restartsWAL`,
    /// checkpoints it completely, so that the next write restarts the WAL (a new generation,
    /// new salts, from frame 1).
    func writeFirstBatch(_ pool: DatabasePool, restartsWAL: Bool) throws {
        try pool.write { db in
            try db.execute(sql: "CREATE TABLE large (id INTEGER PRIMARY KEY, batch INTEGER NOT NULL, scatter TEXT NOT NULL, payload TEXT NOT NULL)")
            try db.execute(sql: "CREATE INDEX large_scatter ON large (scatter)")
        }
        try pool.write { db in try Self.writeLargeTransaction(db, batch: 0) }
        guard restartsWAL else { return }
        let checkpoint = try pool.writeWithoutTransaction { try $0.checkpoint(.passive) }
        #expect(checkpoint.walFrameCount > 0 && checkpoint.checkpointedFrameCount == checkpoint.walFrameCount, "the WAL is backfilled")
    }

    /// Inserts `rowsPerTransaction` rows in an order that scatters the index, then updates
    /// every one of them: pages spilled before the update are written again in place.
    static func writeLargeTransaction(_ db: Database, batch: Int) throws {
        let filler = String(repeating: "p", count: payloadBytes)
        for index in 0..<rowsPerTransaction {
            let scatter = String((index &* 7_919) % rowsPerTransaction, radix: 16) + "-\(batch)"
            try db.execute(
                sql: "INSERT INTO large (batch, scatter, payload) VALUES (?, ?, ?)",
                arguments: [batch, scatter, "\(filler) \(batch) \(index)"])
        }
        try db.execute(sql: "UPDATE large SET payload = upper(payload), scatter = scatter || 'u' WHERE batch = ?", arguments: [batch])
    }

    /// Every batch in `0..<batches` is there, updated, and the database passes its integrity check.
    func expectAllRows(_ pool: DatabasePool, batches: Int, _ comment: Comment) throws {
        let counts = try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT batch, COUNT(*) AS rows, SUM(payload = upper(payload)) AS updated FROM large GROUP BY batch ORDER BY batch")
                .map { row -> [Int] in [row["batch"], row["rows"], row["updated"]] }
        }
        let expected = (0..<batches).map { [$0, Self.rowsPerTransaction, Self.rowsPerTransaction] }
        #expect(counts == expected, comment)
        let integrity = try pool.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        #expect(integrity == ["ok"], comment)
    }

    /// Writes batch 0 and `transactions` more large transactions, then checks them twice:
    /// in a copy of the files taken while the pool is open (as a crash leaves them: the next
    /// open rebuilds the WAL index from the frames), and after closing and reopening.
    func writeAndReopen(_ opening: Opening, transactions: Int, restartsWAL: Bool = true) throws {
        let fixture = try Fixture()
        let crashed = try Fixture()
        defer { fixture.remove(); crashed.remove() }
        let pool = try openPool(fixture, opening)
        try writeFirstBatch(pool, restartsWAL: restartsWAL)
        for batch in 1...transactions {
            try pool.write { db in try Self.writeLargeTransaction(db, batch: batch) }
        }
        try expectAllRows(pool, batches: transactions + 1, "in the pool that wrote them")
        for name in ["read.sqlite", "read.sqlite-wal"] {
            try FileManager.default.copyItem(at: fixture.folder.appendingPathComponent(name), to: crashed.folder.appendingPathComponent(name))
        }
        try pool.close()

        let recovered = try openPool(crashed, opening)
        try expectAllRows(recovered, batches: transactions + 1, "after the WAL index is rebuilt from the frames")
        try recovered.close()
        let reopened = try openPool(fixture, opening)
        try expectAllRows(reopened, batches: transactions + 1, "after close and reopen")
        try reopened.close()
    }

    @Test("a transaction larger than the page cache right after a WAL restart is all there after the WAL is recovered", arguments: Opening.allCases)
    func largeTransactionAfterRestartSurvivesRecovery(_ opening: Opening) throws {
        try writeAndReopen(opening, transactions: 1)
    }

    @Test("several transactions larger than the page cache after a WAL restart are all there after the WAL is recovered", arguments: Opening.allCases)
    func largeTransactionsAfterRestartSurviveRecovery(_ opening: Opening) throws {
        try writeAndReopen(opening, transactions: 4)
    }

    @Test("transactions larger than the page cache appended to a WAL that was not restarted are all there after the WAL is recovered", arguments: Opening.allCases)
    func largeTransactionsWithoutRestartSurviveRecovery(_ opening: Opening) throws {
        try writeAndReopen(opening, transactions: 2, restartsWAL: false)
    }
}
