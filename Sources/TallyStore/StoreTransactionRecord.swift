import Foundation
import GRDB
import TallyModel
import TallyProjections

/// The transaction book's record (``TransactionRecord``) as the store keeps it: its
/// `transactions` row (with the sequence number of its last change, the split rule, the payee
/// and subtitle), its tags, its shares and its note's text in the search index. One record of each transaction
/// on disk, which the queries read and the engine's validation reads back by key
/// (``LedgerStore/bookRecord(_:key:asOf:)``).
enum StoreTransactionRecord {
    /// The split rule column: the split's ratios and override flag (the shares are rows of
    /// their own) and the split with people as entered; nil when the record has neither.
    static func splitRule(of record: TransactionRecord) -> Data? {
        let split = record.details.split
        guard split != nil || record.splitWith != nil else { return nil }
        var writer = BinaryWriter()
        writeWire(split.map(\.ratios), to: &writer)
        writeWire(split?.isOverride ?? false, to: &writer)
        writeWire(record.splitWith, to: &writer)
        return Data(writer.bytes)
    }

    /// The record of the transaction whose id is `key` (``Identifier/storeValue``), from its
    /// rows; nil when it has no row.
    /// - Throws: ``StoreError/invalidRow(path:table:reason:)`` for rows the model refuses.
    static func read(key: Data, in database: Database, path: String) throws -> TransactionRecord? {
        let row = try Row.fetchOne(
            database.cachedStatement(sql: """
                SELECT transaction_id, wallet_id, category_id, payer_id, kind, amount, currency, date, is_live, sequence,
                    last_changed, note_owner, note_sealed, split_rule, recorded_at, edited_at, deleted_at, original_amount, original_currency,
                    payee_owner, payee, subtitle_owner, subtitle FROM transactions WHERE transaction_id = ?
                """),
            arguments: [key])
        guard let row else { return nil }
        return try record(row, in: database, path: path)
    }

    /// The record of a `transactions` row (all of its columns), with the rows kept beside it.
    private static func record(_ row: Row, in database: Database, path: String) throws -> TransactionRecord {
        let reader = StoreRowReader(path: path, table: "transactions")
        let key: Data = try reader.column(row, "transaction_id")
        let sequence = try reader.sequenceNumber(row, "sequence")
        let amount = try reader.money(row, amount: "amount", currency: "currency")
        let tags = try String.fetchAll(
            database.cachedStatement(sql: "SELECT tag FROM transaction_tags WHERE transaction_id = ? ORDER BY position"), arguments: [key])
        let shares = try Row.fetchAll(
            database.cachedStatement(sql: "SELECT person_id, amount FROM transaction_shares WHERE transaction_id = ? ORDER BY position"),
            arguments: [key]
        ).map { share throws(StoreError) in
            let person: PersonID = try StoreRowReader(path: path, table: "transaction_shares").id(share, "person_id")
            return PersonShare(person: person, amount: Money(minorUnits: try reader.column(share, "amount"), currency: amount.currency))
        }
        // A readable note's text is in the search index only (a sealed one in note_sealed).
        let searchText = try String?.fetchOne(
            database.cachedStatement(sql: "SELECT note FROM transaction_search WHERE rowid = ?"), arguments: [Int64(bitPattern: sequence)]) ?? nil
        let note = try reader.note(row, searchText: searchText)
        var split: TransactionSplit?
        var splitWith: GroupSplit?
        if let rule: Data = try reader.column(row, "split_rule") {
            do {
                var binary = BinaryReader([UInt8](rule))
                let ratios = try binary.read([MemberRatio]?.self)
                let isOverride = try binary.read(Bool.self)
                splitWith = try binary.read(GroupSplit?.self)
                guard binary.remainingCount == 0 else { throw EventCodecError.invalidValue(field: "split_rule", reason: "trailing bytes", offset: binary.offset) }
                split = ratios.map { TransactionSplit(ratios: $0, isOverride: isOverride, shares: shares) }
            } catch {
                throw StoreError.invalidRow(path: path, table: "transactions", reason: "split_rule: \(error)")
            }
        }
        guard split != nil || shares.isEmpty else {
            throw StoreError.invalidRow(path: path, table: "transaction_shares", reason: "shares of a transaction without a split")
        }
        let details = TransactionDetails(
            kind: try reader.kind(row), amount: amount, walletID: try reader.id(row, "wallet_id"), categoryID: try reader.id(row, "category_id"),
            date: try reader.date(try reader.column(row, "date")), note: note, tags: tags, payer: try reader.id(row, "payer_id"), split: split)
        return TransactionRecord(
            details: details, isLive: try reader.column(row, "is_live"), sequenceNumber: sequence, splitWith: splitWith,
            lastChanged: try reader.sequenceNumber(row, "last_changed"), recordedAt: try reader.timestamp(row, "recorded_at"),
            lastEditedAt: try reader.optionalTimestamp(row, "edited_at"), deletedAt: try reader.optionalTimestamp(row, "deleted_at"),
            originalAmount: try reader.optionalMoney(row, amount: "original_amount", currency: "original_currency"),
            payee: try reader.personalText(row, owner: "payee_owner", text: "payee"),
            subtitle: try reader.personalText(row, owner: "subtitle_owner", text: "subtitle"))
    }
}
