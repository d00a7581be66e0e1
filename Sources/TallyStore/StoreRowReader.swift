import Foundation
import GRDB
import TallyModel
import TallyProjections

/// Reads rows back into model values. Every column is decoded with GRDB's throwing `decode`,
/// so a NULL, a value of the wrong type or one the model refuses is
/// ``StoreError/invalidRow(path:table:reason:)``, never a trap: a damaged or foreign store is
/// rebuilt, not served.
struct StoreRowReader {
    let path: String
    let table: String

    func column<Value: DatabaseValueConvertible>(_ row: Row, _ name: String, as type: Value.Type = Value.self) throws(StoreError) -> Value {
        do {
            return try row.decode(Value.self, forColumn: name)
        } catch {
            throw .invalidRow(path: path, table: table, reason: "column \(name): \(error)")
        }
    }

    func id<Kind: IdentifierKind>(_ row: Row, _ name: String) throws(StoreError) -> Identifier<Kind> {
        try id(try column(row, name, as: Data.self), column: name)
    }

    /// The id whose ``Identifier/storeValue`` is `bytes`.
    func id<Kind: IdentifierKind>(_ bytes: Data, column name: String) throws(StoreError) -> Identifier<Kind> {
        guard let value = UUIDValue(bytes: bytes) else {
            throw .invalidRow(path: path, table: table, reason: "\(name): \(bytes.count) bytes, not an id of 16")
        }
        return Identifier(value)
    }

    func optionalID<Kind: IdentifierKind>(_ row: Row, _ name: String) throws(StoreError) -> Identifier<Kind>? {
        guard let bytes = try column(row, name, as: Data?.self) else { return nil }
        return try id(bytes, column: name)
    }

    func date(_ value: Int64) throws(StoreError) -> LocalDate {
        guard let date = try? LocalDate(year: Int(value / 10_000), month: Int(value / 100 % 100), day: Int(value % 100)) else {
            throw .invalidRow(path: path, table: table, reason: "date \(value)")
        }
        return date
    }

    func money(_ row: Row, amount: String, currency: String) throws(StoreError) -> Money {
        let units: Int64 = try column(row, amount)
        let code: String = try column(row, currency)
        guard let currency = try? Currency(code) else { throw .invalidRow(path: path, table: table, reason: "currency \(code)") }
        return Money(minorUnits: units, currency: currency)
    }

    /// The amount in `amount` and `currency`, or `nil` when both are NULL (one without the
    /// other is a damaged row).
    func optionalMoney(_ row: Row, amount: String, currency: String) throws(StoreError) -> Money? {
        let units: Int64? = try column(row, amount)
        let code: String? = try column(row, currency)
        switch (units, code) {
        case (nil, nil): return nil
        case (.some, .some): return try money(row, amount: amount, currency: currency)
        default: throw .invalidRow(path: path, table: table, reason: "\(amount) and \(currency) must both be set or both be NULL")
        }
    }

    func sequenceNumber(_ row: Row, _ name: String) throws(StoreError) -> UInt64 {
        UInt64(bitPattern: try column(row, name, as: Int64.self))
    }

    /// An instant stored as milliseconds since 1970.
    func timestamp(_ row: Row, _ name: String) throws(StoreError) -> Timestamp {
        Timestamp(millisecondsSinceEpoch: try column(row, name))
    }

    /// An instant stored as milliseconds since 1970, or NULL.
    func optionalTimestamp(_ row: Row, _ name: String) throws(StoreError) -> Timestamp? {
        try column(row, name, as: Int64?.self).map(Timestamp.init(millisecondsSinceEpoch:))
    }

    func walletBalance(_ row: Row) throws(StoreError) -> WalletBalance {
        let kindValue: Int64 = try column(row, "kind")
        guard let kind = UInt8(exactly: kindValue).flatMap(WalletKind.init(rawValue:)) else {
            throw .invalidRow(path: path, table: table, reason: "wallet kind \(kindValue)")
        }
        let valuationValue: Int64 = try column(row, "valuation")
        guard let valuation = UInt8(exactly: valuationValue).flatMap(WalletValuation.init(rawValue:)) else {
            throw .invalidRow(path: path, table: table, reason: "wallet valuation \(valuationValue)")
        }
        let closed: Int64? = try column(row, "closed_on")
        let count: Int64 = try column(row, "live_transactions")
        guard let liveTransactions = Int(exactly: count), liveTransactions >= 0 else {
            throw .invalidRow(path: path, table: table, reason: "live_transactions \(count)")
        }
        let statusValue: Int64? = try column(row, "connection_status")
        let connectionStatus = try statusValue.map { (value: Int64) throws(StoreError) -> WalletConnectionStatus in
            guard let status = UInt8(exactly: value).flatMap(WalletConnectionStatus.init(rawValue:)) else {
                throw .invalidRow(path: path, table: table, reason: "connection_status \(value)")
            }
            return status
        }
        return WalletBalance(
            walletID: try id(row, "wallet_id"), name: try column(row, "name"), kind: kind, valuation: valuation,
            owner: try optionalID(row, "owner_id"), isActive: try column(row, "is_active"),
            closedOn: try closed.map { (value: Int64) throws(StoreError) -> LocalDate in try date(value) },
            balance: try money(row, amount: "balance", currency: "currency"), liveTransactionCount: liveTransactions,
            connectionStatus: connectionStatus)
    }

    func totals(_ rows: [Row]) throws(StoreError) -> WalletTotals {
        var perCurrency: [Money] = []
        var base: Money?
        var missing: [Currency] = []
        for row in rows {
            let amount = try money(row, amount: "amount", currency: "currency")
            switch try column(row, "role", as: String.self) {
            case "currency": perCurrency.append(amount)
            case "base": base = amount
            case "missing": missing.append(amount.currency)
            case let other: throw .invalidRow(path: path, table: table, reason: "role \(other)")
            }
        }
        return WalletTotals(asOf: nil, perCurrency: perCurrency, baseTotal: base, missingRates: missing)
    }

    func kind(_ row: Row) throws(StoreError) -> TransactionKind {
        let kindValue: Int64 = try column(row, "kind")
        guard let kind = UInt8(exactly: kindValue).flatMap(TransactionKind.init(rawValue:)) else {
            throw .invalidRow(path: path, table: table, reason: "transaction kind \(kindValue)")
        }
        return kind
    }

    func transaction(_ row: Row) throws(StoreError) -> StoredTransaction {
        StoredTransaction(
            transactionID: try id(row, "transaction_id"), walletID: try id(row, "wallet_id"),
            categoryID: try id(row, "category_id"), payer: try id(row, "payer_id"), kind: try kind(row),
            amount: try money(row, amount: "amount", currency: "currency"), date: try date(try column(row, "date")),
            isLive: try column(row, "is_live"), sequenceNumber: try sequenceNumber(row, "sequence"),
            recordedAt: try timestamp(row, "recorded_at"), lastEditedAt: try optionalTimestamp(row, "edited_at"),
            deletedAt: try optionalTimestamp(row, "deleted_at"),
            originalAmount: try optionalMoney(row, amount: "original_amount", currency: "original_currency"),
            payee: try personalText(row, owner: "payee_owner", text: "payee"),
            subtitle: try personalText(row, owner: "subtitle_owner", text: "subtitle"))
    }

    /// The personal text in `text` with its owner in `owner` (P1), as ``PersonalText/storeValue``
    /// wrote it: a string is readable, a blob sealed, NULL with an owner redacted (P3); `nil` when
    /// both are NULL (a text without an owner is a damaged row).
    func personalText(_ row: Row, owner: String, text: String) throws(StoreError) -> PersonalText? {
        let value: DatabaseValue = row[text] ?? .null
        guard let person: PersonID = try optionalID(row, owner) else {
            guard value.isNull else { throw .invalidRow(path: path, table: table, reason: "\(text) without its owner") }
            return nil
        }
        switch value.storage {
        case .string(let string): return PersonalText(string, owner: person)
        case .blob(let sealed): return .sealed([UInt8](sealed), owner: person)
        case .null: return .redacted(owner: person)
        case .int64, .double: throw .invalidRow(path: path, table: table, reason: "\(text) is a number, not a personal text")
        }
    }

    /// A transaction's note (P1): its owner in `note_owner`, its text in the search index
    /// (`searchText`, the readable note), or its sealed bytes in `note_sealed`; redacted (P3)
    /// with neither; `nil` without an owner.
    func note(_ row: Row, searchText: String?) throws(StoreError) -> PersonalText? {
        guard let owner: PersonID = try optionalID(row, "note_owner") else { return nil }
        if let searchText { return PersonalText(searchText, owner: owner) }
        if let sealed = try column(row, "note_sealed", as: Data?.self) { return .sealed([UInt8](sealed), owner: owner) }
        return .redacted(owner: owner)
    }
}

extension Identifier {
    /// An id as the store keeps it: its 16 bytes. A blob sorts like the canonical text and
    /// takes less than half its room, in its row and in every index that holds it.
    var storeValue: Data { Data(value.bytes) }
}

extension PersonalText {
    /// A personal text as a store column holds it (P1): the readable text as a string, a sealed
    /// one's bytes as a blob (written back unchanged), NULL once redacted (P3).
    var storeValue: DatabaseValue {
        if let text { return text.databaseValue }
        if let sealedBytes { return Data(sealedBytes).databaseValue }
        return .null
    }
}
