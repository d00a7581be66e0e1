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
    /// The file's schema: 2 (1, before accepted commands were kept until pulled, is refused as
    /// `unsupportedSchema`; it was on main for an hour, in no release).
    static let schemaVersion = 2

    /// A command not yet in the device's confirmed history, in outbox order: waiting for the
    /// server's answer, or accepted and waiting for the pull that brings its events.
    package struct Pending: Sendable, Equatable {
        /// Its place in the outbox: increasing in the order the commands were made.
        package var position: Int64
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

    /// Opens, creating it when new, the outbox at `path`.
    /// - Throws: ``StoreError`` when SQLite refuses the file (a wrong key or a damaged page
    ///   included), or it holds another schema.
    package init(path: String, key: SymmetricKey) throws(StoreError) {
        database = try SealedDatabase(
            path: path, key: key, pragmas: "PRAGMA synchronous = FULL; PRAGMA secure_delete = ON",
            schema: "sync outbox", schemaVersion: Self.schemaVersion,
            create: { database in
                try database.execute(sql: """
                    CREATE TABLE pending (
                        position INTEGER PRIMARY KEY AUTOINCREMENT, command_id TEXT NOT NULL UNIQUE, body BLOB NOT NULL,
                        accepted_first INTEGER, accepted_last INTEGER,
                        CHECK ((accepted_first IS NULL) = (accepted_last IS NULL) AND (accepted_first IS NULL OR (1 <= accepted_first AND accepted_first <= accepted_last))));
                    CREATE TABLE rejected (command_id TEXT PRIMARY KEY, body BLOB NOT NULL, code TEXT NOT NULL, message TEXT NOT NULL) WITHOUT ROWID;
                    """)
            })
    }

    /// The database file and the files SQLite keeps beside it.
    package static func files(at path: String) -> [String] { SealedDatabase.files(at: path) }

    /// Every pending command, in outbox order.
    package func pending() throws(StoreError) -> [Pending] {
        try database.read { database in
            try Row.fetchAll(database, sql: "SELECT position, command_id, body, accepted_first, accepted_last FROM pending ORDER BY position").map { row in
                let first: Int64? = row[3], last: Int64? = row[4]
                let accepted = first.flatMap { first in last.map { UInt64(first)...UInt64($0) } }
                return Pending(position: row[0], commandID: row[1], body: Array(row[2] as Data), accepted: accepted)
            }
        }
    }

    /// Every rejection not dismissed, in the order of the commands' ids.
    package func rejections() throws(StoreError) -> [Rejection] {
        try database.read { database in
            try Row.fetchAll(database, sql: "SELECT command_id, body, code, message FROM rejected ORDER BY command_id").map { row in
                Rejection(commandID: row[0], body: Array(row[1] as Data), code: row[2], message: row[3])
            }
        }
    }

    /// Appends a command; durable when this returns.
    /// - Returns: its position.
    package func append(commandID: String, body: [UInt8]) throws(StoreError) -> Int64 {
        var position: Int64 = 0
        try database.write { database in
            try database.execute(sql: "INSERT INTO pending (command_id, body) VALUES (?, ?)", arguments: [commandID, Data(body)])
            position = database.lastInsertedRowID
        }
        return position
    }

    /// The rejection of `commandID`, when the server rejected it and the app has not dismissed it.
    package func rejection(commandID: String) throws(StoreError) -> Rejection? {
        try database.read { database in
            try Row.fetchOne(database, sql: "SELECT command_id, body, code, message FROM rejected WHERE command_id = ?", arguments: [commandID]).map { row in
                Rejection(commandID: row[0], body: Array(row[1] as Data), code: row[2], message: row[3])
            }
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

    package func close() { database.close() }
}
