import TallyModel

/// Where a wallet's N5 balance at a month's end comes from.
public enum FlowBalanceSource: String, Hashable, Sendable {
    /// A balance point (every kind, bank and card included): the latest point on or before a
    /// day is the wallet's balance that day.
    case balancePoints
    /// Its ledger balance (W3, W5): no balance point is dated on or before the month's end.
    case ledger
}

/// One wallet's part of a month's flows (N5), in the wallet's currency, signed as net worth
/// (a card's or loan's balance owed counts negative, so spending on a card is a negative change).
public struct WalletMonthFlow: Hashable, Sendable {
    /// The wallet.
    public let walletID: WalletID
    /// The designation in force for the month.
    public let designation: WalletDesignation
    /// Where its balance at the month's end comes from.
    public let source: FlowBalanceSource
    /// The base: the balance on, or closest before, the 1st; in the month the wallet was first
    /// tracked, its first balance of the month. `nil` before it is tracked.
    public let base: Money?
    /// The latest balance within the month; `nil` when it has none (the change is then 0).
    public let latest: Money?
    /// `latest - base`, or zero without a balance in the month.
    public let change: Money
    /// The change in the base currency at the month's last day, rounded on its own (G2); `nil`
    /// when no rate is known (N3).
    public let convertedChange: Money?
    /// What it adds to the month's inflow in the base currency, rounded on its own (zero unless
    /// the change is positive and the designation counts inflow).
    public let inflow: Money
    /// What it adds to the month's outflow, as a non-negative amount.
    public let outflow: Money
}

/// A month of flows (N5): inflow and outflow over every wallet that counts (active ones, W4),
/// in the base currency.
public struct MonthlyFlows: Hashable, Sendable {
    /// The month.
    public let month: YearMonth
    /// The base currency of the totals.
    public let currency: Currency
    /// The sum of the positive changes of wallets designated inflow or both, converted exactly
    /// and rounded once (G2).
    public let inflow: Money
    /// The sum of the magnitudes of the negative changes of wallets designated outflow or both.
    public let outflow: Money
    /// Per wallet, by wallet id: every counted wallet opened by the month's end, designated or not.
    public let wallets: [WalletMonthFlow]
    /// Currencies of counted changes without a rate at the month's end (N3): left out of the
    /// totals.
    public let missingRates: [Currency]

    /// Whether every counted change could be converted.
    public var isComplete: Bool { missingRates.isEmpty }
}
