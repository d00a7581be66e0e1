// Rows per second inserted and read through GRDB, with and without the encrypting VFS
// (Docs/Security.md, "Encrypted read side"). Not a test; run:
//   swift run -c release --package-path Benchmarks sqlite-encryption-bench [rows]
import Crypto
import Foundation
import GRDB
import TallySQLiteEncryption

let rowCount = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 100_000
let batchRows = 1_000
let repetitions = 3

struct Measurement {
    var insertRowsPerSecond: Double
    var readRowsPerSecond: Double
    var databaseBytes: Int
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

func measure(encrypted: Bool) throws -> Measurement {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-sqlite-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("read.sqlite").path
    let key = SymmetricKey(size: .bits256)
    func open() throws -> DatabasePool {
        encrypted ? try EncryptedSQLite.openPool(atPath: path, key: key) : try DatabasePool(path: path)
    }

    let pool = try open()
    try pool.write { db in
        try db.execute(sql: "CREATE TABLE entry (id INTEGER PRIMARY KEY, walletID INTEGER, amountMinor INTEGER, day TEXT, note TEXT)")
    }
    let insertSeconds = try seconds {
        for batch in 0..<(rowCount / batchRows) {
            try pool.write { db in
                let statement = try db.makeStatement(sql: "INSERT INTO entry (walletID, amountMinor, day, note) VALUES (?, ?, ?, ?)")
                for row in 0..<batchRows {
                    let index = batch * batchRows + row
                    try statement.execute(arguments: [index % 17, index * 37 % 100_000, "2025-03-\(10 + index % 19)", "groceries and a note \(index)"])
                }
            }
        }
    }
    try pool.close()

    // A fresh pool: SQLite's page cache is cold, so every page is read (and decrypted).
    let reader = try open()
    var total = 0
    let readSeconds = try seconds {
        total = try reader.read { db in
            var sum = 0
            let rows = try Row.fetchCursor(db, sql: "SELECT walletID, amountMinor, day, note FROM entry")
            while let row = try rows.next() { sum += row[1] as Int }
            return sum
        }
    }
    precondition(total > 0)
    try reader.close()
    let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    return Measurement(insertRowsPerSecond: Double(rowCount) / insertSeconds, readRowsPerSecond: Double(rowCount) / readSeconds, databaseBytes: bytes)
}

func best(encrypted: Bool) throws -> Measurement {
    var runs: [Measurement] = []
    for _ in 0..<repetitions { runs.append(try measure(encrypted: encrypted)) }
    return Measurement(
        insertRowsPerSecond: runs.map(\.insertRowsPerSecond).max() ?? 0,
        readRowsPerSecond: runs.map(\.readRowsPerSecond).max() ?? 0,
        databaseBytes: runs.last?.databaseBytes ?? 0)
}

let plain = try best(encrypted: false)
let encrypted = try best(encrypted: true)
print("rows: \(rowCount), batches of \(batchRows), best of \(repetitions), WAL, synchronous NORMAL")
print("| database  | insert rows/s | read rows/s | file bytes |")
print("|-----------|--------------:|------------:|-----------:|")
for (name, measurement) in [("plain", plain), ("encrypted", encrypted)] {
    print("| \(name.padding(toLength: 9, withPad: " ", startingAt: 0)) | \(Int(measurement.insertRowsPerSecond)) | \(Int(measurement.readRowsPerSecond)) | \(measurement.databaseBytes) |")
}
print(String(format: "encrypted / plain: insert %.2f, read %.2f",
             encrypted.insertRowsPerSecond / plain.insertRowsPerSecond, encrypted.readRowsPerSecond / plain.readRowsPerSecond))
