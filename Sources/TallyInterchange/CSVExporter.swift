import Tally
import TallyModel
import TallyProjections

/// CSV export of live transactions (seed 001 US-701, Flow US-050): `date,type,category,amount,note`
/// first, then `wallet,currency,shared,payer`, the amount charged in another currency
/// (`original_amount,original_currency`, T7; empty for most rows), the title and subtitle
/// (`payee,subtitle`, Swiff 1.1.2; empty when absent) and one `share:<name>` column per person holding a
/// share of a shared transaction (Docs/Interchange.md). Sorted by date, then transaction id.
/// Amounts are positive plain numbers (`1234.50`), the type says income or expense. Fields are
/// quoted when they hold the delimiter, a quote or a line break (RFC 4180).
public enum CSVExporter {
    /// The fixed columns, in order; the share columns follow.
    public static let header = [
        "date", "type", "category", "amount", "note", "wallet", "currency", "shared", "payer", "original_amount", "original_currency",
        "payee", "subtitle",
    ]

    /// Which transactions an export holds. Every filter given must match (an empty list or nil
    /// matches everything). Wallets, categories and the person are named by id or by name
    /// (case-insensitive); ``CSVExporter/export(_:filter:)`` resolves them.
    public struct Filter: Sendable, Equatable {
        /// The first date included.
        public var from: LocalDate?
        /// The last date included.
        public var through: LocalDate?
        /// Wallets (any of them), by name or id.
        public var wallets: [String]
        /// Categories (any of them), by name or id.
        public var categories: [String]
        /// G7: only what this person may see (their personal transactions and the shared ones
        /// they paid or have a share in), by name or id.
        public var person: String?
        /// How amounts are written (not a filter: every row is written in it).
        public var numberFormat: NumberFormat

        /// Creates a filter; the defaults export every live transaction, amounts `.plain`.
        public init(
            from: LocalDate? = nil, through: LocalDate? = nil, wallets: [String] = [], categories: [String] = [], person: String? = nil,
            numberFormat: NumberFormat = .plain
        ) {
            self.from = from
            self.through = through
            self.wallets = wallets
            self.categories = categories
            self.person = person
            self.numberFormat = numberFormat
        }
    }

    /// The CSV text of every live transaction of `history`.
    public static func export(_ history: LedgerHistory) -> String {
        let live = history.state.transactions.allEntries.filter { !$0.value.isDeleted }
        return text(rows: Array(live), history: history, numberFormat: .plain)
    }

    /// The CSV text of `history`'s live transactions that `filter` selects.
    ///
    /// - Throws: `InterchangeError` with code `unknownWallet`, `unknownCategory` or
    ///   `unknownPerson` naming the value that matches nothing, or `exportRangeInvalid` when
    ///   `from` is after `through`.
    public static func export(_ history: LedgerHistory, filter: Filter) throws(InterchangeError) -> String {
        let state = history.state
        try checkRange(from: filter.from, through: filter.through)
        var walletIDs = Set<WalletID>()
        for name in filter.wallets {
            walletIDs.insert(try resolve(name, in: state.wallets.map { (key: $0.key, value: $0.value.name) }, code: "unknownWallet", noun: "wallet"))
        }
        var categoryIDs = Set<CategoryID>()
        for name in filter.categories {
            let matches = state.categories.filter { !$0.value.isDeleted && ($0.key.description == name.lowercased() || $0.value.name.lowercased() == name.lowercased()) }
            guard !matches.isEmpty else {
                throw InterchangeError(code: "unknownCategory", message: "no category named \"\(name)\" (or with that id); see the names in `tally export --format csv`")
            }
            // An income and an expense category may share a name: both are selected.
            categoryIDs.formUnion(matches.keys)
        }
        let person = try filter.person.map { name throws(InterchangeError) in
            try resolve(name, in: state.people.map { (key: $0.key, value: $0.value.name.description) }, code: "unknownPerson", noun: "person")
        }
        let rows = state.transactions.allEntries.filter { _, record in
            let details = record.details
            return !record.isDeleted
                && filter.from.map { details.date >= $0 } ?? true
                && filter.through.map { details.date <= $0 } ?? true
                && (walletIDs.isEmpty || walletIDs.contains(details.walletID))
                && (categoryIDs.isEmpty || categoryIDs.contains(details.categoryID))
                && person.map { Viewer.member($0).sees(details) } ?? true
        }
        return text(rows: Array(rows), history: history, numberFormat: filter.numberFormat)
    }

    /// The id whose name (case-insensitive) or id is `value`.
    static func resolve<ID: Hashable & CustomStringConvertible>(
        _ value: String, in names: [(key: ID, value: String)], code: String, noun: String
    ) throws(InterchangeError) -> ID {
        let wanted = value.trimmingCharacters(in: .whitespaces).lowercased()
        if let byID = names.first(where: { $0.key.description == wanted }) { return byID.key }
        let byName = names.filter { $0.value.lowercased() == wanted }
        guard byName.count <= 1 else {
            throw InterchangeError(code: code, message: "\(byName.count) of the household's \(noun)s are named \"\(value)\"; give the id instead")
        }
        guard let match = byName.first else {
            throw InterchangeError(code: code, message: "no \(noun) named \"\(value)\" (or with that id)")
        }
        return match.key
    }

    /// The header, then one line per transaction, by date then id.
    private static func text(
        rows: [(key: TransactionID, value: TallyProjections.TransactionRecord)], history: LedgerHistory, numberFormat: NumberFormat
    ) -> String {
        let sorted = rows.sorted { ($0.value.details.date, $0.key) < ($1.value.details.date, $1.key) }
        let sharers = shareColumns(history: history)
        var lines = [(header + sharers.map(\.title)).joined(separator: ",")]
        for (_, record) in sorted {
            let details = record.details
            let shares = Dictionary(details.split?.shares.map { ($0.person, $0.amount) } ?? [], uniquingKeysWith: { first, _ in first })
            let fields = [
                details.date.isoString, String(describing: details.kind), history.categoryName(details.categoryID),
                numberFormat.text(details.amount), details.note?.description ?? "", history.walletName(details.walletID), details.amount.currency.code,
                details.split == nil ? "no" : "yes", history.personName(details.payer),
                record.originalAmount.map(numberFormat.text) ?? "", record.originalAmount?.currency.code ?? "",
                record.payee?.description ?? "", record.subtitle?.description ?? "",
            ] + sharers.map { shares[$0.person].map(numberFormat.text) ?? "" }
            lines.append(fields.map { CSVTable.quoted($0, delimiter: ",") }.joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One column per person holding a share of any live shared transaction of the ledger
    /// (not only of the exported rows, so filters never change the header), ordered by name
    /// then id; a name two people have gets the first 8 digits of the id appended.
    private static func shareColumns(history: LedgerHistory) -> [(person: PersonID, title: String)] {
        var people = Set<PersonID>()
        for (_, record) in history.state.transactions.allEntries where !record.isDeleted {
            for share in record.details.split?.shares ?? [] { people.insert(share.person) }
        }
        return personColumns(people, history: history)
    }

    /// `share:<name>` columns for `people`, ordered by name then id; a name two of them have
    /// gets ` #` and the first 8 digits of the id appended.
    static func personColumns(_ people: Set<PersonID>, history: LedgerHistory) -> [(person: PersonID, title: String)] {
        let named = people.map { (person: $0, name: history.personName($0)) }.sorted { ($0.name, $0.person) < ($1.name, $1.person) }
        let counts = Dictionary(named.map { ($0.name.lowercased(), 1) }, uniquingKeysWith: +)
        return named.map { entry in
            let unique = counts[entry.name.lowercased()] == 1
            return (entry.person, "share:" + entry.name + (unique ? "" : " #" + entry.person.description.prefix(8)))
        }
    }
}
