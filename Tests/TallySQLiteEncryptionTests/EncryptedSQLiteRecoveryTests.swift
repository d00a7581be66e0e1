import Crypto
import Foundation
import GRDB
import Testing
import TallySQLiteEncryption

/// The WAL as a crash leaves it: frames not checkpointed and no WAL index, so SQLite rebuilds
/// the index by reading whole frames.
@Suite("Encrypted SQLite WAL recovery")
struct EncryptedSQLiteRecoveryTests {
    typealias Fixture = EncryptedSQLiteFixture
    let key = SymmetricKey(size: .bits256)

    /// 200 rows checkpointed, then two transactions in the WAL (50 rows, 10 rows); copies the
    /// database and the WAL (not the shm) while the pool is open, as a crash would leave them.
    func crashedCopy() throws -> (source: Fixture, copy: Fixture) {
        let source = try Fixture()
        let pool = try EncryptedSQLite.openPool(atPath: source.databasePath, key: key)
        try pool.write { db in
            try Fixture.createTable(db)
            try Fixture.insert(db, note: Fixture.textMarker, count: 200)
        }
        _ = try pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        try pool.write { db in try Fixture.insert(db, note: Fixture.walTextMarker, count: 50) }
        try pool.write { db in try Fixture.insert(db, note: "LAST", count: 10) }
        let copy = try Fixture()
        for name in ["read.sqlite", "read.sqlite-wal"] {
            try FileManager.default.copyItem(at: source.folder.appendingPathComponent(name), to: copy.folder.appendingPathComponent(name))
        }
        try pool.close()
        return (source, copy)
    }

    @Test("a WAL left by a crash is recovered with the key: every committed row reads back")
    func crashedWALIsRecovered() throws {
        let (source, copy) = try crashedCopy()
        defer { source.remove(); copy.remove() }
        let pool = try EncryptedSQLite.openPool(atPath: copy.databasePath, key: key)
        let notes = try pool.read(Fixture.notes)
        #expect(notes.count == 260)
        #expect(notes.last == "LAST #9")
        try pool.close()
    }

    @Test("a damaged last frame ends the log there, as SQLite does for a failed checksum: the earlier transactions read back")
    func damagedLastFrameEndsTheLog() throws {
        let (source, copy) = try crashedCopy()
        defer { source.remove(); copy.remove() }
        let walBytes = try #require(try copy.files()["read.sqlite-wal"]).count
        try copy.flipByte(in: "read.sqlite-wal", at: walBytes - 1000)
        let pool = try EncryptedSQLite.openPool(atPath: copy.databasePath, key: key)
        let notes = try pool.read(Fixture.notes)
        #expect(notes.count == 250)
        #expect(notes.last == "\(Fixture.walTextMarker) #49")
        try pool.close()
    }

    /// Where SQLite's first WAL frame (of the 50-row transaction) lies: 32 bytes of WAL header,
    /// then a 24-byte frame header (page number, database size, salts, checksum) and the page.
    enum FirstFrameByte: String, CaseIterable {
        case pageNumber, salt, checksum, page
        var offset: Int {
            switch self {
            case .pageNumber: 32 + 3
            case .salt: 32 + 8
            case .checksum: 32 + 19
            case .page: 32 + 24 + 1_000
            }
        }
    }

    /// The error opening and reading `fixture`'s database throws, as a typed error.
    func recoveryError(_ fixture: Fixture) -> EncryptedSQLiteError? {
        do {
            let pool = try EncryptedSQLite.openPool(atPath: fixture.databasePath, key: key)
            defer { try? pool.close() }
            _ = try pool.read(Fixture.notes)
            return nil
        } catch {
            return EncryptedSQLite.typedError(for: error, databasePath: fixture.databasePath)
        }
    }

    @Test("a damaged frame with a committed transaction after it is refused (walFrameDamaged, naming the WAL and the frame), not taken for the end of the log: the WAL is kept, and mended it reads back whole", arguments: FirstFrameByte.allCases)
    func damagedFrameBeforeCommittedTransactionsIsRefused(_ byte: FirstFrameByte) throws {
        let (source, copy) = try crashedCopy()
        defer { source.remove(); copy.remove() }
        let wal = try #require(try copy.files()["read.sqlite-wal"])
        try copy.flipByte(in: "read.sqlite-wal", at: byte.offset)
        for attempt in 1...2 {
            let error = recoveryError(copy)
            #expect(error?.code == .walFrameDamaged, "attempt \(attempt): \(String(describing: error))")
            #expect(error?.path.hasSuffix("read.sqlite-wal") == true)
            #expect(error?.offset == 32, "frame 0 starts after the WAL header")
            #expect(error?.message.contains("WAL frame 0") == true)
        }
        var damaged = wal
        damaged[byte.offset] ^= 0x01
        #expect(try copy.files()["read.sqlite-wal"] == damaged, "the refused WAL is kept as it was: nothing is checkpointed or deleted")
        try copy.flipByte(in: "read.sqlite-wal", at: byte.offset)
        let pool = try EncryptedSQLite.openPool(atPath: copy.databasePath, key: key)
        #expect(try pool.read(Fixture.notes).count == 260)
        try pool.close()
    }

    @Test("damage in the last transaction's first frame still ends the log there: the transactions before it read back")
    func damagedFrameOfTheLastTransactionEndsTheLog() throws {
        let (source, copy) = try crashedCopy()
        defer { source.remove(); copy.remove() }
        let wal = try #require(try copy.files()["read.sqlite-wal"])
        let frameBytes = 24 + 4_096
        let frames = (wal.count - 32) / frameBytes
        // The last transaction's frames: from the one after the last commit frame before the end.
        let commits = (0..<frames).filter { frame in
            let header = 32 + frame * frameBytes
            return wal[(header + 4)..<(header + 8)].contains { $0 != 0 }
        }
        try #require(commits.count >= 2 && commits.last == frames - 1)
        let firstOfLast = commits[commits.count - 2] + 1
        try copy.flipByte(in: "read.sqlite-wal", at: 32 + firstOfLast * frameBytes + 24 + 1_000)
        let pool = try EncryptedSQLite.openPool(atPath: copy.databasePath, key: key)
        let notes = try pool.read(Fixture.notes)
        #expect(notes.count == 250)
        #expect(notes.last == "\(Fixture.walTextMarker) #49")
        try pool.close()
    }

    @Test("a crashed WAL opened with a wrong key is a typed error, not an empty database")
    func crashedWALWithWrongKeyFails() throws {
        let (source, copy) = try crashedCopy()
        defer { source.remove(); copy.remove() }
        let error = #expect(throws: EncryptedSQLiteError.self) {
            _ = try EncryptedSQLite.openPool(atPath: copy.databasePath, key: SymmetricKey(size: .bits256))
        }
        #expect(error?.code == .pageAuthenticationFailed)
    }
}
