import Crypto
import Foundation
import GRDB
import TallySQLiteEncryption

/// A folder with one database and the rows the tests write, with markers to look for.
struct EncryptedSQLiteFixture {
    static let textMarker = "PLAINTEXT-MARKER-123"
    static let walTextMarker = "WAL-ONLY-MARKER-456"
    static let deletedTextMarker = "DELETED-MARKER-789"
    static let amountText = "987654321"
    /// Six bytes as SQLite stores it: too long to appear in ciphertext by chance.
    static let amount: Int64 = 123_456_789_012_345
    static let dateText = "2031-07-14"
    static let tableName = "ledger_entries_marker"

    let folder: URL
    var databasePath: String { folder.appendingPathComponent("read.sqlite").path }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }

    static func createTable(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE \(tableName) (id INTEGER PRIMARY KEY, note TEXT, amountText TEXT, amount INTEGER, day TEXT)")
    }

    static func insert(_ db: Database, note: String, count: Int) throws {
        for index in 0..<count {
            try db.execute(
                sql: "INSERT INTO \(tableName) (note, amountText, amount, day) VALUES (?, ?, ?, ?)",
                arguments: ["\(note) #\(index)", amountText, amount, dateText])
        }
    }

    static func notes(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT note FROM \(tableName) ORDER BY id")
    }

    /// Every file in the folder, by name.
    func files() throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files[name] = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
        }
        return files
    }

    /// The names of the files in the folder that contain `marker`.
    func filesContaining(_ marker: [UInt8]) throws -> [String] {
        try files().filter { Self.contains($0.value, marker) }.map(\.key).sorted()
    }

    static func contains(_ bytes: [UInt8], _ marker: [UInt8]) -> Bool {
        guard let first = marker.first, bytes.count >= marker.count else { return false }
        for start in 0...(bytes.count - marker.count) where bytes[start] == first {
            if bytes[start..<(start + marker.count)].elementsEqual(marker) { return true }
        }
        return false
    }

    /// The markers of the rows, as they would appear in clear: texts in UTF-8 and the
    /// integer amount as SQLite's 6-byte big-endian record value.
    static func markers(note: String) -> [String: [UInt8]] {
        let amountBytes = withUnsafeBytes(of: amount.bigEndian) { Array($0.suffix(6)) }
        return [
            "note": Array(note.utf8),
            "amount as text": Array(amountText.utf8),
            "amount as integer": amountBytes,
            "date": Array(dateText.utf8),
            "table name": Array(tableName.utf8),
        ]
    }

    func flipByte(in name: String, at offset: Int) throws {
        let url = folder.appendingPathComponent(name)
        var bytes = try [UInt8](Data(contentsOf: url))
        bytes[offset] ^= 0x01
        try Data(bytes).write(to: url)
    }
}
