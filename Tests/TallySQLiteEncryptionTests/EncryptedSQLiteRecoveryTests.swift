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
