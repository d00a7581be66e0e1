import Foundation
import Tally
import TallyProjections
import TallyModel

/// CSV import (Docs/Domain.md, section 9; Docs/Interchange.md): column mapping, date-format
/// detection, an account column (several wallets in one file), a payee, category mapping,
/// duplicate detection (an external id, else the same date, amount, wallet and note) with a
/// choice of skipping or replacing duplicates, and deterministic ids, so importing the same file
/// twice inserts nothing the second time.
public struct CSVImporter: Sendable {
    /// Which header names hold which field. Defaults accept the export's own header.
    public struct Mapping: Sendable, Equatable {
        public var date = "date"
        public var amount = "amount"
        public var note: String? = "note"
        public var category: String? = "category"
        public var type: String? = "type"
        /// The wallet of each row, by name or id (a missing column or an empty cell: the
        /// importer's ``CSVImporter/walletName``).
        public var account: String? = "wallet"
        /// Who was paid or paid: the transaction's `payee` (Swiff 1.1.2), which category
        /// suggestions learn by (US-072).
        public var payee: String? = "payee"
        /// The bank's id of the row: the duplicate key when present (Docs/Interchange.md).
        public var externalID: String? = "external_id"

        /// The fields a mapping names, as `field=column` accepts them.
        public static let fields = ["date", "amount", "note", "category", "type", "account", "payee", "external_id"]

        /// The defaults.
        public init() {}

        /// Parses `date=Datum,amount=Betrag,note=Text,category=Kategorie,type=Art,account=Konto,payee=Empfänger,external_id=Referenz`.
        /// A field named twice is refused, never the last one taken (issue 29).
        public init(parsing text: String) throws(InterchangeError) {
            var named: [String: String] = [:]
            for pair in text.split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2, !parts[1].isEmpty else { throw InterchangeError(code: "csvMappingInvalid", message: "\"\(pair)\" is not field=column") }
                try set(parts[0], to: parts[1])
                let field = Self.canonicalField(parts[0])
                if let earlier = named[field] {
                    throw InterchangeError(code: "csvMappingInvalid", message: "the field \(field) is mapped twice (\(earlier) and \(parts[1])); map each field once")
                }
                named[field] = parts[1]
            }
        }

        /// `field` as ``fields`` names it (`wallet` is `account`, `externalid` is `external_id`).
        static func canonicalField(_ field: String) -> String {
            switch field.lowercased() {
            case "wallet": "account"
            case "externalid": "external_id"
            default: field.lowercased()
            }
        }

        /// Maps `field` (one of ``fields``; `wallet` is `account`) to the header `column`.
        public mutating func set(_ field: String, to column: String) throws(InterchangeError) {
            switch field.lowercased() {
            case "date": date = column
            case "amount": amount = column
            case "note": note = column
            case "category": category = column
            case "type": type = column
            case "account", "wallet": account = column
            case "payee": payee = column
            case "external_id", "externalid": externalID = column
            default: throw InterchangeError(code: "csvMappingInvalid", message: "unknown field \"\(field)\"; use \(Self.fields.joined(separator: ", "))")
            }
        }

        /// `field=column` pairs in ``fields`` order (optional fields only when set).
        public var pairs: [(field: String, column: String)] {
            let values: [String?] = [date, amount, note, category, type, account, payee, externalID]
            return zip(Self.fields, values).compactMap { field, column in column.map { (field, $0) } }
        }
    }

    /// What a row that duplicates a live transaction does (Drishti E6-S7, Flow US-071).
    public enum DuplicatePolicy: String, Sendable, CaseIterable {
        /// Leave the transaction as it is; the row is `skipped`.
        case skip
        /// Edit the transaction to the row's values (`editTransaction`, G4: a new event, never a
        /// rewrite); the row is `replaced`, or `skipped` when nothing differs.
        case replace
        /// Record the row as a transaction of its own beside the duplicate (Flow US-071 "keep
        /// both"); the row is `inserted`. Only for duplicates by date, amount, wallet and note: a
        /// row whose external id was imported before is that bank record again and is skipped.
        case keepBoth = "keep-both"
    }

    /// What a row whose category the ledger does not have does (Flow US-046).
    public enum UnknownCategoryPolicy: String, Sendable, CaseIterable {
        /// The row fails, naming the `category` column (the default).
        case fail
        /// The import creates the category (`createCategory`, the row's group, budget type
        /// none) in the same batch and lists it in ``Plan/newCategories`` for review.
        case create
    }

    /// A category the import creates for an unknown name (``UnknownCategoryPolicy/create``).
    public struct NewCategory: Sendable, Hashable {
        /// The category's id (derived from the file and the name, so a replayed import is the same).
        public let categoryID: CategoryID
        /// Its name, as the first row that needs it writes it.
        public let name: String
        /// Income or expense: the group of the row's kind.
        public let group: CategoryGroup
        /// The first row that needs it.
        public let line: Int
    }

    /// A column found by its content because the header has no column of the mapped name
    /// (Flow US-046).
    public struct DetectedColumn: Sendable, Hashable {
        /// The field: `date`, `amount` or `category`.
        public let field: String
        /// The column's header.
        public let column: String
    }

    /// One row's outcome.
    public struct RowResult: Sendable, Equatable {
        /// `inserted`: planned as a new transaction; `replaced`: planned as an edit of a
        /// duplicate; `skipped`: a duplicate left as it is; `failed`: refused.
        public enum Status: String, Sendable { case inserted, replaced, skipped, failed }
        /// The 1-based line the row starts on in the file (the header is line 1).
        public var line: Int
        /// What happens to the row.
        public var status: Status
        /// Why the row is skipped, replaced or failed.
        public var reason: String?
        /// The header name of the cell that failed, when one cell is the reason.
        public var column: String?
        /// The category suggested for a row without a category cell and used for it (Flow
        /// US-072, ``CategorySuggestions``); `nil` when the row named its category.
        public var suggestion: CategorySuggestion?
    }

    /// The plan: commands to execute and every row's outcome.
    public struct Plan: Sendable {
        /// The commands of the rows that did not fail (a failed row plans none): executed as
        /// one batch, they are the import that applies the valid rows and reports each failed
        /// one by ``rows`` (line and column); ``batch()`` is the default, all rows or none.
        public var commands: [Command]
        public var rows: [RowResult]
        public var delimiter: Character
        public var dateFormat: CSVDateFormat
        /// The categories the import creates (``UnknownCategoryPolicy/create``), for review.
        public var newCategories: [NewCategory] = []
        /// The columns found by content (Flow US-046), in field order.
        public var detectedColumns: [DetectedColumn] = []
        public var inserted: Int { rows.filter { $0.status == .inserted }.count }
        public var replaced: Int { rows.filter { $0.status == .replaced }.count }
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
    /// The wallet of rows without an account cell (name or id); nil: every row needs one.
    public var walletName: String?
    public var dateFormat: CSVDateFormat?
    public var defaultCategory: String?
    /// The file's category names (case-insensitive) to the ledger's category names (Flow
    /// US-049: several file names may map to one category). Names not in it are used as they are.
    public var categoryMapping: [String: String] = [:]
    /// What a duplicate row does.
    public var duplicates = DuplicatePolicy.skip
    /// What a row with an unknown category does.
    public var unknownCategories = UnknownCategoryPolicy.fail
    /// Where the rows come from (a bank, a file): every transaction the import records carries
    /// the tag ``sourceTag`` (`import:<source>`), so imported rows show it and a list filters
    /// on it (Flow US-071). `nil`: no mark.
    public var source: String?

    /// The tag marking the import's transactions: ``sourceTagPrefix`` and ``source``.
    public var sourceTag: String? { source.map { Self.sourceTagPrefix + $0 } }

    /// What a ``sourceTag`` starts with.
    public static let sourceTagPrefix = "import:"
    /// What each row becomes: a transaction (the default), or a balance point (W5; Drishti
    /// E6-S4, Tim's snapshots: a wallet's balance history), whose amount is the wallet's
    /// balance on the row's date and whose duplicate is a point of the same wallet and date.
    public var target = Target.transactions

    /// What a CSV row becomes.
    public enum Target: String, Sendable, CaseIterable {
        /// A `recordTransaction` (signed amount or a type column; category, note, payee).
        case transactions
        /// A `recordBalance`: the amount cell is the balance (negative allowed: an overdraft);
        /// category, type and note columns are not read.
        case balancePoints = "balances"
    }
    public var actor: PersonID?
    public var recordedAt: Timestamp

    /// Creates an importer; `walletName` is the wallet of rows without an account cell.
    public init(walletName: String?, mapping: Mapping = Mapping(), dateFormat: CSVDateFormat? = nil,
                defaultCategory: String? = nil, actor: PersonID? = nil, recordedAt: Timestamp) {
        self.walletName = walletName
        self.mapping = mapping
        self.dateFormat = dateFormat
        self.defaultCategory = defaultCategory
        self.actor = actor
        self.recordedAt = recordedAt
    }

    /// Uses the saved mapping `saved` (section 9, "Saved mappings"): its columns replace those
    /// fields of ``mapping`` (the others keep theirs), its category pairs are added to
    /// ``categoryMapping`` (by category id, so a renamed category still matches).
    public mutating func use(_ saved: ImportMappingSaved) throws(InterchangeError) {
        for pair in saved.columns { try mapping.set(pair.field, to: pair.column) }
        for pair in saved.categories { categoryMapping[pair.name.lowercased()] = pair.categoryID.description }
    }

    /// The namespace of transaction ids derived from an external id: fixed, so a re-import of
    /// any file carrying the same external id for the same wallet finds the transaction.
    static let externalNamespace = UUIDValue(high: 0x7461_6c6c_792d_6578, low: 0x7465_726e_616c_6964)

    /// The transaction id a row with `externalID` gets in `wallet` (Docs/Interchange.md: the
    /// id is the persisted record of the import, in the `TransactionRecorded` event itself).
    public static func transactionID(externalID: String, wallet: WalletID) -> TransactionID {
        TransactionID(.derived(namespace: externalNamespace, name: "\(wallet).\(externalID)"))
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
    /// the file's bytes and the row's line (or from the wallet and the external id), so a
    /// replayed import produces the same commands.
    /// Execute ``Plan/batch()`` on the same ledger: a plan with a failed row imports nothing.
    ///
    /// - Throws: `InterchangeError`: ``CSVTable/parse(bytes:)``'s codes, `unknownWallet`,
    ///   `csvWalletMissing`, `noHousehold`, `csvColumnMissing` (neither the header nor the
    ///   content gives the date or amount column), `csvColumnAmbiguous` (several columns' content
    ///   could be it), `csvColumnDuplicate` (a mapped column named twice in the header),
    ///   `csvDateAmbiguous`, `csvSourceInvalid` (a ``source`` too long for a tag).
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
        let defaultWallet = try walletName.map { name throws(InterchangeError) in
            guard let wallet = Self.openWallet(name, in: state) else {
                throw InterchangeError(code: "unknownWallet", message: "no open wallet named \"\(name)\" (or with that id)")
            }
            return wallet
        }
        guard let payer = actor ?? state.household?.admin, let household = state.household else {
            throw InterchangeError(code: "noHousehold", message: "the ledger has no household yet")
        }
        if let source, source.trimmingCharacters(in: .whitespaces).isEmpty || Self.sourceTagPrefix.utf8.count + source.utf8.count > LedgerLimits.tagBytesMax {
            let bytesMax = LedgerLimits.tagBytesMax - Self.sourceTagPrefix.utf8.count
            throw InterchangeError(code: "csvSourceInvalid", message: "the import source \"\(source)\" must be 1 to \(bytesMax) UTF-8 bytes, not blank: it becomes the tag \(Self.sourceTagPrefix)\(source)")
        }
        try Self.requireDistinctMappedColumns(mapping, in: table)
        func column(_ name: String?) -> Int? {
            guard let name else { return nil }
            return table.header.firstIndex { $0.trimmingCharacters(in: .whitespaces).lowercased() == name.lowercased() }
        }
        let byHeader = mapping.pairs.compactMap { column($0.column) }
        var detection = ColumnDetection(
            table: table, state: state, currency: defaultWallet?.value.currency ?? household.baseCurrency, dateFormat: dateFormat,
            categoryMapping: categoryMapping, claimed: Set(byHeader))
        let dateColumn = try detection.date(mapped: column(mapping.date), name: mapping.date)
        let amountColumn = try detection.amount(mapped: column(mapping.amount), name: mapping.amount)
        let accountColumn = column(mapping.account)
        guard defaultWallet != nil || accountColumn != nil else {
            throw InterchangeError(code: "csvWalletMissing", message: "no wallet for the rows: name one (--wallet) or map an account column (account=COLUMN)")
        }
        let categoryColumn = target == .transactions ? detection.category(mapped: column(mapping.category)) : column(mapping.category)
        let columns = Columns(
            date: dateColumn, amount: amountColumn, note: column(mapping.note), category: categoryColumn,
            type: column(mapping.type), account: accountColumn, payee: column(mapping.payee), externalID: column(mapping.externalID))
        let format: CSVDateFormat
        if let dateFormat { format = dateFormat } else { format = try CSVDateFormat.detect(table.rows.map { $0[dateColumn] }) }
        var planner = Planner(
            importer: self, state: state, table: table, columns: columns, format: format, payer: payer, defaultWallet: defaultWallet,
            namespace: UUIDValue.derived(namespace: UUIDValue(high: 0x7461_6c6c_792d_6373, low: 0x762d_696d_706f_7274), name: Self.digest(bytes)))
        for (row, line) in zip(table.rows, table.rowLines) { planner.plan(row, line: line) }
        return Plan(
            commands: planner.commands, rows: planner.rows, delimiter: table.delimiter, dateFormat: format,
            newCategories: planner.newCategories, detectedColumns: detection.detected)
    }

    /// Refuses a header in which a mapped column's name (compared as the mapping compares it:
    /// trimmed, case-insensitive) appears more than once: which of the columns holds the field
    /// would be a guess.
    ///
    /// - Throws: `InterchangeError` with code `csvColumnDuplicate` naming the header's line, the
    ///   field and the 1-based positions of the columns.
    static func requireDistinctMappedColumns(_ mapping: Mapping, in table: CSVTable) throws(InterchangeError) {
        for (field, name) in mapping.pairs {
            let positions = table.header.indices.filter {
                table.header[$0].trimmingCharacters(in: .whitespaces).lowercased() == name.lowercased()
            }
            guard positions.count > 1 else { continue }
            let columns = positions.map { "column \($0 + 1) (\"\(table.header[$0])\")" }
            throw InterchangeError(
                code: "csvColumnDuplicate",
                message: "line \(table.headerLine): the header names the \(field) column \"\(name)\" \(positions.count) times: \(columns.joined(separator: " and ")); rename or remove all but one, or map \(field) to another column (\(field)=COLUMN); nothing was imported")
        }
    }

    /// The open wallet named `name` (case-insensitive) or with that id.
    static func openWallet(_ name: String, in state: LedgerState) -> (key: WalletID, value: WalletRecord)? {
        let wanted = name.trimmingCharacters(in: .whitespaces).lowercased()
        return state.wallets.first { !$0.value.isClosed && $0.key.description == wanted }
            ?? state.wallets.first { !$0.value.isClosed && $0.value.name.lowercased() == wanted }
    }

    struct Columns {
        var date: Int
        var amount: Int
        var note: Int?
        var category: Int?
        var type: Int?
        var account: Int?
        var payee: Int?
        var externalID: Int?
    }

    struct DuplicateKey: Hashable {
        var wallet: WalletID
        var date: LocalDate
        var amount: Money
        /// The payee and note as ``text(payee:note:)`` joins them.
        var note: String

        /// `payee: note` (either alone when the other is absent): the form the import wrote into
        /// the note before payees had a field, so a file imported then and again now matches.
        static func text(payee: String?, note: String?) -> String {
            [payee, note].compactMap { $0 }.joined(separator: ": ")
        }
    }

    /// FNV-1a 64 of the bytes, as hex: the namespace of a file's ids.
    static func digest(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return String(hash, radix: 16)
    }
}

extension CSVImporter {
    /// The live category named `name` (case-insensitive) or with that id, for a category mapping.
    ///
    /// - Throws: `InterchangeError` with code `unknownCategory` when none or two (an income and
    ///   an expense category of that name: give the id) match.
    public static func category(named name: String, in history: LedgerHistory) throws(InterchangeError) -> CategoryID {
        let wanted = name.trimmingCharacters(in: .whitespaces).lowercased()
        let live = history.state.categories.filter { !$0.value.isDeleted }
        if let byID = live.first(where: { $0.key.description == wanted }) { return byID.key }
        let byName = live.filter { $0.value.name.lowercased() == wanted }
        guard byName.count == 1, let match = byName.first else {
            throw InterchangeError(
                code: "unknownCategory",
                message: byName.isEmpty ? "no category named \"\(name)\" (or with that id)" : "\(byName.count) categories are named \"\(name)\"; give the id instead")
        }
        return match.key
    }
}
