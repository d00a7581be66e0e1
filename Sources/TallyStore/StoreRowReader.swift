import GRDB
import TallyModel
import TallyProjections

/// Reads rows back into model values; a value the model refuses is ``StoreError/invalidRow(path:table:reason:)``,
/// never a trap.
struct StoreRowReader {
    let path: String

    func id<Kind: IdentifierKind>(_ text: String?, table: String) throws(StoreError) -> Identifier<Kind> {
        guard let text, let id = try? Identifier<Kind>(parsing: text) else {
            throw .invalidRow(path: path, table: table, reason: "id \(text ?? "NULL")")
        }
        return id
    }

    func date(_ value: Int64?, table: String) throws(StoreError) -> LocalDate {
        guard let value, let date = try? LocalDate(
            year: Int(value / 10_000), month: Int(value / 100 % 100), day: Int(value % 100))
        else { throw .invalidRow(path: path, table: table, reason: "date \(value.map(String.init) ?? "NULL")") }
        return date
    }

    func money(_ amount: Int64?, _ code: String?, table: String) throws(StoreError) -> Money {
        guard let amount, let code, let currency = try? Currency(code) else {
            throw .invalidRow(path: path, table: table, reason: "amount \(amount.map(String.init) ?? "NULL") \(code ?? "NULL")")
        }
        return Money(minorUnits: amount, currency: currency)
    }

    func walletBalance(_ row: Row) throws(StoreError) -> WalletBalance {
        let table = "wallet_balances"
        let kindValue: Int = row["kind"]
        guard let kind = UInt8(exactly: kindValue).flatMap(WalletKind.init(rawValue:)) else {
            throw .invalidRow(path: path, table: table, reason: "wallet kind \(kindValue)")
        }
        let owner: String? = row["owner_id"]
        let closed: Int64? = row["closed_on"]
        return WalletBalance(
            walletID: try id(row["wallet_id"], table: table), name: row["name"], kind: kind,
            owner: try owner.map { (text: String) throws(StoreError) -> PersonID in try id(text, table: table) },
            isActive: row["is_active"],
            closedOn: try closed.map { (value: Int64) throws(StoreError) -> LocalDate in try date(value, table: table) },
            balance: try money(row["balance"], row["currency"], table: table),
            liveTransactionCount: row["live_transactions"])
    }

    func totals(_ rows: [Row]) throws(StoreError) -> WalletTotals {
        var perCurrency: [Money] = []
        var base: Money?
        var missing: [Currency] = []
        for row in rows {
            let amount = try money(row["amount"], row["currency"], table: "totals")
            switch row["role"] as String? {
            case "currency": perCurrency.append(amount)
            case "base": base = amount
            case "missing": missing.append(amount.currency)
            case let other: throw .invalidRow(path: path, table: "totals", reason: "role \(other ?? "NULL")")
            }
        }
        return WalletTotals(asOf: nil, perCurrency: perCurrency, baseTotal: base, missingRates: missing)
    }

    func transaction(_ row: Row) throws(StoreError) -> StoredTransaction {
        let table = "transactions"
        let kindValue: Int = row["kind"]
        guard let kind = UInt8(exactly: kindValue).flatMap(TransactionKind.init(rawValue:)) else {
            throw .invalidRow(path: path, table: table, reason: "transaction kind \(kindValue)")
        }
        let sequence: Int64 = row["sequence"]
        return StoredTransaction(
            transactionID: try id(row["transaction_id"], table: table), walletID: try id(row["wallet_id"], table: table),
            categoryID: try id(row["category_id"], table: table), payer: try id(row["payer_id"], table: table), kind: kind,
            amount: try money(row["amount"], row["currency"], table: table), date: try date(row["date"], table: table),
            isLive: row["is_live"], sequenceNumber: UInt64(max(0, sequence)))
    }
}
