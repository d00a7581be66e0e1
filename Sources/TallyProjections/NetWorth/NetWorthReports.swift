import TallyModel

/// One wallet's part of a net worth point (N1).
public struct WalletContribution: Hashable, Sendable {
    /// The wallet.
    public let walletID: WalletID
    /// Its value at the month end in its own currency, negative for liabilities (N1).
    public let value: Money
    /// The value in the base currency, `nil` when no rate is known (N3 gap).
    public let converted: Money?
}

/// Net worth at the end of one month (N1, N2), or a projected month (N4).
public struct NetWorthPoint: Hashable, Sendable {
    /// The month (`YYYY-MM`); the value is at its last day.
    public let month: YearMonth
    /// Assets minus liabilities in the base currency, over the wallets that could be converted.
    public let value: Money
    /// Per-wallet contributions, sorted by wallet id.
    public let contributions: [WalletContribution]
    /// Currencies without a rate at the month end (N3): their wallets are not in ``value``.
    public let missingRates: [Currency]

    /// Whether every wallet could be converted.
    public var isComplete: Bool { missingRates.isEmpty }
}
