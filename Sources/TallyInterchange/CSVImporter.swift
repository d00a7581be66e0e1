import Foundation
import Tally
import TallyModel

/// CSV import (Docs/Domain.md, section 9): column mapping, date-format detection, category mapping, duplicate
/// detection (same date, amount, wallet and note) and deterministic ids, so importing the
/// same file twice inserts nothing the second time.
public struct CSVImporter: Sendable {
    /// Which header names hold which field. Defaults accept the export's own header.
    public struct Mapping: Sendable, Equatable {
        public var date = "date"
        public var amount = "amount"
        public var note: String? = "note"
        public var category: String? = "category"
        public var type: String? = "type"

        /// The defaults.
        public init() {}

        /// Parses `date=Datum,amount=Betrag,note=Text,category=Kategorie,type=Art`.
        public init(parsing text: String) throws(InterchangeError) {
            for pair in text.split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2 else { throw InterchangeError(code: "csvMappingInvalid", message: "\"\(pair)\" is not field=column") }
                switch parts[0] {
                case "date": date = parts[1]
                case "amount": amount = parts[1]
                case "note": note = parts[1]
                case "category": category = parts[1]
                case "type": type = parts[1]
                default: throw InterchangeError(code: "csvMappingInvalid", message: "unknown field \"\(parts[0])\"; use date, amount, note, category, type")
                }
            }
        }
    }

    /// One row's outcome.
    public struct RowResult: Sendable, Equatable {
        /// `inserted`: planned for the batch; `skipped`: a duplicate; `failed`: refused.
        public enum Status: String, Sendable { case inserted, skipped, failed }
        /// The 1-based line the row starts on in the file (the header is line 1).
        public var line: Int
        /// What happens to the row.
        public var status: Status
        /// Why the row is skipped or failed.
        public var reason: String?
        /// The header name of the cell that failed, when one cell is the reason.
        public var column: String?
    }

    /// The plan: commands to execute and every row's outcome.
    public struct Plan: Sendable {
        public var commands: [Command]
        public var rows: [RowResult]
        public var delimiter: Character
        public var dateFormat: CSVDateFormat
        public var inserted: Int { rows.filter { $0.status == .inserted }.count }
        public var skipped: Int { rows.filter { $0.status == .skipped }.count }
        public var failed: Int { rows.filter { $0.status == .failed }.count }

        /// The commands to execute as one batch: all rows or none (G6). A file with a failed
        /// row imports nothing, so a fixed file can be imported again without leaving half of
        /// it in the ledger (the rows that did go in would be skipped as duplicates anyway, but
        /// a mistyped amount would not be).
        ///
        /// - Throws: `InterchangeError` with code `csvRowsFailed` naming the failed rows.
        public func batch() throws(InterchangeError) -> [Command] {
            let failures = rows.filter { $0.status == .failed }
            guard failures.isEmpty else {
                let first = failures.prefix(3).map { "line \($0.line)\($0.column.map { ", column \($0)" } ?? ""): \($0.reason ?? "failed")" }
                throw InterchangeError(code: "csvRowsFailed", message: "\(failures.count) row(s) failed (\(first.joined(separator: "; "))\(failures.count > 3 ? "; ..." : "")); nothing was imported; fix them and import the file again")
            }
            return commands
        }
    }

    public var mapping: Mapping
    public var walletName: String
    public var dateFormat: CSVDateFormat?
    public var defaultCategory: String?
    public var actor: PersonID?
    public var recordedAt: Timestamp

    /// Creates an importer for one wallet.
    public init(walletName: String, mapping: Mapping = Mapping(), dateFormat: CSVDateFormat? = nil,
                defaultCategory: String? = nil, actor: PersonID? = nil, recordedAt: Timestamp) {
        self.walletName = walletName
        self.mapping = mapping
        self.dateFormat = dateFormat
        self.defaultCategory = defaultCategory
        self.actor = actor
        self.recordedAt = recordedAt
    }

    /// Plans the import of `text` into `ledger` (see ``plan(bytes:ledger:)``).
    public func plan(_ text: String, ledger: Ledger) async throws(InterchangeError) -> Plan {
        let state = await ledger.state
        return try plan(bytes: Array(text.utf8), state: state)
    }

    /// Plans the import of a CSV file's bytes into `ledger`, as of its last acknowledged batch
    /// (its wallets, categories, household, and its transactions for duplicate detection).
    ///
    /// The bytes must be UTF-8 (a leading byte order mark is dropped) and strict RFC 4180
    /// (``CSVTable``). Amounts: ``CSVAmount`` (`-12.50`, `12,5`, `1'234.50`); an ambiguous one
    /// fails its row; negative means expense when there is no type column. Ids derive from
    /// the file's bytes and the row's line, so a replayed import produces the same commands.
    /// Execute ``Plan/batch()`` on the same ledger: a plan with a failed row imports nothing.
    ///
    /// - Throws: `InterchangeError`: ``CSVTable/parse(bytes:)``'s codes, `unknownWallet`,
    ///   `noHousehold`, `csvColumnMissing`, `csvDateAmbiguous`.
    public func plan(bytes: [UInt8], ledger: Ledger) async throws(InterchangeError) -> Plan {
        let state = await ledger.state
        return try plan(bytes: bytes, state: state)
    }

    /// Plans the import of `text` against the validation state `state` (see
    /// ``plan(bytes:state:)``).
    package func plan(_ text: String, state: LedgerState) throws(InterchangeError) -> Plan {
        try plan(bytes: Array(text.utf8), state: state)
    }

    /// Plans the import of a CSV file's bytes against the validation state `state`, as
    /// ``plan(bytes:ledger:)`` does against a ledger's (package-internal: the CLI plans against
    /// a ``LedgerHistory``'s state, the fuzz target against a fixed one).
    /// - Throws: as ``plan(bytes:ledger:)``.
    package func plan(bytes: [UInt8], state: LedgerState) throws(InterchangeError) -> Plan {
        let table = try CSVTable.parse(bytes: bytes)
        guard let wallet = state.wallets.first(where: { $0.value.name.lowercased() == walletName.lowercased() && !$0.value.isClosed }) else {
            throw InterchangeError(code: "unknownWallet", message: "no open wallet named \"\(walletName)\"")
        }
        guard let payer = actor ?? state.household?.admin else {
            throw InterchangeError(code: "noHousehold", message: "the ledger has no household yet")
        }
        func column(_ name: String?) throws(InterchangeError) -> Int? {
            guard let name else { return nil }
            return table.header.firstIndex { $0.trimmingCharacters(in: .whitespaces).lowercased() == name.lowercased() }
        }
        guard let dateColumn = try column(mapping.date) else {
            throw InterchangeError(code: "csvColumnMissing", message: "no column \"\(mapping.date)\" in the header \(table.header)")
        }
        guard let amountColumn = try column(mapping.amount) else {
            throw InterchangeError(code: "csvColumnMissing", message: "no column \"\(mapping.amount)\" in the header \(table.header)")
        }
        let noteColumn = try column(mapping.note)
        let categoryColumn = try column(mapping.category)
        let typeColumn = try column(mapping.type)
        let format: CSVDateFormat
        if let dateFormat { format = dateFormat } else { format = try CSVDateFormat.detect(table.rows.map { $0[dateColumn] }) }
        let namespace = UUIDValue.derived(namespace: UUIDValue(high: 0x7461_6c6c_792d_6373, low: 0x762d_696d_706f_7274), name: Self.digest(bytes))

        var existing = Set(state.transactions.allEntries.values.filter { !$0.isDeleted && $0.details.walletID == wallet.key }
            .map { DuplicateKey(date: $0.details.date, amount: $0.details.amount, note: $0.details.note?.description ?? "") })
        var commands: [Command] = []
        var rows: [RowResult] = []
        for (row, line) in zip(table.rows, table.rowLines) {
            func fail(_ reason: String, column: Int? = nil) {
                rows.append(RowResult(line: line, status: .failed, reason: reason, column: column.map { table.header[$0] }))
            }
            guard let date = format.parse(row[dateColumn]) else { fail("date \"\(row[dateColumn])\" is not \(format.rawValue)", column: dateColumn); continue }
            let signed: Int64
            do { signed = try CSVAmount.minorUnits(row[amountColumn], currency: wallet.value.currency) } catch {
                fail("amount \"\(row[amountColumn])\": \(error.reason)", column: amountColumn); continue
            }
            let kind: TransactionKind
            if let typeColumn, let parsed = TransactionKind.allCases.first(where: { String(describing: $0) == row[typeColumn].lowercased() }) {
                kind = parsed
            } else {
                kind = signed < 0 ? .expense : .income
            }
            guard signed != 0 else { fail("amount is zero (T1)", column: amountColumn); continue }
            let amount = Money(minorUnits: signed.magnitude > UInt64(Int64.max) ? .max : Int64(signed.magnitude), currency: wallet.value.currency)
            let note = noteColumn.map { row[$0] } ?? ""
            let categoryName = categoryColumn.map { row[$0] }.flatMap { $0.isEmpty ? nil : $0 } ?? defaultCategory
            let group: CategoryGroup = kind == .income ? .income : .expense
            guard let categoryName else { fail("no category (map a column or pass a default category)", column: categoryColumn); continue }
            guard let category = state.categories.first(where: {
                $0.value.name.lowercased() == categoryName.lowercased() && $0.value.group == group && !$0.value.isDeleted
            }) else { fail("no \(group) category named \"\(categoryName)\"", column: categoryColumn); continue }
            let key = DuplicateKey(date: date, amount: amount, note: note)
            guard !existing.contains(key) else {
                rows.append(RowResult(line: line, status: .skipped, reason: "duplicate: same date, amount, wallet and note")); continue
            }
            existing.insert(key)
            let entry = TransactionEntry(kind: kind, amount: amount, walletID: wallet.key, categoryID: category.key, date: date,
                                         note: note.isEmpty ? nil : note, payer: payer)
            commands.append(Command(
                commandID: CommandID(.derived(namespace: namespace, name: "command.\(line)")), actor: payer, recordedAt: recordedAt,
                action: .recordTransaction(TransactionID(.derived(namespace: namespace, name: "transaction.\(line)")), entry)))
            rows.append(RowResult(line: line, status: .inserted, reason: nil))
        }
        return Plan(commands: commands, rows: rows, delimiter: table.delimiter, dateFormat: format)
    }

    struct DuplicateKey: Hashable {
        var date: LocalDate
        var amount: Money
        var note: String
    }

    /// FNV-1a 64 of the bytes, as hex: the namespace of a file's ids.
    static func digest(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return String(hash, radix: 16)
    }
}
