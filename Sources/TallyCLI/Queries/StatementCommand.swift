import ArgumentParser
import Tally
import TallyInterchange
import TallyModel
import TallyProjections
import TallyStore

/// `tally statement`: one page of a wallet's statement (Docs/Queries.md "Wallet statement"):
/// its transactions and transfers by date, each with the balance after it.
struct StatementCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "statement", abstract: "List a wallet's movements by date with the running balance, one page at a time.",
        discussion: "Reads the read-side store without the writer lock (a writer may run beside it); the balance at a date comes from the read models replayed through the same sequence number. The last line names the --after cursor of the next page.")

    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions
    @Option(name: .customLong("wallet"), help: ArgumentHelp("The wallet (id or name).", valueName: "WALLET"))
    var wallet: String
    @Option(name: .customLong("from"), help: ArgumentHelp("First business date.", valueName: "DATE")) var from: String?
    @Option(name: .customLong("to"), help: ArgumentHelp("Last business date.", valueName: "DATE")) var to: String?
    @OptionGroup var paging: PageOptions
    @OptionGroup var viewer: ViewerOption
    @Flag(help: "Print JSON: {\"rows\":[...],\"next\":CURSOR|null}.") var json = false

    func run() async throws {
        let cursor = try paging.cursor()
        let dates = try QueryOptions.range(from: from, to: to)
        let path = try location.path()
        let (page, isLiability) = try StoreAccess.read(at: path, encryption: try key.encryption()) { store, history in
            let viewer = try viewer.viewer(among: try store.personNames())
            let balances = try store.walletBalances(visibleTo: viewer)
            let walletID = try QueryOptions.resolve(wallet, "--wallet", balances.map { (id: $0.walletID, name: $0.name) })
            var query = StatementQuery(walletID: walletID, visibleTo: viewer)
            query.dates = dates
            query.order = paging.order
            query.limit = paging.limit
            query.after = cursor
            let isLiability = balances.first { $0.walletID == walletID }?.kind.isLiability ?? false
            return (try store.statement(query, balancesFrom: history.readModels), isLiability)
        }
        try Terminal.line(json ? Self.json(page) : Self.table(page, isLiability: isLiability))
    }

    /// What a row shows in the Description column and JSON `description`.
    static func description(_ row: StatementRow) -> String {
        switch row.movement {
        case .transaction(let transaction):
            let parts = [transaction.categoryName ?? transaction.transaction.categoryID.description, transaction.note?.description]
            return parts.compactMap { $0 }.joined(separator: ": ")
        case .transfer(let transfer):
            return "transfer \(transfer.fromWalletName) -> \(transfer.toWalletName)"
        }
    }

    /// The page as a table. A liability's (card, loan) balance is shown as a card statement
    /// shows it (``WalletBalanceText``): the amount, then `owed` or `in credit`; each row's
    /// amount is the change to that balance (a purchase adds to what is owed, a payment lowers it).
    static func table(_ page: StatementPage, isLiability: Bool) -> String {
        var columns: [(String, TextTable.Alignment)] = [("Date", .left), ("Description", .left), ("Amount", .right), ("Balance", .right)]
        if isLiability { columns.append(("", .left)) }
        var table = TextTable(columns)
        for row in page.rows {
            var cells = [row.date.isoString, description(row), row.amount.formatted(),
                         row.balance.map { WalletBalanceText.amount($0, isLiability: isLiability) } ?? ""]
            if isLiability { cells.append(row.balance.map { WalletBalanceText.side($0, isLiability: true) } ?? "") }
            table.add(cells)
        }
        return [table.render(), page.next.map { "more: --after \($0)" } ?? "end of statement"].joined(separator: "\n")
    }

    static func json(_ page: StatementPage) -> String {
        let rows: [CanonicalJSON] = page.rows.map { row in
            let movement: (String, CanonicalJSON) = switch row.movement {
            case .transaction(let transaction): ("transaction", TransactionsCommand.json(transaction))
            case .transfer(let transfer):
                ("transfer", .object([
                    "transferID": .string(transfer.transferID.description),
                    "fromWalletID": .string(transfer.fromWalletID.description), "fromWalletName": .string(transfer.fromWalletName),
                    "toWalletID": .string(transfer.toWalletID.description), "toWalletName": .string(transfer.toWalletName),
                    "amountSent": CanonicalJSON(transfer.amountSent), "amountReceived": CanonicalJSON(transfer.amountReceived),
                ]))
            }
            return .object([
                "type": .string(movement.0), movement.0: movement.1, "date": CanonicalJSON(row.date),
                "description": .string(description(row)), "sequenceNumber": .integer(Int64(clamping: row.sequenceNumber)),
                "amount": CanonicalJSON(row.amount), "balance": row.balance.map(CanonicalJSON.init) ?? .null,
            ])
        }
        return CanonicalJSON.object(["rows": .array(rows), "next": page.next.map { .string($0.description) } ?? .null]).text
    }
}
