import Crypto
import Foundation
import GRDB

/// A synced device's outbox (Docs/Sync.md, "The outbox"): the commands it made that the server
/// has not answered yet, in the order they were made, and the rejections the server answered
/// that the app has not dismissed. Unlike the read side it is not derived from the journal: it
/// is the only copy of commands not yet confirmed, so every commit is synced (`synchronous =
/// FULL`) before it returns, and its pages are sealed with the ledger's page key.
///
/// A command is stored as its push body (its personal texts sealed with their owners' keys):
/// nothing in it is readable without the device's keys.
package struct SyncOutboxStore: Sendable {
    /// The file's schema: 3 (1, before accepted commands were kept until pulled, and 2, before
    /// the household's secret and shared keys, are refused as `unsupportedSchema`; each was on
    /// main for hours, in no release).
    static let schemaVersion = 3

    /// A command not yet in the device's confirmed history, in outbox order: waiting for the
    /// server's answer, or accepted and waiting for the pull that brings its events.
    package struct Pending: Sendable, Equatable {
        package var commandID: String
        /// The push body (`PushedCommand.body`).
        package var body: [UInt8]
        /// The sequence numbers of its events when the server accepted it; nil while unanswered.
        package var accepted: ClosedRange<UInt64>?
    }

    /// A command the server rejected, kept until the app dismisses it.
    package struct Rejection: Sendable, Equatable {
        package var commandID: String
        package var body: [UInt8]
        /// The rule's code (`RuleViolation.Code`) or a refusal's.
        package var code: String
        package var message: String

        package init(commandID: String, body: [UInt8], code: String, message: String) {
            self.commandID = commandID
            self.body = body
            self.code = code
            self.message = message
        }
    }

    private let database: SealedDatabase

    /// Opens, creating it when new (unless `existingOnly`), the outbox at `path`.
    /// - Throws: ``StoreError`` when SQLite refuses the file (a wrong key or a damaged page
    ///   included), or it holds another schema, or none when `existingOnly`.
    package init(path: String, key: SymmetricKey, existingOnly: Bool = false) throws(StoreError) {
        database = try SealedDatabase(
            path: path, key: key, pragmas: "PRAGMA synchronous = FULL; PRAGMA secure_delete = ON",
            schema: "sync outbox", schemaVersion: Self.schemaVersion, creatingTables: !existingOnly,
            create: { database in
                try database.execute(sql: """
                    CREATE TABLE pending (
                        position INTEGER PRIMARY KEY AUTOINCREMENT, command_id TEXT NOT NULL UNIQUE, body BLOB NOT NULL,
                        accepted_first INTEGER, accepted_last INTEGER,
                        CHECK ((accepted_first IS NULL) = (accepted_last IS NULL) AND (accepted_first IS NULL OR (1 <= accepted_first AND accepted_first <= accepted_last))));
                    CREATE TABLE rejected (command_id TEXT PRIMARY KEY, body BLOB NOT NULL, code TEXT NOT NULL, message TEXT NOT NULL) WITHOUT ROWID;
                    CREATE TABLE household (
                        only_row INTEGER PRIMARY KEY CHECK (only_row = 1), secret BLOB NOT NULL CHECK (length(secret) = 32),
                        key_serial INTEGER NOT NULL DEFAULT 0 CHECK (key_serial >= 0));
                    CREATE TABLE shared_keys (person_id TEXT PRIMARY KEY) WITHOUT ROWID;
                    """)
            })
    }

    /// Every pending command, in outbox order.
    package func pending() throws(StoreError) -> [Pending] {
        try database.read { database in
            try Row.fetchAll(database, sql: "SELECT command_id, body, accepted_first, accepted_last FROM pending ORDER BY position").map { row in
                Pending(commandID: row[0], body: Array(row[1] as Data), accepted: try acceptedRange(first: row[2], last: row[3]))
            }
        }
    }

    /// The range an accepted command's row records, checked: the file is sealed, but a ledger
    /// without a passphrase has a public page key, so a row is read as untrusted.
    private func acceptedRange(first: Int64?, last: Int64?) throws(StoreError) -> ClosedRange<UInt64>? {
        switch (first, last) {
        case (nil, nil): return nil
        case let (first?, last?):
            if let lower = UInt64(exactly: first), let upper = UInt64(exactly: last), 1 <= lower, lower <= upper { return lower...upper }
            fallthrough
        default:
            throw .invalidRow(path: database.path, table: "pending", reason: "accepted range \(first.map(String.init) ?? "null")...\(last.map(String.init) ?? "null") is not a range of sequence numbers")
        }
    }

    /// Every rejection not dismissed, in the order of the commands' ids.
    package func rejections() throws(StoreError) -> [Rejection] {
        try database.read { database in
            try Row.fetchAll(database, sql: "\(Self.rejectionColumns) ORDER BY command_id").map(Self.rejection(row:))
        }
    }

    private static let rejectionColumns = "SELECT command_id, body, code, message FROM rejected"

    private static func rejection(row: Row) -> Rejection {
        Rejection(commandID: row[0], body: Array(row[1] as Data), code: row[2], message: row[3])
    }

    /// Appends a command; durable when this returns.
    package func append(commandID: String, body: [UInt8]) throws(StoreError) {
        try database.write { database in
            try database.execute(sql: "INSERT INTO pending (command_id, body) VALUES (?, ?)", arguments: [commandID, Data(body)])
        }
    }

    /// The rejection of `commandID`, when the server rejected it and the app has not dismissed it.
    package func rejection(commandID: String) throws(StoreError) -> Rejection? {
        try database.read { database in
            try Row.fetchOne(database, sql: "\(Self.rejectionColumns) WHERE command_id = ?", arguments: [commandID]).map(Self.rejection(row:))
        }
    }

    /// Records answers in one transaction: an accepted command stays, with the range of its
    /// events, until the pull that brings them (``removeConfirmed(through:)``); a rejected one
    /// moves to the rejections. Durable when this returns.
    package func resolve(accepted: [(commandID: String, range: ClosedRange<UInt64>)], rejected: [Rejection]) throws(StoreError) {
        guard !accepted.isEmpty || !rejected.isEmpty else { return }
        try database.write { database in
            for (commandID, range) in accepted {
                try database.execute(
                    sql: "UPDATE pending SET accepted_first = ?, accepted_last = ? WHERE command_id = ?",
                    arguments: [Int64(clamping: range.lowerBound), Int64(clamping: range.upperBound), commandID])
            }
            for commandID in rejected.map(\.commandID) {
                try database.execute(sql: "DELETE FROM pending WHERE command_id = ?", arguments: [commandID])
            }
            for rejection in rejected {
                try database.execute(
                    sql: "INSERT OR REPLACE INTO rejected (command_id, body, code, message) VALUES (?, ?, ?, ?)",
                    arguments: [rejection.commandID, Data(rejection.body), rejection.code, rejection.message])
            }
        }
    }

    /// Removes the accepted commands whose events the confirmed history holds: those accepted
    /// through `sequenceNumber`, and `held` (found in the history, their answer lost).
    package func removeConfirmed(through sequenceNumber: UInt64, held: [String] = []) throws(StoreError) {
        try database.write { database in
            try database.execute(sql: "DELETE FROM pending WHERE accepted_last <= ?", arguments: [Int64(clamping: sequenceNumber)])
            for commandID in held {
                try database.execute(sql: "DELETE FROM pending WHERE command_id = ?", arguments: [commandID])
            }
        }
    }

    /// Forgets a rejection the app has shown.
    /// - Returns: whether there was one.
    package func dismiss(commandID: String) throws(StoreError) -> Bool {
        var removed = false
        try database.write { database in
            try database.execute(sql: "DELETE FROM rejected WHERE command_id = ?", arguments: [commandID])
            removed = database.changesCount > 0
        }
        return removed
    }

    /// The household's secret (Docs/Sync.md, "Keys between devices"), stored by the first call
    /// and returned by every later one, whatever it is given then.
    package func householdSecret(storingIfNone secret: [UInt8]) throws(StoreError) -> [UInt8] {
        var stored: [UInt8] = []
        try database.write { database in
            try database.execute(sql: "INSERT OR IGNORE INTO household (only_row, secret) VALUES (1, ?)", arguments: [Data(secret)])
            let data: Data? = try Data.fetchOne(database, sql: "SELECT secret FROM household")
            stored = data.map(Array.init) ?? []
        }
        return stored
    }

    /// The household's keys this device holds in common with the server (shared by it, or
    /// received), by person id, and the serial of the last key it received.
    package func sharedKeys() throws(StoreError) -> (people: Set<String>, serial: Int64) {
        try database.read { database in
            let people = try String.fetchSet(database, sql: "SELECT person_id FROM shared_keys")
            let serial = try Int64.fetchOne(database, sql: "SELECT key_serial FROM household") ?? 0
            return (people, serial)
        }
    }

    /// Records keys the server holds (shared by this device, or received with their last `serial`).
    package func recordSharedKeys(_ people: some Sequence<String>, serial: Int64? = nil) throws(StoreError) {
        try database.write { database in
            for person in people {
                try database.execute(sql: "INSERT OR IGNORE INTO shared_keys (person_id) VALUES (?)", arguments: [person])
            }
            if let serial {
                try database.execute(sql: "UPDATE household SET key_serial = max(key_serial, ?)", arguments: [serial])
            }
        }
    }

    package func close() { database.close() }

    /// What the outbox is, for the errors that name it: the only copy of what it holds.
    package static let holds = "it holds the commands this device made that the server has not confirmed"

    /// Reads every page (`PRAGMA quick_check`, each authenticated by the sealing) and every row
    /// of every table, the household's secret included: what an audit checks.
    /// - Throws: ``StoreError/damaged(path:message:)`` for what SQLite's check finds or a row
    ///   no outbox writes; what reading a page throws.
    package func verify() throws(StoreError) {
        let check = try database.read { database in try String.fetchAll(database, sql: "PRAGMA quick_check") }
        guard check == ["ok"] else { throw .damaged(path: database.path, message: check.prefix(3).joined(separator: "; ")) }
        _ = try pending()
        _ = try rejections()
        _ = try sharedKeys()
        let secrets = try database.read { database in try Int.fetchAll(database, sql: "SELECT length(secret) FROM household") }
        guard secrets.allSatisfy({ $0 == 32 }) else { throw .damaged(path: database.path, message: "its household secret is not 32 bytes") }
    }
}
