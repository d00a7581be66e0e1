import Foundation
import GRDB
import TallyModel
import TallyProjections

/// Writes rows from a snapshot of the read models (or the rows gathered from one) inside one open transaction, keeping the
/// live tables' digest (``LiveDigest``) up to date and noting the tables it modified (so that
/// only the observations that read them are refreshed).
final class StoreRowWriter {
    let database: Database
    /// The store's file, named by the errors of what it reads back.
    let path: String
    let source: any StoreRowSource
    /// The live tables' digest, as the rows written so far leave it.
    private(set) var digest: LiveDigest
    /// The tables this writer inserted into, updated or deleted from.
    private(set) var modifiedTables: Set<String> = []

    /// Whether a row changed for the first time since the last checkpoint leaves its record as
    /// of it in `history` (not in a bulk load: `LedgerStore.beginBulkLoad()`).
    private let keepsRecords: Bool

    /// A writer inside `database`'s open transaction.
    /// - Parameters:
    ///   - path: the store's file (``path``).
    ///   - digest: the live tables' digest before this writer's changes.
    ///   - keepsRecords: see ``keepsRecords``.
    init(database: Database, path: String, source: any StoreRowSource, digest: LiveDigest, keepsRecords: Bool) {
        self.database = database
        self.path = path
        self.source = source
        self.digest = digest
        self.keepsRecords = keepsRecords
    }

    /// A date as the store keeps it: `yyyymmdd`, so that integer order is date order.
    static func day(_ date: LocalDate) -> Int64 {
        Int64(date.year) * 10_000 + Int64(date.month) * 100 + Int64(date.day)
    }

    /// The sequence number the store's history is as of (the last checkpoint's), once read.
    private var readHistoryVersion: Int64?

    /// The sequence number the store's history is as of (the last checkpoint's; 0: none), read
    /// once: a row changed for the first time after it leaves its value as of it in `history`.
    private func historyVersion() throws -> Int64 {
        guard keepsRecords else { return 0 }  // keeps nothing
        if let readHistoryVersion { return readHistoryVersion }
        let version = try Int64.fetchOne(database, sql: "SELECT version FROM history_version WHERE id = 1") ?? 0
        readHistoryVersion = version
        return version
    }

    /// Writes a transaction's row, its search text, tags and split as the read models' book
    /// holds it (or removes them when it holds none). A row the checkpoint's state reads as it
    /// is (changed at or before ``historyVersion()``) first leaves that value in `history`.
    func upsertTransaction(_ id: TransactionID) throws {
        modifiedTables.formUnion(StoreSchema.transactionTables)
        guard let entry = source.transaction(id) else {
            try removeTransaction(key: id.storeValue, keepingVersion: true)
            return
        }
        let details = entry.details
        let sequence = Int64(bitPattern: entry.sequenceNumber)
        let row: StatementArguments = [
            id.storeValue, details.walletID.storeValue, details.categoryID.storeValue, details.payer.storeValue,
            Int(details.kind.rawValue), details.amount.minorUnits, details.amount.currency.code, Self.day(details.date),
            entry.isLive, sequence, Int64(bitPattern: entry.lastChanged), details.note?.owner.storeValue,
            details.note?.sealedBytes.map { Data($0) }, StoreTransactionRecord.splitRule(of: entry), entry.recordedAt.millisecondsSinceEpoch,
            entry.lastEditedAt?.millisecondsSinceEpoch, entry.deletedAt?.millisecondsSinceEpoch,
            entry.originalAmount?.minorUnits, entry.originalAmount?.currency.code,
            entry.payee?.owner.storeValue, entry.payee?.storeValue, entry.subtitle?.owner.storeValue, entry.subtitle?.storeValue,
            PayeeKey(of: entry)?.value,
        ]
        let insert = try database.cachedStatement(sql: """
            INSERT INTO transactions
                (transaction_id, wallet_id, category_id, payer_id, kind, amount, currency, date, is_live, sequence, last_changed, note_owner, note_sealed, split_rule,
                 recorded_at, edited_at, deleted_at, original_amount, original_currency, payee_owner, payee, subtitle_owner, subtitle, payee_key)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
            """)
        try insert.execute(arguments: row)
        // Everything kept beside a transaction is written and removed with its row: no row, none
        // of it (a new transaction, the common case, costs no lookup); a row, its old values go.
        if database.changesCount == 0 {
            try removeTransaction(key: id.storeValue, keepingVersion: true)
            try insert.execute(arguments: row)
        }
        if entry.isLive {
            let cell: StatementArguments = [
                Self.day(details.date) / 100, details.walletID.storeValue, details.categoryID.storeValue,
                Int(details.kind.rawValue), details.amount.currency.code,
            ]
            let viewers = Self.monthViewers(payer: details.payer.storeValue, sharers: details.split?.shares.map(\.person.storeValue) ?? [])
            for viewer in viewers {
                try database.cachedStatement(sql: """
                    INSERT INTO month_totals (viewer, month, wallet_id, category_id, kind, currency, amount, count) VALUES (?, ?, ?, ?, ?, ?, ?, 1)
                    ON CONFLICT DO UPDATE SET amount = amount + excluded.amount, count = count + 1
                    """).execute(arguments: [viewer] + cell + [details.amount.minorUnits])
            }
        }
        // A redacted text (its owner forgotten, P3) leaves nothing to search, nor does a sealed one.
        let texts = [details.note?.text, entry.payee?.text, entry.subtitle?.text]
        if texts.contains(where: { $0 != nil }) || !details.tags.isEmpty {
            try database.cachedStatement(sql: "INSERT INTO transaction_search (rowid, note, tags, payee, subtitle, transaction_id) VALUES (?, ?, ?, ?, ?, ?)")
                .execute(arguments: [sequence, texts[0], details.tags.joined(separator: " "), texts[1], texts[2], id.storeValue])
        }
        for (position, tag) in details.tags.enumerated() {
            try database.cachedStatement(sql: "INSERT INTO transaction_tags (transaction_id, tag, position) VALUES (?, ?, ?)")
                .execute(arguments: [id.storeValue, tag, position])
        }
        for (position, share) in (details.split?.shares ?? []).enumerated() {
            try database.cachedStatement(sql: "INSERT INTO transaction_shares (transaction_id, person_id, position, amount) VALUES (?, ?, ?, ?)")
                .execute(arguments: [id.storeValue, share.person.storeValue, position, share.amount.minorUnits])
        }
    }

    /// Moves every transaction of a deleted category to its reassignment target (C3), as the
    /// fold moved them in the book: their rows (changed by the reassignment's event, each
    /// leaving its value as of the checkpoint first) and their part of the month totals.
    func reassign(_ reassignment: CategoryReassignment) throws {
        modifiedTables.formUnion(["transactions", "month_totals"])
        let categories: StatementArguments = [reassignment.to.storeValue, reassignment.from.storeValue]
        let kept = try Data.fetchAll(
            database, sql: "SELECT transaction_id FROM transactions WHERE category_id = ? AND last_changed <= ?",
            arguments: [reassignment.from.storeValue, try historyVersion()])
        for key in kept { try keepVersion(.transactions, key: key) }
        try database.execute(
            sql: "UPDATE transactions SET category_id = ?, last_changed = ? WHERE category_id = ?",
            arguments: [reassignment.to.storeValue, Int64(bitPattern: reassignment.sequenceNumber), reassignment.from.storeValue])
        try database.execute(sql: """
            INSERT INTO month_totals (viewer, month, wallet_id, category_id, kind, currency, amount, count)
                SELECT viewer, month, wallet_id, ?, kind, currency, amount, count FROM month_totals WHERE category_id = ?
                ON CONFLICT DO UPDATE SET amount = amount + excluded.amount, count = count + excluded.count
            """, arguments: categories)
        try database.execute(sql: "DELETE FROM month_totals WHERE category_id = ?", arguments: [reassignment.from.storeValue])
    }

    /// Keeps the record of `key` (an id as the table keeps it) in `book` as the history's version
    /// reads it, in `history` (the book's space), unless a change since that version kept it
    /// already.
    private func keepVersion(_ book: StoreBook, key: Data) throws {
        let version = try historyVersion()
        guard version > 0, let record = try book.record(key: key, in: database, path: path) else { return }
        try database.cachedStatement(sql: "INSERT OR IGNORE INTO history (space, key, value, version) VALUES (?, ?, ?, ?)")
            .execute(arguments: [Int64(book.space.rawValue), try book.checkedKey(key, path: path), Data(record.value), version])
    }

    /// Keeps the record of `key` in `book` (``keepVersion(_:key:)``) when the history's version
    /// reads its row as it is: its last change (`last_changed`, read with a throwing decode: a
    /// crafted row fails the commit, never traps) is at or before it.
    private func keepVersion(_ book: StoreBook, key: Data, lastChanged: Row) throws {
        let reader = StoreRowReader(path: path, table: book.table)
        if try reader.column(lastChanged, "last_changed", as: Int64.self) <= (try historyVersion()) { try keepVersion(book, key: key) }
    }

    /// Removes a transaction's row and everything kept beside it (its part of the month's
    /// totals included).
    /// - Parameter keepingVersion: the row is being changed by an event: when the history's
    ///   version reads it as it is, its record is kept in `history` first (``keepVersion(_:key:)``).
    ///   A forgetting's rewrite is not a change of the record (P3: no copy of the old text).
    private func removeTransaction(key: Data, keepingVersion: Bool) throws {
        let old = try Row.fetchOne(
            database.cachedStatement(sql: "SELECT sequence, date, wallet_id, category_id, kind, currency, amount, is_live, last_changed, payer_id FROM transactions WHERE transaction_id = ?"),
            arguments: [key])
        if let old {
            // Columns read with throwing decodes: a value of another type (a crafted row) fails
            // the commit (the store goes stale and is rebuilt), never traps.
            let reader = StoreRowReader(path: path, table: "transactions")
            if keepingVersion { try keepVersion(.transactions, key: key, lastChanged: old) }
            try database.cachedStatement(sql: "DELETE FROM transaction_search WHERE rowid = ?").execute(arguments: [old["sequence"]])
            if try reader.column(old, "is_live", as: Bool.self) {
                let date: Int64 = try reader.column(old, "date")
                let sharers = try Data.fetchAll(
                    database.cachedStatement(sql: "SELECT person_id FROM transaction_shares WHERE transaction_id = ? ORDER BY position"), arguments: [key])
                for viewer in Self.monthViewers(payer: try reader.column(old, "payer_id", as: Data.self), sharers: sharers) {
                    let cell: StatementArguments = [viewer, date / 100, old["wallet_id"], old["category_id"], old["kind"], old["currency"]]
                    try database.cachedStatement(sql: """
                        UPDATE month_totals SET amount = amount - ?, count = count - 1
                        WHERE viewer = ? AND month = ? AND wallet_id = ? AND category_id = ? AND kind = ? AND currency = ?
                        """).execute(arguments: [old["amount"]] + cell)
                    try database.cachedStatement(sql: """
                        DELETE FROM month_totals
                        WHERE count <= 0 AND viewer = ? AND month = ? AND wallet_id = ? AND category_id = ? AND kind = ? AND currency = ?
                        """).execute(arguments: cell)
                }
            }
        }
        for table in ["transactions", "transaction_tags", "transaction_shares"] {
            try database.cachedStatement(sql: "DELETE FROM \(table) WHERE transaction_id = ?").execute(arguments: [key])
        }
    }

    /// The month cells a live transaction adds to (G7, `month_totals.viewer`): the household's
    /// (`StoreSchema.householdViewer`) and one per person who sees it (`Viewer.sees`: the
    /// payer, and every sharer of a shared one), each once.
    static func monthViewers(payer: Data, sharers: [Data]) -> [Data] {
        var viewers = [StoreSchema.householdViewer, payer]
        for sharer in sharers where !viewers.contains(sharer) { viewers.append(sharer) }
        return viewers
    }

    /// Rewrites the transactions with a note, payee or subtitle and the transfers with a note of
    /// one of `people` from the read models (which hold them redacted after a forgetting, P3),
    /// then merges the search index, so that no index page keeps a word of the old texts.
    func rewriteNotes(of people: Set<PersonID>) throws {
        guard !people.isEmpty else { return }
        let owners = StatementArguments(people.map(\.storeValue))
        let placeholders = TransactionSQLFilter.placeholders(people.count)
        // The records kept for the checkpoint's state may hold their texts (a note since edited
        // away too): they go (the forgetting removes every older checkpoint as well).
        try database.execute(sql: "DELETE FROM history WHERE space IN \(StoreBook.spaceList)")
        for key in try Data.fetchAll(database, sql: """
                SELECT transaction_id FROM transactions WHERE note_owner IN (\(placeholders))
                OR payee_owner IN (\(placeholders)) OR subtitle_owner IN (\(placeholders))
                """, arguments: owners + owners + owners) {
            try removeTransaction(key: key, keepingVersion: false)
            // An id the model refuses cannot be in the read models: nothing to write back.
            if let value = UUIDValue(bytes: key) { try upsertTransaction(TransactionID(value)) }
        }
        for key in try Data.fetchAll(database, sql: "SELECT transfer_id FROM transfers WHERE note_owner IN (\(placeholders))", arguments: owners) {
            if let value = UUIDValue(bytes: key) { try writeTransfer(TransferID(value), keepingVersion: false) }
        }
        try mergeSearchIndex()
    }

    /// Merges the search index into one segment (FTS5 `optimize`): a delete alone leaves the
    /// deleted rows' words in older segments until a merge.
    func mergeSearchIndex() throws {
        modifiedTables.insert("transaction_search")
        try Self.mergeSearchIndex(in: database)
    }

    /// Merges the search index into one segment: what deleted or rewritten rows held leaves it (P3).
    static func mergeSearchIndex(in database: Database) throws {
        try database.execute(sql: "INSERT INTO transaction_search (transaction_search) VALUES ('optimize')")
    }

    /// Writes a settlement's row as the debt read model holds it (or removes it when it holds
    /// none, as a rebuild of a fold that refused it). Settlements are permanent (S6): a commit
    /// writes a row once; the same row again changes nothing.
    func upsertSettlement(_ id: SettlementID) throws {
        modifiedTables.insert("settlements")
        guard let record = source.settlement(id) else {
            try database.execute(sql: "DELETE FROM settlements WHERE settlement_id = ?", arguments: [id.storeValue])
            return
        }
        try database.cachedStatement(sql: """
            INSERT OR REPLACE INTO settlements
                (settlement_id, from_id, to_id, amount, currency, date, group_id, is_advance, payment_method, sequence)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                id.storeValue, record.from.storeValue, record.to.storeValue, record.amount.minorUnits, record.amount.currency.code,
                Self.day(record.date), record.groupID?.storeValue, record.isAdvance, record.paymentMethod,
                Int64(bitPattern: record.sequenceNumber),
            ])
    }

    /// Writes a transfer's row as the read models' book holds it (or removes it when it holds
    /// none). A row the checkpoint's state reads as it is first leaves that value in `history`.
    func upsertTransfer(_ id: TransferID) throws { try writeTransfer(id, keepingVersion: true) }

    /// - Parameter keepingVersion: see ``removeTransaction(key:keepingVersion:)``.
    private func writeTransfer(_ id: TransferID, keepingVersion: Bool) throws {
        modifiedTables.insert("transfers")
        // A new transfer, the common case, costs no lookup; a row changed leaves its record first.
        func keepOld() throws {
            guard keepingVersion, let old = try Row.fetchOne(
                database.cachedStatement(sql: "SELECT last_changed FROM transfers WHERE transfer_id = ?"), arguments: [id.storeValue]) else { return }
            try keepVersion(.transfers, key: id.storeValue, lastChanged: old)
        }
        guard let record = source.transfer(id) else {
            try keepOld()
            try database.execute(sql: "DELETE FROM transfers WHERE transfer_id = ?", arguments: [id.storeValue])
            return
        }
        let transfer = record.transfer
        let row: StatementArguments = [
            id.storeValue, transfer.fromWalletID.storeValue, transfer.toWalletID.storeValue,
            transfer.amountSent.minorUnits, transfer.amountSent.currency.code,
            transfer.amountReceived.minorUnits, transfer.amountReceived.currency.code, Self.day(transfer.date), record.isLive,
            Int64(bitPattern: record.sequenceNumber), Int64(bitPattern: record.lastChanged), transfer.note?.owner.storeValue, transfer.note?.storeValue,
        ]
        let columns = """
            (transfer_id, from_wallet_id, to_wallet_id, amount_sent, currency_sent, amount_received, currency_received, date, is_live, sequence,
             last_changed, note_owner, note) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        try database.cachedStatement(sql: "INSERT INTO transfers \(columns) ON CONFLICT DO NOTHING").execute(arguments: row)
        guard database.changesCount == 0 else { return }
        try keepOld()
        try database.cachedStatement(sql: "INSERT OR REPLACE INTO transfers \(columns)").execute(arguments: row)
    }

    /// One row of a live table: its columns and values, in the table's column order.
    typealias LiveRow = [(column: String, value: (any DatabaseValueConvertible)?)]

    /// Brings the live tables to the read models' values. Wallet balances, totals and
    /// household debts are small: their rows are compared with the stored ones and only those
    /// that differ are written. People and categories can be many: only the ids given are
    /// written (or removed when the source no longer names them).
    /// - Parameters:
    ///   - people: the people whose rows may have changed; nil for all of them (a rebuild).
    ///   - categories: the same for categories.
    func updateLiveTables(people: Set<PersonID>?, categories: Set<CategoryID>?) throws {
        try synchronize("wallet_balances", keys: ["wallet_id"], rows: try source.walletBalances().map { balance in
            [
                ("wallet_id", balance.walletID.storeValue), ("name", balance.name), ("kind", Int(balance.kind.rawValue)),
                ("valuation", Int(balance.valuation.rawValue)),
                ("owner_id", balance.owner?.storeValue), ("is_active", balance.isActive), ("closed_on", balance.closedOn.map(Self.day)),
                ("balance", balance.balance.minorUnits), ("currency", balance.balance.currency.code),
                ("live_transactions", balance.liveTransactionCount),
                ("connection_status", balance.connectionStatus.map { Int($0.rawValue) }),
            ]
        })
        let totals = try source.walletTotals()
        var totalRows: [(String, Currency, Int64)] = totals.perCurrency.map { ("currency", $0.currency, $0.minorUnits) }
        if let base = totals.baseTotal { totalRows.append(("base", base.currency, base.minorUnits)) }
        totalRows += totals.missingRates.map { ("missing", $0, 0) }
        try synchronize("totals", keys: ["position"], rows: totalRows.enumerated().map { position, row in
            [("position", position), ("role", row.0), ("currency", row.1.code), ("amount", row.2)]
        })
        try synchronize("household_debts", keys: ["person_a", "person_b", "currency"], rows: try source.householdDebts().map { pair in
            [
                ("person_a", pair.personA.storeValue), ("person_b", pair.personB.storeValue),
                ("currency", pair.aOwesB.currency.code), ("a_owes_b", pair.aOwesB.minorUnits),
            ]
        })
        for id in people ?? Set(source.allPersonIDs()) {
            try put("people", keys: ["person_id"], row: source.name(of: id).map { [("person_id", id.storeValue), ("name", $0)] }, key: [id.storeValue.databaseValue])
        }
        for id in categories ?? Set(source.allCategoryIDs()) {
            try put("categories", keys: ["category_id"], row: source.name(of: id).map { [("category_id", id.storeValue), ("name", $0)] }, key: [id.storeValue.databaseValue])
        }
    }

    /// Makes the small live table `table` hold exactly `rows`: writes the rows that differ from
    /// the stored ones and removes the stored rows whose key is not among them.
    private func synchronize(_ table: String, keys: [String], rows: [LiveRow]) throws {
        let keyList = keys.joined(separator: ", ")
        var stale = Set(try Row.fetchAll(database, sql: "SELECT \(keyList) FROM \(table)").map { row in keys.map { row[$0] as DatabaseValue } })
        for row in rows {
            let key = keys.map { key in row.first { $0.column == key }?.value?.databaseValue ?? .null }
            stale.remove(key)
            try put(table, keys: keys, row: row, key: key)
        }
        for key in stale { try put(table, keys: keys, row: nil, key: key) }
    }

    /// Writes one row of a live table (`nil`: removes the row with `key`), unless the stored row
    /// already holds the same values, and keeps the digest: the old row out, the new one in.
    private func put(_ table: String, keys: [String], row: LiveRow?, key: [DatabaseValue]) throws {
        let condition = keys.map { "\($0) = ?" }.joined(separator: " AND ")
        let select = try database.cachedStatement(sql: "SELECT * FROM \(table) WHERE \(condition)")
        let old = try Row.fetchOne(select, arguments: StatementArguments(key))
        if let old, let row, row.allSatisfy({ (old[$0.column] as DatabaseValue) == ($0.value?.databaseValue ?? .null) }) { return }
        guard old != nil || row != nil else { return }
        modifiedTables.insert(table)
        if let old {
            digest.subtract(old, of: table)
            try database.cachedStatement(sql: "DELETE FROM \(table) WHERE \(condition)").execute(arguments: StatementArguments(key))
        }
        guard let row else { return }
        let columns = row.map(\.column)
        try database.cachedStatement(sql: """
            INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(TransactionSQLFilter.placeholders(columns.count)))
            """).execute(arguments: StatementArguments(row.map { $0.value?.databaseValue ?? .null }))
        // Read back rather than hashed from the values given: the digest is of what SQLite stores
        // (column affinity may convert a value), as the check at open reads it.
        guard let new = try Row.fetchOne(select, arguments: StatementArguments(key)) else {
            throw StoreError.invalidRow(path: path, table: table, reason: "a row just written cannot be read back")
        }
        digest.add(new, of: table)
    }

    /// The coverage row, with the live tables' digest as this writer leaves it (written last).
    func setCoverage(_ coverage: StoreCoverage) throws {
        modifiedTables.insert("coverage")
        try database.execute(
            sql: "INSERT OR REPLACE INTO coverage (id, sequence, chain, live_digest, epoch) VALUES (1, ?, ?, ?, (SELECT epoch FROM store_epoch WHERE id = 1))",
            arguments: [Int64(bitPattern: coverage.sequenceNumber), Data(coverage.chainValue), digest.bytes])
    }
}
