// A writer process for the encrypted SQLite kill -9 test: commits transactions of random sizes
// to the sealed database at the path given, with the key given in hex (a page cache of 10
// pages, so large transactions spill pages and write frames again in place; a WAL restart
// every 7 commits), and prints `ACK <last id>` after every commit. Each row holds its
// payload's SHA-256, so the test checks every byte without knowing how it was made.
import Crypto
import Foundation
import GRDB
import TallySQLiteEncryption

#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 4, let seed = UInt64(arguments[3]), arguments[2].count == 64 else {
    print("usage: SQLiteCrashWriter <database> <key: 64 hex digits> <seed>")
    exit(2)
}
let keyHex = Array(arguments[2].utf8)
let keyBytes = stride(from: 0, to: keyHex.count, by: 2).compactMap { UInt8(String(decoding: keyHex[$0..<($0 + 2)], as: UTF8.self), radix: 16) }
guard keyBytes.count == 32 else {
    print("usage: SQLiteCrashWriter <database> <key: 64 hex digits> <seed>")
    exit(2)
}

func payload(_ id: Int64, _ state: UInt64) -> [UInt8] {
    (0..<(200 + Int(state % 901))).map { UInt8(truncatingIfNeeded: UInt64(id) &* 131 &+ state &+ UInt64($0)) }
}

do {
    var configuration = Configuration()
    configuration.prepareDatabase { db in
        try db.execute(sql: "PRAGMA synchronous = FULL; PRAGMA cache_size = 10")
    }
    let pool = try EncryptedSQLite.openPool(atPath: arguments[1], key: SymmetricKey(data: keyBytes), configuration: configuration)
    try pool.write { db in
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS rows (id INTEGER PRIMARY KEY, payload BLOB NOT NULL, digest BLOB NOT NULL)")
    }
    var state = seed
    var commits = 0
    while true {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        let large = state >> 61 == 0
        let count = large ? 300 : Int(state >> 58 & 31) + 1
        let last = try pool.write { db -> Int64 in
            let first = (try Int64.fetchOne(db, sql: "SELECT max(id) FROM rows") ?? 0) + 1
            func put(_ id: Int64, _ sql: String) throws {
                let bytes = payload(id, state)
                try db.execute(sql: sql, arguments: [Data(bytes), Data(SHA256.hash(data: bytes)), id])
            }
            for id in first..<(first + Int64(count)) {
                try put(id, "INSERT INTO rows (payload, digest, id) VALUES (?, ?, ?)")
            }
            if large {
                // Pages written early in the transaction are written again after the cache spilled.
                for id in first..<(first + 20) { try put(id, "UPDATE rows SET payload = ?, digest = ? WHERE id = ?") }
            }
            return first + Int64(count) - 1
        }
        let line = Array("ACK \(last)\n".utf8)
        _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        commits += 1
        if commits % 7 == 0 { _ = try pool.writeWithoutTransaction { try $0.checkpoint(.restart) } }
    }
} catch {
    print("ERROR \(error)")
    exit(1)
}
