import ArgumentParser
import TallyModel
import TallyProjections
import TallyStore

/// `tally settlements`: one page of the settlements (S6) from the read-side store
/// (Docs/Queries.md "Settlements"), as a table or JSON; `--after` continues where the last page ended.
struct SettlementsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settlements", abstract: "List settlements: by person, group and dates, one page at a time.",
        discussion: "Reads the read-side store (it is caught up or rebuilt first when it does not show the journal's end). With --as, only the settlements that person paid or received. The last line names the --after cursor of the next page.")

    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions
    @OptionGroup var viewer: ViewerOption
    @Option(name: .customLong("person"), help: ArgumentHelp("Only paid or received by this person (id or name); repeat for several.", valueName: "PERSON"))
    var people: [String] = []
    @Option(name: .customLong("group"), help: ArgumentHelp("Only settlements of this group (its id); repeat for several.", valueName: "GROUP-ID"))
    var groups: [String] = []
    @Flag(name: .customLong("household"), help: "Only settlements of household debts (no group).") var household = false
    @Option(name: .customLong("from"), help: ArgumentHelp("First business date.", valueName: "DATE")) var from: String?
    @Option(name: .customLong("to"), help: ArgumentHelp("Last business date.", valueName: "DATE")) var to: String?
    @OptionGroup var paging: PageOptions
    @Flag(help: "Print JSON: {\"rows\":[...],\"next\":CURSOR|null}.") var json = false

    func run() async throws {
        let path = try location.path()
        let cursor = try paging.cursor()
        let dates = try QueryOptions.range(from: from, to: to)
        guard !(household && !groups.isEmpty) else { throw CLIError("--household cannot be combined with --group") }
        let groupIDs = try groups.map { text throws -> GroupID in
            guard let id = try? GroupID(parsing: text) else { throw CLIError("--group \(text): expected a group id") }
            return id
        }
        let page = try StoreAccess.read(at: path, encryption: try key.encryption()) { store in
            let names = try store.personNames()
            var query = SettlementQuery(visibleTo: try viewer.viewer(among: names))
            let known = names.map { (id: $0.key, name: $0.value) }
            query.people = try people.map { try QueryOptions.resolve($0, "--person", known) }
            query.scope = household ? .household : (groupIDs.isEmpty ? .any : .groups(groupIDs))
            query.dates = dates
            query.order = paging.order
            query.limit = paging.limit
            query.after = cursor
            return try store.settlements(query)
        }
        try Terminal.line(json ? Self.json(page) : Self.table(page))
    }

    static func table(_ page: SettlementPage) -> String {
        var table = TextTable([("Date", .left), ("From", .left), ("To", .left), ("Amount", .right), ("Group", .left), ("Method", .left)])
        for row in page.rows {
            table.add([
                row.date.isoString, row.fromName ?? row.from.description, row.toName ?? row.to.description, row.amount.formatted(),
                row.groupID?.description ?? "household", (row.paymentMethod ?? "") + (row.isAdvance ? " (advance)" : ""),
            ])
        }
        return [table.render(), page.next.map { "more: --after \($0)" } ?? "end of list"].joined(separator: "\n")
    }

    static func json(_ page: SettlementPage) -> String {
        CanonicalJSON.object([
            "rows": .array(page.rows.map { row in
                .object([
                    "settlementID": CanonicalJSON(row.settlementID), "date": CanonicalJSON(row.date),
                    "fromID": CanonicalJSON(row.from), "fromName": CanonicalJSON(row.fromName),
                    "toID": CanonicalJSON(row.to), "toName": CanonicalJSON(row.toName), "amount": CanonicalJSON(row.amount),
                    "groupID": CanonicalJSON(row.groupID), "isAdvance": .bool(row.isAdvance),
                    "paymentMethod": CanonicalJSON(row.paymentMethod), "sequenceNumber": .integer(Int64(clamping: row.sequenceNumber)),
                ])
            }),
            "next": page.next.map { .string($0.description) } ?? .null,
        ]).text
    }
}
