import TallyModel

/// One investment wallet in a portfolio (Swiff Phase 5 investments; Docs/Projections.md
/// "Investments").
public struct InvestmentPosition: Hashable, Sendable {
    /// The wallet (kind `investment`).
    public let walletID: WalletID
    /// Its name.
    public let name: String
    /// Its owner (`nil`: the household's).
    public let owner: PersonID?
    /// What it is worth now, in its currency: its balance (W5: its latest balance point plus
    /// what moved after it, or its movements while it has no point).
    public let value: Money
    /// What was put in, in its currency: its opening balance plus every live transaction and
    /// transfer into it, less those out of it (W3: the balance as if no point were recorded).
    public let netContributions: Money
    /// ``value`` less ``netContributions``: the gain (negative: a loss).
    public let gain: Money
    /// ``value`` in the base currency (N3: the latest rate; G2: rounded half to even once);
    /// `nil` without a base currency or a rate.
    public let valueInBase: Money?
    /// Its share of the portfolio in basis points: ``valueInBase`` over the sum of the
    /// positions' values in the base currency, rounded half to even; `nil` when either is
    /// unknown or that sum is not positive.
    public let allocationBasisPoints: Int64?
}

/// The investment wallets a viewer sees, valued, with their gains and allocation (Swiff Phase 5
/// investments).
public struct InvestmentPortfolio: Hashable, Sendable {
    /// Every position, by name then wallet id.
    public let positions: [InvestmentPosition]
    /// The portfolio's value, net contributions and gain in the base currency: each the exact
    /// sum of the positions' converted amounts, rounded once (G2); `nil` without a base
    /// currency. Positions whose currency has no rate are left out of them.
    public let totalValue: Money?
    public let totalNetContributions: Money?
    public let totalGain: Money?
    /// Currencies of positions that no rate converts to the base currency (N3: a gap, never 1.0).
    public let missingRates: [Currency]
}

extension WalletProjection {
    /// The portfolio of the investment wallets that count (active and not closed, W4) and
    /// `viewer` sees (G7: the household's and their own), after every recorded movement and
    /// balance point. O(investment wallets + their balance points).
    /// - Throws: ``ProjectionError/overflow(rule:subject:)`` when an amount does not fit (G1).
    public func investments(visibleTo viewer: Viewer) throws(ProjectionError) -> InvestmentPortfolio {
        let held = wallets.values.filter { $0.kind == .investment && $0.countsInTotals && viewer.sees(walletOwnedBy: $0.owner) }
            .sorted { ($0.name, $0.walletID) < ($1.name, $1.walletID) }
        struct Figures {
            let wallet: WalletRecord
            let value: Int128
            let contributions: Int128
            let valueInBase: Int128?
        }
        var figures: [Figures] = []
        var (totalValue, totalContributions) = (baseCurrency.map(ConvertedTotal.init), baseCurrency.map(ConvertedTotal.init))
        var missing: Set<Currency> = []
        for wallet in held {
            let value = currentValue(of: wallet)
            let contributions = Int128(wallet.openingBalance.minorUnits) + (movementIndex.totals[wallet.walletID] ?? 0) * Int128(wallet.movementSign)
            var inBase: Int128?
            if let base = baseCurrency {
                if let exactValue = rates.exactly(value, from: wallet.currency, to: base, on: .max),
                   let exactContributions = rates.exactly(contributions, from: wallet.currency, to: base, on: .max) {
                    totalValue?.add(exactValue)
                    totalContributions?.add(exactContributions)
                    inBase = exactValue.rounded
                } else {
                    missing.insert(wallet.currency)
                }
            }
            figures.append(Figures(wallet: wallet, value: value, contributions: contributions, valueInBase: inBase))
        }
        var allocated: Int128 = 0
        for units in figures.compactMap(\.valueInBase) {
            let (sum, overflow) = allocated.addingReportingOverflow(units)
            guard !overflow else { throw .overflow(rule: "G1", subject: "investment value in the base currency") }
            allocated = sum
        }
        var positions: [InvestmentPosition] = []
        for figure in figures {
            let wallet = figure.wallet
            func money(_ units: Int128, _ currency: Currency, _ what: String) throws(ProjectionError) -> Money {
                try Self.money(units, currency, subject: "\(what) of investment \(wallet.walletID)")
            }
            var share: Int64?
            if let units = figure.valueInBase, allocated > 0 {
                let (scaled, overflow) = units.multipliedReportingOverflow(by: 10_000)
                guard !overflow, let basisPoints = Int64(exactly: scaled.dividedRoundingHalfEven(by: allocated)) else {
                    throw .overflow(rule: "G1", subject: "allocation of investment \(wallet.walletID)")
                }
                share = basisPoints
            }
            positions.append(InvestmentPosition(
                walletID: wallet.walletID, name: wallet.name, owner: wallet.owner,
                value: try money(figure.value, wallet.currency, "value"),
                netContributions: try money(figure.contributions, wallet.currency, "net contributions"),
                gain: try money(figure.value - figure.contributions, wallet.currency, "gain"),
                valueInBase: try figure.valueInBase.map { units throws(ProjectionError) in try money(units, baseCurrency ?? wallet.currency, "value in base currency") },
                allocationBasisPoints: share))
        }
        var totalGain = totalValue
        if let contributions = totalContributions { totalGain?.add(contributions.negated) }
        return InvestmentPortfolio(
            positions: positions,
            totalValue: try totalValue?.money(rule: "G2", subject: "investment value in the base currency"),
            totalNetContributions: try totalContributions?.money(rule: "G2", subject: "investment contributions in the base currency"),
            totalGain: try totalGain?.money(rule: "G2", subject: "investment gain in the base currency"),
            missingRates: missing.sorted())
    }
}
