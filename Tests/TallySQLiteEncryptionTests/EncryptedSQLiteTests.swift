import Crypto
import Foundation
import GRDB
import Testing
import TallySQLiteEncryption

@Suite("Encrypted SQLite read side")
struct EncryptedSQLiteTests {
    typealias Fixture = EncryptedSQLiteFixture
    let key = SymmetricKey(size: .bits256)

    /// Writes rows with `Fixture.textMarker`, checkpoints them into the database file, then
    /// writes rows with `Fixture.walTextMarker` that stay in the WAL; returns the open pool.
    func writeCheckpointedAndWALRows(_ pool: DatabasePool) throws {
        try pool.write { db in
            try Fixture.createTable(db)
            try Fixture.insert(db, note: Fixture.textMarker, count: 200)
        }
        _ = try pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        try pool.write { db in try Fixture.insert(db, note: Fixture.walTextMarker, count: 50) }
    }

    @Test("no amount, date or text is readable in any file of the folder, WAL included, and the key reads the rows back")
    func noMarkerInAnyFile() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let pool = try EncryptedSQLite.openPool(atPath: fixture.databasePath, key: key)
        try writeCheckpointedAndWALRows(pool)

        let files = try fixture.files()
        #expect(files.keys.sorted() == ["read.sqlite", "read.sqlite-shm", "read.sqlite-wal"])
        #expect((files["read.sqlite-wal"]?.count ?? 0) > 32 + 24 + 4096, "rows must be in the WAL")
        #expect(files["read.sqlite"]?[20] == UInt8(EncryptedSQLite.reservedBytesPerPage))
        for note in [Fixture.textMarker, Fixture.walTextMarker] {
            for (what, marker) in Fixture.markers(note: note) {
                #expect(try fixture.filesContaining(marker) == [], "\(what) of \(note) in clear")
            }
        }
        try pool.close()

        let reopened = try EncryptedSQLite.openPool(atPath: fixture.databasePath, key: key)
        let notes = try reopened.read(Fixture.notes)
        #expect(notes.count == 250)
        #expect(notes.first == "\(Fixture.textMarker) #0")
        #expect(notes.last == "\(Fixture.walTextMarker) #49")
        let row = try reopened.read { try Row.fetchOne($0, sql: "SELECT amountText, amount, day FROM \(Fixture.tableName)") }
        let amountText: String? = row?["amountText"]
        let amount: Int64? = row?["amount"]
        let day: String? = row?["day"]
        #expect(amountText == Fixture.amountText)
        #expect(amount == Fixture.amount)
        #expect(day == Fixture.dateText)
        try reopened.close()
    }

    @Test("the same rows without encryption are readable in the database and the WAL (the scan can fail)")
    func controlDatabaseShowsTheMarkers() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let pool = try DatabasePool(path: fixture.databasePath)
        try writeCheckpointedAndWALRows(pool)
        #expect(try fixture.filesContaining(Array(Fixture.textMarker.utf8)).contains("read.sqlite"))
        #expect(try fixture.filesContaining(Array(Fixture.walTextMarker.utf8)) == ["read.sqlite-wal"])
        for (what, marker) in Fixture.markers(note: Fixture.textMarker) {
            #expect(try fixture.filesContaining(marker).contains("read.sqlite"), "\(what) not found in clear")
        }
        try pool.close()
    }

    @Test("deleted rows leave no marker in clear after the WAL checkpoint")
    func deletedRowsLeaveNoMarker() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let pool = try EncryptedSQLite.openPool(atPath: fixture.databasePath, key: key)
        try pool.write { db in
            try Fixture.createTable(db)
            try Fixture.insert(db, note: Fixture.deletedTextMarker, count: 100)
        }
        _ = try pool.writeWithoutTransaction { try $0.checkpoint(.full) }
        try pool.write { db in try db.execute(sql: "DELETE FROM \(Fixture.tableName)") }
        _ = try pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        #expect(try fixture.filesContaining(Array(Fixture.deletedTextMarker.utf8)) == [])
        #expect(try pool.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM \(Fixture.tableName)") } == 0)
        try pool.close()
        #expect(try fixture.filesContaining(Array(Fixture.deletedTextMarker.utf8)) == [])
    }

    @Test("a wrong key fails to open with a typed error naming the database file")
    func wrongKeyIsATypedError() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let pool = try EncryptedSQLite.openPool(atPath: fixture.databasePath, key: key)
        try writeCheckpointedAndWALRows(pool)
        try pool.close()

        let error = #expect(throws: EncryptedSQLiteError.self) {
            _ = try EncryptedSQLite.openPool(atPath: fixture.databasePath, key: SymmetricKey(size: .bits256))
        }
        #expect(error?.code == .pageAuthenticationFailed)
        #expect(error?.pageNumber == 1)
        #expect(error?.path.hasSuffix("/read.sqlite") == true)
        // The right key still opens it.
        let reopened = try EncryptedSQLite.openPool(atPath: fixture.databasePath, key: key)
        #expect(try reopened.read(Fixture.notes).count == 250)
        try reopened.close()
    }

    @Test("one flipped byte in a page makes reads fail with a typed error, never return rows")
    func flippedPageByteFailsReads() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let pool = try EncryptedSQLite.openPool(atPath: fixture.databasePath, key: key)
        try writeCheckpointedAndWALRows(pool)
        try pool.close()
        try fixture.flipByte(in: "read.sqlite", at: 4096 + 1000)

        let reopened = try EncryptedSQLite.openPool(atPath: fixture.databasePath, key: key)
        var notes: [String]?
        let error = #expect(throws: DatabaseError.self) { notes = try reopened.read(Fixture.notes) }
        #expect(notes == nil)
        let typed = try #require(error.flatMap { EncryptedSQLite.typedError(for: $0, databasePath: fixture.databasePath) })
        #expect(typed.code == .pageAuthenticationFailed)
        #expect(typed.pageNumber == 2)
        #expect(typed.offset == 4096)
        #expect(typed.path.hasSuffix("/read.sqlite"))
        try reopened.close()
    }

    @Test("one flipped byte in the clear database header fails page 1 at open")
    func flippedHeaderByteFailsOpen() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let pool = try EncryptedSQLite.openPool(atPath: fixture.databasePath, key: key)
        try writeCheckpointedAndWALRows(pool)
        try pool.close()
        try fixture.flipByte(in: "read.sqlite", at: 80)  // "reserved for expansion": SQLite ignores it

        let error = #expect(throws: EncryptedSQLiteError.self) {
            _ = try EncryptedSQLite.openPool(atPath: fixture.databasePath, key: key)
        }
        #expect(error?.code == .pageAuthenticationFailed)
        #expect(error?.pageNumber == 1)
    }

    @Test("a flipped byte in every WAL frame fails reads through the WAL index")
    func flippedWALFrameFailsReads() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let pool = try EncryptedSQLite.openPool(atPath: fixture.databasePath, key: key)
        try writeCheckpointedAndWALRows(pool)
        let walBytes = try #require(try fixture.files()["read.sqlite-wal"]).count
        let frameBytes = 4096 + 24
        for frame in 0..<((walBytes - 32) / frameBytes) {
            try fixture.flipByte(in: "read.sqlite-wal", at: 32 + frame * frameBytes + 24 + 700)
        }
        // A second pool finds the frames through the shared WAL index the first one keeps.
        do {
            let second = try EncryptedSQLite.openPool(atPath: fixture.databasePath, key: key)
            let notes = try second.read(Fixture.notes)
            Issue.record("read \(notes.count) rows from a damaged WAL")
        } catch {
            let typed = EncryptedSQLite.typedError(for: error, databasePath: fixture.databasePath)
            #expect(typed?.code == .pageAuthenticationFailed)
            #expect(typed?.path.hasSuffix("/read.sqlite-wal") == true)
        }
        try pool.close()
    }

    @Test("the database cannot be opened with a second key while a pool holds it")
    func secondKeyWhileOpenIsAConflict() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let pool = try EncryptedSQLite.openPool(atPath: fixture.databasePath, key: key)
        let error = #expect(throws: EncryptedSQLiteError.self) {
            _ = try EncryptedSQLite.openPool(atPath: fixture.databasePath, key: SymmetricKey(size: .bits256))
        }
        #expect(error?.code == .keyConflict)
        try pool.close()
    }

    @Test("leaving WAL mode is refused: no rollback journal holds pages in clear")
    func rollbackJournalIsRefused() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let pool = try EncryptedSQLite.openPool(atPath: fixture.databasePath, key: key)
        try writeCheckpointedAndWALRows(pool)
        let mode = try? pool.writeWithoutTransaction { try String.fetchOne($0, sql: "PRAGMA journal_mode = DELETE") }
        #expect(mode != "delete")
        #expect(try fixture.files().keys.contains { $0.hasSuffix("-journal") } == false)
        #expect(try pool.read(Fixture.notes).count == 250)
        try pool.close()
    }

    @Test("a key of the wrong size is refused")
    func invalidKeyIsRefused() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let error = #expect(throws: EncryptedSQLiteError.self) {
            _ = try EncryptedSQLite.openPool(atPath: fixture.databasePath, key: SymmetricKey(data: [UInt8](repeating: 1, count: 20)))
        }
        #expect(error?.code == .invalidKey)
    }
}
