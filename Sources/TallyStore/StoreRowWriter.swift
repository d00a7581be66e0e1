import Foundation
import GRDB
import TallyModel
import TallyProjections

/// Writes rows from a snapshot of the read models inside one open transaction.
struct StoreRowWriter {
    let database: Database
    let snapshot: StoreSnapshot

    /// A date as the store keeps it: `yyyymmdd`, so that integer order is date order.
    static func day(_ date: LocalDate) -> Int64 {
        Int64(date.year) * 10_000 + Int64(date.month) * 100 + Int64(date.day)
    }

    /// Writes a transaction's row, its search text, tags and split as the read models hold
    /// them (or removes them when they hold none).
    /// - Parameter fresh: the tables hold nothing of it yet (a rebuild): nothing to remove.
    func upsertTransaction(_ id: TransactionID, fresh: Bool = false) throws {
        if !fresh { try removeTransaction(key: id.description) }
        guard let entry = snapshot.readModels.wallets.transaction(id) else { return }
        let details = entry.details
        let sequence = Int64(bitPattern: entry.sequenceNumber)
        try database.cachedStatement(sql: """
            INSERT INTO transactions
                (transaction_id, wallet_id, category_id, payer_id, kind, amount, currency, date, is_live, sequence, note_owner)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                id.description, details.walletID.description, details.categoryID.description, details.payer.description,
                Int(details.kind.rawValue), details.amount.minorUnits, details.amount.currency.code, Self.day(details.date),
                entry.isLive, sequence, details.note?.owner.description,
            ])
        if entry.isLive {
            try database.cachedStatement(sql: """
                INSERT INTO month_totals (month, wallet_id, category_id, kind, currency, amount, count) VALUES (?, ?, ?, ?, ?, ?, 1)
                ON CONFLICT DO UPDATE SET amount = amount + excluded.amount, count = count + 1
                """).execute(arguments: [
                    Self.day(details.date) / 100, details.walletID.description, details.categoryID.description,
                    Int(details.kind.rawValue), details.amount.currency.code, details.amount.minorUnits,
                ])
        }
        // A redacted note (its owner forgotten, P3) leaves nothing to search.
        let note = details.note?.text
        if note != nil || !details.tags.isEmpty {
            try database.cachedStatement(sql: "INSERT INTO transaction_search (rowid, note, tags, transaction_id) VALUES (?, ?, ?, ?)")
                .execute(arguments: [sequence, note, details.tags.joined(separator: " "), id.description])
        }
        for (position, tag) in details.tags.enumerated() {
            try database.cachedStatement(sql: "INSERT OR IGNORE INTO transaction_tags (transaction_id, tag, position) VALUES (?, ?, ?)")
                .execute(arguments: [id.description, tag, position])
        }
        for (position, share) in (details.split?.shares ?? []).enumerated() {
            try database.cachedStatement(sql: "INSERT INTO transaction_shares (transaction_id, person_id, position, amount) VALUES (?, ?, ?, ?)")
                .execute(arguments: [id.description, share.person.description, position, share.amount.minorUnits])
        }
    }

    /// Removes a transaction's row and everything kept beside it (its part of the month's
    /// totals included).
    private func removeTransaction(key: String) throws {
        let old = try Row.fetchOne(
            database.cachedStatement(sql: "SELECT sequence, date, wallet_id, category_id, kind, currency, amount, is_live FROM transactions WHERE transaction_id = ?"),
            arguments: [key])
        if let old {
            try database.cachedStatement(sql: "DELETE FROM transaction_search WHERE rowid = ?").execute(arguments: [old["sequence"]])
            if old["is_live"] == true {
                let cell: StatementArguments = [(old["date"] as Int64? ?? 0) / 100, old["wallet_id"], old["category_id"], old["kind"], old["currency"]]
                try database.cachedStatement(sql: """
                    UPDATE month_totals SET amount = amount - ?, count = count - 1
                    WHERE month = ? AND wallet_id = ? AND category_id = ? AND kind = ? AND currency = ?
                    """).execute(arguments: [old["amount"]] + cell)
                try database.cachedStatement(sql: """
                    DELETE FROM month_totals WHERE count <= 0 AND month = ? AND wallet_id = ? AND category_id = ? AND kind = ? AND currency = ?
                    """).execute(arguments: cell)
            }
        }
        for table in ["transactions", "transaction_tags", "transaction_shares"] {
            try database.cachedStatement(sql: "DELETE FROM \(table) WHERE transaction_id = ?").execute(arguments: [key])
        }
    }

    /// Rewrites the transactions with a note of one of `people` from the read models (which
    /// hold them redacted after a forgetting, P3), then merges the search index, so that no
    /// index page keeps a word of the old texts.
    func rewriteNotes(of people: Set<PersonID>) throws {
        guard !people.isEmpty else { return }
        let owners = people.map(\.description)
        let ids = try String.fetchAll(
            database, sql: "SELECT transaction_id FROM transactions WHERE note_owner IN (\(TransactionFilter.placeholders(owners.count)))",
            arguments: StatementArguments(owners))
        for key in ids {
            try removeTransaction(key: key)
            // An id the model refuses cannot be in the read models: nothing to write back.
            if let id = try? TransactionID(parsing: key) { try upsertTransaction(id, fresh: true) }
        }
        try mergeSearchIndex()
    }

    /// Merges the search index into one segment (FTS5 `optimize`): a delete alone leaves the
    /// deleted rows' words in older segments until a merge.
    func mergeSearchIndex() throws {
        try database.execute(sql: "INSERT INTO transaction_search (transaction_search) VALUES ('optimize')")
    }

    func upsertTransfer(_ id: TransferID) throws {
        guard let entry = snapshot.readModels.wallets.transfer(id) else {
            try database.execute(sql: "DELETE FROM transfers WHERE transfer_id = ?", arguments: [id.description])
            return
        }
        try database.cachedStatement(sql: """
            INSERT OR REPLACE INTO transfers
                (transfer_id, from_wallet_id, to_wallet_id, amount_sent, currency_sent, amount_received, currency_received, date, is_live, sequence)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                id.description, entry.fromWalletID.description, entry.toWalletID.description,
                entry.amountSent.minorUnits, entry.amountSent.currency.code,
                entry.amountReceived.minorUnits, entry.amountReceived.currency.code, Self.day(entry.date), entry.isLive,
                Int64(bitPattern: entry.sequenceNumber),
            ])
    }

    /// Wallet balances, totals, household debts and people: O(live), rewritten whole.
    func replaceLiveTables() throws {
        for table in StoreSchema.liveTables { try database.execute(sql: "DELETE FROM \(table)") }
        let wallets = snapshot.readModels.wallets
        for balance in try wallets.balances() {
            try database.execute(sql: """
                INSERT INTO wallet_balances
                    (wallet_id, name, kind, owner_id, is_active, closed_on, balance, currency, live_transactions)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [
                    balance.walletID.description, balance.name, Int(balance.kind.rawValue), balance.owner?.description,
                    balance.isActive, balance.closedOn.map(Self.day), balance.balance.minorUnits, balance.balance.currency.code,
                    balance.liveTransactionCount,
                ])
        }
        let totals = try wallets.totals()
        var rows: [(String, Currency, Int64)] = totals.perCurrency.map { ("currency", $0.currency, $0.minorUnits) }
        if let base = totals.baseTotal { rows.append(("base", base.currency, base.minorUnits)) }
        rows += totals.missingRates.map { ("missing", $0, 0) }
        for (position, row) in rows.enumerated() {
            try database.execute(
                sql: "INSERT INTO totals (position, role, currency, amount) VALUES (?, ?, ?, ?)",
                arguments: [position, row.0, row.1.code, row.2])
        }
        for pair in try snapshot.readModels.debts.householdNetBalances() {
            try database.execute(
                sql: "INSERT OR REPLACE INTO household_debts (person_a, person_b, currency, a_owes_b) VALUES (?, ?, ?, ?)",
                arguments: [pair.personA.description, pair.personB.description, pair.aOwesB.currency.code, pair.aOwesB.minorUnits])
        }
        for (id, name) in snapshot.personNames {
            try database.execute(sql: "INSERT INTO people (person_id, name) VALUES (?, ?)", arguments: [id.description, name])
        }
        for (id, name) in snapshot.categoryNames {
            try database.execute(sql: "INSERT INTO categories (category_id, name) VALUES (?, ?)", arguments: [id.description, name])
        }
    }

    /// The coverage row, with the digest of the live tables as they now are (written last).
    func setCoverage(_ coverage: StoreCoverage) throws {
        try database.execute(
            sql: "INSERT OR REPLACE INTO coverage (id, sequence, chain, live_digest) VALUES (1, ?, ?, ?)",
            arguments: [Int64(bitPattern: coverage.sequenceNumber), Data(coverage.chainValue), try LedgerStore.liveDigest(database)])
    }
}
