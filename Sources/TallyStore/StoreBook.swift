import Foundation
import GRDB
import TallyModel
import TallyProjections

/// A book of the engine's state that is a table of the store (``ArchiveSpace/isStoreTable``):
/// every commit writes its rows in place, and the engine's validation reads a record back by
/// key as of the checkpoint its state settled against (``LedgerStore/historyValue(space:key:asOf:)``).
/// The first commit after a checkpoint that changes a row keeps the record as of it in
/// `history` (the book's space), until the next checkpoint (Docs/Engine.md "The books are
/// tables"). One list of such books, one way of reading and keeping them.
enum StoreBook: CaseIterable {
    /// The transaction book (``StoreTransactionRecord``): `transactions` and the rows beside it.
    case transactions
    /// The transfer book (``StoreTransferRecord``): `transfers`.
    case transfers

    /// The book kept in `space`, if that space is a book of the store.
    init?(space: UInt8) {
        guard let book = Self.allCases.first(where: { $0.space.rawValue == space }) else { return nil }
        self = book
    }

    /// The books' spaces as an SQL list, `(8, 9)`.
    static let spaceList = "(" + allCases.map { String($0.space.rawValue) }.joined(separator: ", ") + ")"

    /// The engine's space of the book: where commits keep its records as of the checkpoint.
    var space: ArchiveSpace {
        switch self {
        case .transactions: .transactions
        case .transfers: .walletTransfers
        }
    }

    /// Its table, keyed by the record's id (16 bytes: the id's archive key is the same bytes).
    var table: String {
        switch self {
        case .transactions: "transactions"
        case .transfers: "transfers"
        }
    }

    var keyColumn: String {
        switch self {
        case .transactions: "transaction_id"
        case .transfers: "transfer_id"
        }
    }

    /// The record whose id is `key`, from its rows (its archive bytes, its last change and the
    /// sequence number that recorded it); nil when it has no row.
    /// - Throws: ``StoreError/invalidRow(path:table:reason:)`` for rows the model refuses.
    func record(key: Data, in database: Database, path: String) throws -> (value: [UInt8], lastChanged: UInt64, recorded: UInt64)? {
        switch self {
        case .transactions:
            try StoreTransactionRecord.read(key: key, in: database, path: path).map { ($0.archiveBytes, $0.lastChanged, $0.sequenceNumber) }
        case .transfers:
            try StoreTransferRecord.read(key: key, in: database, path: path).map { ($0.archiveBytes, $0.lastChanged, $0.sequenceNumber) }
        }
    }

    /// A record's key, checked: the archive's key and the table's are the same bytes, the id's
    /// 16 (`Identifier`'s wire form is its UUID's bytes, as `storeValue` is), so nothing is
    /// converted between them.
    /// - Throws: ``StoreError/invalidRow(path:table:reason:)`` for bytes that are no id.
    func checkedKey(_ key: some Collection<UInt8>, path: String) throws(StoreError) -> Data {
        guard UUIDValue(bytes: key) != nil else {
            throw .invalidRow(path: path, table: table, reason: "a key of \(key.count) bytes in the \(table) book, not an id")
        }
        return Data(key)
    }
}

/// The transfer book's record (``TransferRecord``) as the store keeps it: its `transfers` row,
/// the note's text with its owner (a personal text, P1: rewritten redacted when its owner is
/// forgotten, P3). The queries read the row and the engine's validation reads it back by key.
enum StoreTransferRecord {
    /// The record of the transfer whose id is `key`, from its row; nil when it has none.
    /// - Throws: ``StoreError/invalidRow(path:table:reason:)`` for a row the model refuses.
    static func read(key: Data, in database: Database, path: String) throws -> TransferRecord? {
        let row = try Row.fetchOne(
            database.cachedStatement(sql: """
                SELECT transfer_id, from_wallet_id, to_wallet_id, amount_sent, currency_sent, amount_received, currency_received,
                    date, is_live, sequence, last_changed, note_owner, note FROM transfers WHERE transfer_id = ?
                """),
            arguments: [key])
        guard let row else { return nil }
        let reader = StoreRowReader(path: path, table: "transfers")
        // A redacted note (its owner forgotten, P3) has no text.
        let note = try reader.personalText(row, owner: "note_owner", text: "note")
        let transfer = TransferRecorded(
            transferID: try reader.id(row, "transfer_id"), fromWalletID: try reader.id(row, "from_wallet_id"), toWalletID: try reader.id(row, "to_wallet_id"),
            amountSent: try reader.money(row, amount: "amount_sent", currency: "currency_sent"),
            amountReceived: try reader.money(row, amount: "amount_received", currency: "currency_received"),
            date: try reader.date(try reader.column(row, "date")), note: note)
        return TransferRecord(
            transfer: transfer, isLive: try reader.column(row, "is_live"), sequenceNumber: try reader.sequenceNumber(row, "sequence"),
            lastChanged: try reader.sequenceNumber(row, "last_changed"))
    }
}
