import Foundation
import GRDB
import Tally
import TallyModel

/// The peer: the same commands the way an app developer writes them with GRDB 7: a
/// `DatabasePool` (WAL) with `synchronous = FULL`, Codable records for a `transactions` table
/// and a `balances` table, the people's and categories' names for the list rows, and per
/// command one write transaction that inserts the transaction and updates its wallet's balance.
///
/// The indexes are the ones a competent app adds for its list and report screens: wallet +
/// date (a wallet's list), category + date (a category's list), date + category + kind +
/// currency + amount (a month's list, and covering for the category x month report), and an
/// FTS5 table over the note and the tags kept in sync with `transactions` by GRDB's triggers
/// (`synchronize(withTable:)`), with the tokenizer Tally's store uses (unicode61, diacritics
/// removed).
///
/// `createHousehold` inserts the admin and the preset categories, `addMember` the member,
/// `openWallet` a balance row. Any other action is refused.
struct GRDBAppPeer: LedgerSubject {
    let pool: DatabasePool

    static func databasePath(in directory: String) -> String { directory + "/app.sqlite" }

    init(directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        pool = try DatabasePool(path: Self.databasePath(in: directory))
        // GRDB prepares its connections with synchronous = NORMAL; FULL makes every commit durable.
        try pool.writeWithoutTransaction { database in
            try database.execute(sql: "PRAGMA synchronous = FULL")
            guard try Int.fetchOne(database, sql: "PRAGMA synchronous") == 2,
                  try String.fetchOne(database, sql: "PRAGMA journal_mode") == "wal"
            else { throw PeerError.settings }
        }
        try Self.migrator.migrate(pool)
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { database in
            try database.create(table: BalanceRow.databaseTableName) { table in
                table.primaryKey("walletID", .text)
                table.column("name", .text).notNull()
                table.column("currency", .text).notNull()
                table.column("minorUnits", .integer).notNull()
            }
            try database.create(table: NameRow.people) { table in
                table.primaryKey("id", .text)
                table.column("name", .text).notNull()
            }
            try database.create(table: NameRow.categories) { table in
                table.primaryKey("id", .text)
                table.column("name", .text).notNull()
            }
            try database.create(table: TransactionRow.databaseTableName) { table in
                table.primaryKey("id", .text)
                table.column("commandID", .text).notNull()
                table.column("actor", .text).notNull()
                table.column("recordedAt", .integer).notNull()
                table.column("kind", .text).notNull()
                table.column("minorUnits", .integer).notNull()
                table.column("currency", .text).notNull()
                table.column("walletID", .text).notNull().references(BalanceRow.databaseTableName)
                table.column("categoryID", .text).notNull()
                table.column("date", .text).notNull()
                table.column("note", .text)
                table.column("tags", .jsonText).notNull()
                table.column("payer", .text).notNull()
            }
            let transactions = TransactionRow.databaseTableName
            try database.create(index: "transactions_wallet_date", on: transactions, columns: ["walletID", "date"])
            try database.create(index: "transactions_category_date", on: transactions, columns: ["categoryID", "date"])
            try database.create(
                index: "transactions_date_report", on: transactions,
                columns: ["date", "categoryID", "kind", "currency", "minorUnits"])
            try database.create(virtualTable: Self.searchTable, using: FTS5()) { table in
                table.synchronize(withTable: transactions)
                table.tokenizer = .unicode61(diacritics: .remove)
                table.column("note")
                table.column("tags")
            }
        }
        return migrator
    }

    /// The FTS5 table over the transactions' notes and tags (rowid = the transaction's rowid).
    static let searchTable = "transactions_fts"

    func execute(_ command: Command) async throws {
        try await pool.write { database in try Self.apply(command, in: database) }
    }

    func readable() async {}

    func execute(batch commands: [Command]) async throws {
        try await pool.write { database in
            for command in commands { try Self.apply(command, in: database) }
        }
    }

    func balances() async throws -> [WalletFigure] {
        try await pool.read { database in
            try BalanceRow.fetchAll(database).map { WalletFigure(walletID: $0.walletID, minorUnits: $0.minorUnits) }
        }
    }

    func close() async throws {
        try pool.close()
    }

    private static func apply(_ command: Command, in database: Database) throws {
        switch command.action {
        case .createHousehold(let householdID, _, _, let adminName):
            try NameRow(id: command.actor.description, name: adminName).insert(database, as: NameRow.people)
            for preset in CategoryPresets.all {
                try NameRow(id: preset.categoryID(in: householdID).description, name: preset.name).insert(database, as: NameRow.categories)
            }
        case .addMember(let personID, let name):
            try NameRow(id: personID.description, name: name).insert(database, as: NameRow.people)
        case .openWallet(let walletID, let name, _, let openingBalance, _, _, _):
            try BalanceRow(
                walletID: walletID.description, name: name, currency: openingBalance.currency.description,
                minorUnits: openingBalance.minorUnits
            ).insert(database)
        case .recordTransaction(let transactionID, let entry):
            try TransactionRow(
                id: transactionID.description, commandID: command.commandID.description, actor: command.actor.description,
                recordedAt: command.recordedAt.millisecondsSinceEpoch, kind: entry.kind == .income ? "income" : "expense",
                minorUnits: entry.amount.minorUnits, currency: entry.amount.currency.description,
                walletID: entry.walletID.description, categoryID: entry.categoryID.description,
                date: entry.date.isoString, note: entry.note, tags: entry.tags, payer: (entry.payer ?? command.actor).description
            ).insert(database)
            let signed = entry.kind == .income ? entry.amount.minorUnits : -entry.amount.minorUnits
            try database.execute(
                sql: "UPDATE balances SET minorUnits = minorUnits + ? WHERE walletID = ?",
                arguments: [signed, entry.walletID.description])
            guard database.changesCount == 1 else { throw PeerError.unknownWallet(entry.walletID.description) }
        default:
            throw PeerError.unsupported(command.commandID.description)
        }
    }

    enum PeerError: Error {
        case settings
        case unknownWallet(String)
        case unsupported(String)
        case invalidCursor(String)
    }
}

/// A wallet's balance row.
struct BalanceRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "balances"
    var walletID: String
    var name: String
    var currency: String
    var minorUnits: Int64
}

/// A name by id: a row of `people` or of `categories`.
struct NameRow {
    static let people = "people"
    static let categories = "categories"
    var id: String
    var name: String

    func insert(_ database: Database, as table: String) throws {
        try database.execute(sql: "INSERT INTO \(table) (id, name) VALUES (?, ?)", arguments: [id, name])
    }
}

/// A transaction row, one per `recordTransaction`; the tags are a JSON array.
struct TransactionRow: Codable, PersistableRecord {
    static let databaseTableName = "transactions"
    var id: String
    var commandID: String
    var actor: String
    var recordedAt: Int64
    var kind: String
    var minorUnits: Int64
    var currency: String
    var walletID: String
    var categoryID: String
    var date: String
    var note: String?
    var tags: [String]
    var payer: String
}
