import ArgumentParser
import SystemPackage
import Tally
import TallyJournal
import TallyInterchange
import TallyModel
import TallyProjections

/// `tally balances`: wallet balances (W3, W5) and totals, as a table or JSON.
struct BalancesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "balances", abstract: "Wallet balances and totals.")

    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions
    @OptionGroup var damage: DamageOption
    @Option(name: .customLong("as-of"), help: ArgumentHelp("Balances at the end of this business date.", valueName: "DATE")) var asOf: String?
    @OptionGroup var viewer: ViewerOption
    @Flag(help: "Print JSON (the wallets read model, an audit read; with --as-of, as of that date).") var json = false

    func validate() throws {
        if json, viewer.person != nil { throw ValidationError("--json prints the wallets read model, the household's audit read: give --as or --json, not both") }
    }

    func run() async throws {
        let path = try location.path()
        // The read-side store answers the household's current balances without folding the
        // journal when it shows exactly the journal's end; otherwise (and for --as-of, --as,
        // JSON, damage) replay.
        if asOf == nil, !json, !damage.allowDamaged, viewer.person == nil, let text = try Reports.storedBalances(at: path, encryption: try key.encryption()) {
            try Terminal.line(text)
            return
        }
        let history = try LedgerAccess.history(at: path, encryption: try key.encryption(), allowDamaged: damage.allowDamaged)
        let date = try asOf.map { try LedgerAccess.date($0, option: "--as-of") }
        if json {
            try Terminal.line(try Reports.json(path: path) { () throws(ProjectionError) in try history.readModels.wallets.canonicalJSON(asOf: date) }.text)
            return
        }
        try Terminal.line(try Reports.balances(history, asOf: date, visibleTo: try viewer.viewer(in: history), path: path))
    }
}

/// Human-readable reports shared by the subcommands and `tally demo`.
enum Reports {
    static func json(path: String, _ body: () throws(ProjectionError) -> CanonicalJSON) throws -> CanonicalJSON {
        do { return try body() } catch { throw CLIError("\(path): \(error.description)") }
    }

    static func balances(_ history: LedgerHistory, asOf: LocalDate?, visibleTo viewer: Viewer = .audit, path: String) throws -> String {
        let wallets = history.readModels.wallets
        do {
            return balances(
                try wallets.balances(asOf: asOf, visibleTo: viewer), totals: try wallets.totals(asOf: asOf, visibleTo: viewer), personName: history.personName)
        } catch {
            throw CLIError("\(path): \(error.description)")
        }
    }

    /// Current balances from the read-side store, or `nil` when it does not show the journal's end.
    static func storedBalances(at path: String, encryption: JournalEncryption?) throws -> String? {
        try LedgerAccess.requireLedger(at: path)
        do {
            guard let store = try Ledger.currentStore(at: FilePath(path), encryption: encryption) else { return nil }
            let names = try store.personNames()
            return balances(try store.walletBalances(visibleTo: .audit), totals: try store.totals()) { names[$0] ?? $0.description }
        } catch let error as LedgerError {
            throw CLIError.ledger(error, at: path)
        } catch {
            return nil
        }
    }

    static func balances(_ balances: [WalletBalance], totals: WalletTotals, personName: (PersonID) -> String) -> String {
        var table = TextTable([("Wallet", .left), ("Kind", .left), ("Owner", .left), ("Balance", .right), ("", .left)])
        for balance in balances {
            let isLiability = balance.kind.isLiability
            var flags: [String] = []
            if isLiability { flags.append(WalletBalanceText.side(balance.balance, isLiability: true)) }
            if !balance.isActive { flags.append("inactive") }
            if let closed = balance.closedOn { flags.append("closed \(closed)") }
            switch balance.connectionStatus {
            case .needsReauthentication: flags.append("bank link needs sign-in")
            case .disconnected: flags.append("bank link cut")
            case .connected, nil: break
            }
            table.add([
                balance.name, String(describing: balance.kind), balance.owner.map(personName) ?? "shared",
                WalletBalanceText.amount(balance.balance, isLiability: isLiability), flags.joined(separator: ", "),
            ])
        }
        var lines = [table.render(), ""]
        for money in totals.perCurrency { lines.append("Total \(money.currency.code): \(money.formatted())") }
        if let base = totals.baseTotal { lines.append("Total in base currency: \(base.formatted())") }
        if !totals.missingRates.isEmpty {
            lines.append("Missing exchange rates: " + totals.missingRates.map(\.code).joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }
}
