import ArgumentParser
import TallyModel
import TallyProjections
import TallyStore

/// `tally transactions`: one page of a filtered transaction list from the read-side store
/// (Docs/Queries.md), as a table or JSON; `--after` continues where the last page ended.
struct TransactionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transactions", abstract: "List transactions: filtered, sorted, one page at a time.",
        discussion: "Reads the read-side store (it is caught up or rebuilt first when it does not show the journal's end). The last line names the --after cursor of the next page.")

    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions
    @OptionGroup var filters: QueryOptions
    @OptionGroup var paging: PageOptions
    @Option(
        name: .customLong("recently-deleted"),
        help: ArgumentHelp(
            "Only transactions deleted within 30 days before this instant (Flow's 'Recently deleted'), latest deletion first unless --sort names another order.",
            valueName: "YYYY-MM-DDTHH:MM:SSZ"))
    var recentlyDeleted: String?
    @Option(
        name: .customLong("debts"),
        help: ArgumentHelp("Only shared transactions with a share no settlement covers yet (pending) or without one (settled).", valueName: "settled|pending"))
    var debts: DebtsState?
    @Flag(help: "Print JSON: {\"rows\":[...],\"next\":CURSOR|null}.") var json = false

    /// `--debts settled|pending` (``TransactionQuery/settled``).
    enum DebtsState: String, ExpressibleByArgument, CaseIterable { case settled, pending }

    func run() async throws {
        let path = try location.path()
        let cursor = try paging.cursor()
        let now = try recentlyDeleted.map { text throws -> Timestamp in
            do { return try Timestamp(iso8601: text) } catch { throw CLIError("--recently-deleted \(text): expected YYYY-MM-DDTHH:MM:SSZ") }
        }
        let page = { (store: LedgerStore, models: DebtProjection?) throws -> TransactionPage in
            var query = try filters.query(in: store)
            query.settled = debts.map { $0 == .settled }
            query.order = paging.order
            if let now {
                let window = TransactionQuery.recentlyDeleted(asOf: now, visibleTo: query.viewer)
                query.deleted = window.deleted
                query.deletedWithin = window.deletedWithin
                if paging.order == .newestFirst { query.order = window.order }
            }
            query.limit = paging.limit
            query.after = cursor
            return try store.transactions(query, debts: models)
        }
        let encryption = try key.encryption()
        // Only the settled / pending filter needs the debt read model: replay the history for it alone.
        let found: TransactionPage
        if debts == nil {
            found = try StoreAccess.read(at: path, encryption: encryption) { store in try page(store, nil) }
        } else {
            found = try StoreAccess.read(at: path, encryption: encryption) { store, history in try page(store, history.readModels.debts) }
        }
        try Terminal.line(json ? Self.json(found) : Self.table(found))
    }

    static func table(_ page: TransactionPage) -> String {
        var table = TextTable([
            ("Date", .left), ("Wallet", .left), ("Category", .left), ("Payer", .left), ("Amount", .right), ("Payee", .left), ("Note", .left), ("", .left),
        ])
        for row in page.rows {
            let transaction = row.transaction
            let signed = transaction.kind == .expense
                ? Money(minorUnits: 0 &- transaction.amount.minorUnits, currency: transaction.amount.currency) : transaction.amount
            table.add([
                transaction.date.isoString, row.walletName, row.categoryName ?? transaction.categoryID.description,
                row.payerName ?? transaction.payer.description,
                signed.formatted() + (transaction.originalAmount.map { " (\($0.formatted()))" } ?? ""),
                // The title and subtitle (Swiff 1.1.2): `Migros (weekly shop)`.
                (transaction.payee?.description ?? "") + (transaction.subtitle.map { " (\($0))" } ?? ""),
                ([row.note?.description].compactMap { $0 } + row.tags.map { "#\($0)" }).joined(separator: " "),
                transaction.deletedAt.map { "deleted \($0)" } ?? (transaction.isLive ? "" : "deleted"),
            ])
        }
        var lines = [table.render()]
        lines.append(page.next.map { "more: --after \($0)" } ?? "end of list")
        return lines.joined(separator: "\n")
    }

    static func json(_ page: TransactionPage) -> String {
        CanonicalJSON.object(["rows": .array(page.rows.map(json)), "next": page.next.map { .string($0.description) } ?? .null]).text
    }

    /// One row as `--json` writes it (also inside `tally statement --json`).
    static func json(_ row: TransactionRow) -> CanonicalJSON {
        let transaction = row.transaction
        return .object([
            "transactionID": .string(transaction.transactionID.description), "date": CanonicalJSON(transaction.date),
            "walletID": .string(transaction.walletID.description), "walletName": .string(row.walletName),
            "categoryID": .string(transaction.categoryID.description), "categoryName": row.categoryName.map(CanonicalJSON.string) ?? .null,
            "payerID": .string(transaction.payer.description), "payerName": row.payerName.map(CanonicalJSON.string) ?? .null,
            "kind": .string(ReportCommand.kindName(transaction.kind)), "amount": CanonicalJSON(transaction.amount),
            "originalAmount": transaction.originalAmount.map(CanonicalJSON.init) ?? .null,
            "isLive": .bool(transaction.isLive), "sequenceNumber": .integer(Int64(clamping: transaction.sequenceNumber)),
            "recordedAt": .string(transaction.recordedAt.iso8601),
            "lastEditedAt": transaction.lastEditedAt.map { .string($0.iso8601) } ?? .null,
            "deletedAt": transaction.deletedAt.map { .string($0.iso8601) } ?? .null,
            "note": CanonicalJSON(row.note), "payee": CanonicalJSON(transaction.payee), "subtitle": CanonicalJSON(transaction.subtitle),
            "tags": .array(row.tags.map(CanonicalJSON.string)),
            "split": .array(row.split.map { share in
                .object([
                    "personID": .string(share.person.description), "personName": share.name.map(CanonicalJSON.string) ?? .null,
                    "amount": CanonicalJSON(share.amount),
                ])
            }),
        ])
    }
}
