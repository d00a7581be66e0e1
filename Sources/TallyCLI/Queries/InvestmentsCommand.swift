import ArgumentParser
import TallyInterchange
import TallyModel
import TallyProjections

/// `tally investments`: the investment wallets' values, net contributions, gains and allocation
/// (Swiff Phase 5 investments; Docs/Projections.md "Investments"), for a viewer (G7).
struct InvestmentsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "investments", abstract: "Investment wallets: value, net contributions, gain or loss, allocation.",
        discussion: "Values are the wallets' balances (W5: the latest balance point plus what moved after it); totals and allocation are in the base currency with the latest rates. With --as, the household's investment wallets and that person's own (G7).")

    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions
    @OptionGroup var damage: DamageOption
    @OptionGroup var viewer: ViewerOption
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let path = try location.path()
        let history = try LedgerAccess.history(at: path, encryption: try key.encryption(), allowDamaged: damage.allowDamaged)
        let portfolio: InvestmentPortfolio
        do {
            portfolio = try history.readModels.wallets.investments(visibleTo: try viewer.viewer(in: history))
        } catch let error as ProjectionError {
            throw CLIError("\(path): \(error.description)")
        }
        try Terminal.line(json ? Self.json(portfolio).text : Self.text(portfolio))
    }

    static func text(_ portfolio: InvestmentPortfolio) -> String {
        guard !portfolio.positions.isEmpty else { return "No investment wallets." }
        var table = TextTable([("Wallet", .left), ("Value", .right), ("Net contributions", .right), ("Gain", .right), ("Allocation", .right)])
        for position in portfolio.positions {
            table.add([
                position.name, position.value.formatted(), position.netContributions.formatted(), position.gain.formatted(),
                position.allocationBasisPoints.map(percent) ?? "",
            ])
        }
        var lines = [table.render()]
        if let value = portfolio.totalValue, let contributions = portfolio.totalNetContributions, let gain = portfolio.totalGain {
            lines.append("Total \(value.formatted()), net contributions \(contributions.formatted()), gain \(gain.formatted())")
        }
        if !portfolio.missingRates.isEmpty {
            lines.append("No rate to the base currency for \(portfolio.missingRates.map(\.code).joined(separator: ", ")): left out of the totals")
        }
        return lines.joined(separator: "\n")
    }

    /// Basis points as a percentage with two decimals (`2500` is `25.00%`).
    static func percent(_ basisPoints: Int64) -> String {
        let magnitude = basisPoints.magnitude
        let fraction = String(magnitude % 100)
        return (basisPoints < 0 ? "-" : "") + "\(magnitude / 100).\(fraction.count < 2 ? "0" + fraction : fraction)%"
    }

    static func json(_ portfolio: InvestmentPortfolio) -> CanonicalJSON {
        .object([
            "positions": .array(portfolio.positions.map { position in
                .object([
                    "walletID": CanonicalJSON(position.walletID), "name": .string(position.name), "ownerID": CanonicalJSON(position.owner),
                    "value": CanonicalJSON(position.value), "netContributions": CanonicalJSON(position.netContributions),
                    "gain": CanonicalJSON(position.gain), "valueInBase": CanonicalJSON(position.valueInBase),
                    "allocationBasisPoints": position.allocationBasisPoints.map(CanonicalJSON.integer) ?? .null,
                ])
            }),
            "totalValue": CanonicalJSON(portfolio.totalValue), "totalNetContributions": CanonicalJSON(portfolio.totalNetContributions),
            "totalGain": CanonicalJSON(portfolio.totalGain), "missingRates": .array(portfolio.missingRates.map { .string($0.code) }),
        ])
    }
}
