import ArgumentParser
import TallyModel
import TallyStore

/// The filters `tally transactions` and `tally report` share (a ``TransactionQuery``). Wallets
/// and categories are named by id or by their exact name; people by id or display name.
struct QueryOptions: ParsableArguments {
    @OptionGroup var viewer: ViewerOption
    @Option(name: .customLong("wallet"), help: ArgumentHelp("Only this wallet (id or name); repeat for several.", valueName: "WALLET"))
    var wallets: [String] = []
    @Option(name: .customLong("category"), help: ArgumentHelp("Only this category (id or name); repeat for several.", valueName: "CATEGORY"))
    var categories: [String] = []
    @Option(name: .customLong("payer"), help: ArgumentHelp("Only paid by this person (id or name); repeat for several.", valueName: "PERSON"))
    var payers: [String] = []
    @Option(name: .customLong("person"), help: ArgumentHelp("Only paid by this person or with a share of theirs (id or name); repeat for several.", valueName: "PERSON"))
    var people: [String] = []
    @Option(name: .customLong("sharing"), help: ArgumentHelp("Only shared transactions (with a split) or only personal ones.", valueName: "shared|personal"))
    var sharing: Sharing?
    @Option(name: .customLong("tag"), help: ArgumentHelp("Only with this tag (exactly as entered); repeat for any of several.", valueName: "TAG"))
    var tags: [String] = []
    @Option(name: .customLong("text"), help: ArgumentHelp("Only with every word of this text starting a word of the note or tags (case and accents ignored).", valueName: "TEXT"))
    var text: String?
    @Option(name: .customLong("kind"), help: ArgumentHelp("Only expense or income.", valueName: "KIND"))
    var kind: TransactionKind?
    @Option(name: .customLong("from"), help: ArgumentHelp("First business date.", valueName: "DATE")) var from: String?
    @Option(name: .customLong("to"), help: ArgumentHelp("Last business date.", valueName: "DATE")) var to: String?
    @Option(name: .customLong("month"), help: ArgumentHelp("Only this month (instead of --from/--to).", valueName: "YYYY-MM"))
    var month: String?
    @Option(name: .customLong("min-minor-units"), help: ArgumentHelp("Smallest amount, in minor units (cents).", valueName: "N"))
    var minMinorUnits: Int64?
    @Option(name: .customLong("max-minor-units"), help: ArgumentHelp("Largest amount, in minor units (cents).", valueName: "N"))
    var maxMinorUnits: Int64?
    @Option(name: .customLong("deleted"), help: ArgumentHelp("excluded (default), included, or only (recently deleted).", valueName: "WHICH"))
    var deleted: TransactionQuery.Deleted = .excluded

    /// The query these options describe, names resolved against `store` (wallets among those
    /// the viewer sees).
    func query(in store: LedgerStore) throws -> TransactionQuery {
        var query = TransactionQuery(visibleTo: try viewer.viewer(among: try store.personNames()))
        if !wallets.isEmpty {
            let known = try store.walletBalances(visibleTo: query.viewer).map { (id: $0.walletID, name: $0.name) }
            query.walletIDs = try wallets.map { try Self.resolve($0, "--wallet", known) }
        }
        if !categories.isEmpty {
            let known = try store.categoryNames().map { (id: $0.key, name: $0.value) }
            query.categoryIDs = try categories.map { try Self.resolve($0, "--category", known) }
        }
        if !payers.isEmpty || !people.isEmpty {
            let known = try store.personNames().map { (id: $0.key, name: $0.value) }
            query.payers = try payers.map { try Self.resolve($0, "--payer", known) }
            query.people = try people.map { try Self.resolve($0, "--person", known) }
        }
        query.shared = sharing.map { $0 == .shared }
        query.tags = tags
        query.text = text
        query.kinds = kind.map { [$0] } ?? []
        query.dates = try dates()
        if minMinorUnits != nil || maxMinorUnits != nil {
            let low = minMinorUnits ?? 0, high = maxMinorUnits ?? .max
            guard low <= high else { throw CLIError("--min-minor-units \(low) is above --max-minor-units \(high)") }
            query.minorUnits = low...high
        }
        query.deleted = deleted
        return query
    }

    private func dates() throws -> ClosedRange<LocalDate>? {
        if let month {
            guard from == nil, to == nil else { throw CLIError("--month cannot be combined with --from or --to") }
            guard let value = try? YearMonth(iso: month) else { throw CLIError("--month \(month): expected a month YYYY-MM") }
            return value.firstDay...value.lastDay
        }
        return try Self.range(from: from, to: to)
    }

    /// The business dates `--from` and `--to` name (either open); `nil` without both.
    static func range(from: String?, to: String?) throws -> ClosedRange<LocalDate>? {
        guard from != nil || to != nil else { return nil }
        let first = try from.map { try LedgerAccess.date($0, option: "--from") } ?? .min
        let last = try to.map { try LedgerAccess.date($0, option: "--to") } ?? .max
        guard first <= last else { throw CLIError("--from \(first) is after --to \(last)") }
        return first...last
    }

    /// The id `text` names: an id, or the one exact name among `known`.
    static func resolve<Kind>(_ text: String, _ option: String, _ known: [(id: Identifier<Kind>, name: String)]) throws -> Identifier<Kind> {
        if let id = try? Identifier<Kind>(parsing: text) { return id }
        // The exact name, else the name in any case; never the first of several (hash order).
        var matches = known.filter { $0.name == text }
        if matches.isEmpty { matches = known.filter { $0.name.lowercased() == text.lowercased() } }
        guard matches.count == 1, let match = matches.first else {
            let names = known.map(\.name).sorted()
            let shown = names.prefix(Self.namesShownMax).joined(separator: ", ") + (names.count > Self.namesShownMax ? ", and \(names.count - Self.namesShownMax) more" : "")
            throw CLIError(matches.isEmpty
                ? "\(option) \(text): no such id or name; known: \(shown)"
                : "\(option) \(text): \(matches.count) have this name (\(matches.map(\.id.description).sorted().joined(separator: ", "))); use the id")
        }
        return match.id
    }

    /// How many known names an error lists (a household keeps thousands of contacts).
    static let namesShownMax = 20
}

/// The paging options of the list subcommands (`transactions`, `statement`): the order, the
/// page size and the cursor the page before printed.
struct PageOptions: ParsableArguments {
    @Option(name: .customLong("sort"), help: ArgumentHelp("date-desc (default), date-asc, amount-desc, amount-asc, category (by category name, newest first within one) or deleted-desc (latest deletion first, deleted only; a statement: by date only).", valueName: "ORDER"))
    var order: TransactionQuery.Order = .newestFirst
    @Option(name: .customLong("limit"), help: ArgumentHelp("Rows per page, 1...\(TransactionQuery.limitMax).", valueName: "N"))
    var limit = 50
    @Option(name: .customLong("after"), help: ArgumentHelp("The cursor a previous page printed.", valueName: "CURSOR"))
    var after: String?

    /// The cursor `--after` names.
    /// - Throws: a CLI error for text that is no cursor.
    func cursor() throws -> TransactionCursor? {
        try after.map { text throws -> TransactionCursor in
            guard let cursor = TransactionCursor(text) else { throw CLIError("--after \(text): not a cursor printed by a page of this list") }
            return cursor
        }
    }
}

extension TransactionQuery.Deleted: ExpressibleByArgument {}

/// `--sharing shared|personal`.
enum Sharing: String, ExpressibleByArgument, CaseIterable {
    case shared, personal
}

extension TransactionKind: ExpressibleByArgument {
    /// A kind by its case name (`expense`, `income`), as commands and reports write it.
    public init?(argument: String) {
        guard let kind = Self.allCases.first(where: { String(describing: $0) == argument }) else { return nil }
        self = kind
    }

    public static var allValueStrings: [String] { allCases.map { String(describing: $0) } }
}
extension TransactionQuery.Order: ExpressibleByArgument {}
