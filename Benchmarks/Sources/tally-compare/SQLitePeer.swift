import BenchmarkSupport
import Foundation
import GRDB
import TallyModel
import TallyWorkload

/// SQLite through GRDB: a `DatabasePool` (WAL) with `synchronous = FULL` set after it opens
/// (GRDB sets NORMAL in its own preparation), one row per event, one transaction per batch.
///
/// `.json`: what a typical Swift app does: a Codable GRDB record whose `event` column GRDB
/// stores as JSON text. `.binary`: the same bytes as Tally's payload in a BLOB column, through a
/// cached statement: storage alone.
@MainActor
final class SQLitePeer: StoragePeer {
    enum Payload { case json, binary }

    let name: String
    let path: String
    let payload: Payload
    private let pool: DatabasePool

    init(path: String, payload: Payload) throws {
        self.path = path
        self.payload = payload
        name = payload == .json ? "SQLite JSON" : "SQLite binary"
        pool = try DatabasePool(path: path)
        try pool.writeWithoutTransaction { database in
            try database.execute(sql: "PRAGMA synchronous = FULL")
            let mode = try Int.fetchOne(database, sql: "PRAGMA synchronous")
            precondition(mode == 2, "synchronous is \(String(describing: mode)), expected FULL (2)")
            let journalMode = try String.fetchOne(database, sql: "PRAGMA journal_mode")
            precondition(journalMode == "wal", "journal_mode is \(String(describing: journalMode))")
            switch payload {
            case .json:
                try database.execute(sql: """
                    CREATE TABLE events (id INTEGER PRIMARY KEY, recordedAt INTEGER NOT NULL, type TEXT NOT NULL, event TEXT NOT NULL)
                    """)
            case .binary:
                try database.execute(sql: """
                    CREATE TABLE events (seq INTEGER PRIMARY KEY, recorded_at INTEGER NOT NULL, tag INTEGER NOT NULL,
                                         version INTEGER NOT NULL, payload BLOB NOT NULL)
                    """)
            }
        }
    }

    func append(_ batch: PreparedBatch) async throws {
        try write(batch)
    }

    private func write(_ batch: PreparedBatch) throws {
        switch payload {
        case .json:
            try pool.write { database in
                for (event, json) in zip(batch.events, batch.json) {
                    try EventRow(id: nil, recordedAt: event.recordedAt.millisecondsSinceEpoch, type: json.type, event: json)
                        .insert(database)
                }
            }
        case .binary:
            try pool.write { database in
                let statement = try database.cachedStatement(
                    sql: "INSERT INTO events (recorded_at, tag, version, payload) VALUES (?, ?, ?, ?)")
                for event in batch.events {
                    let record = EncodedHistory.record(event)
                    try statement.execute(arguments: [
                        record.recordedAtMilliseconds, Int64(record.typeTag), Int64(record.schemaVersion), Data(record.payload),
                    ])
                }
            }
        }
    }

    func finishWriting() throws {
        _ = try pool.writeWithoutTransaction { database in try database.checkpoint(.truncate) }
    }

    func diskBytes() -> Int64 {
        DiskUsage.bytes(at: path) + DiskUsage.bytes(at: path + "-wal")
    }

    func scanAndDecode() throws -> Int {
        try pool.read { database in
            var count = 0
            var checksum = 0
            switch payload {
            case .json:
                let rows = try EventRow.fetchCursor(database, sql: "SELECT * FROM events ORDER BY id")
                while let row = try rows.next() {
                    checksum &+= row.event.commandID.utf8.count
                    count += 1
                }
            case .binary:
                let rows = try Row.fetchCursor(database, sql: "SELECT recorded_at, tag, version, payload FROM events ORDER BY seq")
                while let row = try rows.next() {
                    let recordedAt: Int64 = row[0]
                    let tag: Int64 = row[1]
                    let version: Int64 = row[2]
                    let bytes = try row.withUnsafeData(atIndex: 3) { data in data.map { [UInt8]($0) } ?? [] }
                    let event = try EventCodec.decode(
                        tag: UInt32(tag), schemaVersion: UInt16(version), payload: bytes,
                        recordedAt: Timestamp(millisecondsSinceEpoch: recordedAt))
                    checksum &+= Int(truncatingIfNeeded: event.recordedAt.millisecondsSinceEpoch)
                    count += 1
                }
            }
            precondition(checksum != 0 || count == 0)
            return count
        }
    }

    func verify() throws -> Int64? {
        let result = try pool.read { database in try String.fetchAll(database, sql: "PRAGMA integrity_check") }
        precondition(result == ["ok"], "integrity_check: \(result)")
        return DiskUsage.bytes(at: path)
    }
}

/// The typical app's GRDB record: scalar columns plus the event DTO, which GRDB encodes as JSON.
struct EventRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "events"
    var id: Int64?
    var recordedAt: Int64
    var type: String
    var event: EventJSON
}
