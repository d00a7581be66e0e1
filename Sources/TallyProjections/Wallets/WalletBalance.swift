import TallyModel

/// One wallet's balance as of a date (W1-W4), a value snapshot.
///
/// For liabilities (card, loan) ``balance`` is the amount owed, positive when money is owed.
public struct WalletBalance: Hashable, Sendable {
    /// The wallet.
    public let walletID: WalletID
    /// Its current name.
    public let name: String
    /// Its current kind.
    public let kind: WalletKind
    /// Tracked through transactions or observed through balance points (W5).
    public let valuation: WalletValuation
    /// The owning member, `nil` for a shared wallet.
    public let owner: PersonID?
    /// `false` after `WalletDeactivated` (excluded from totals, W4).
    public let isActive: Bool
    /// The closing date after `WalletClosed`.
    public let closedOn: LocalDate?
    /// The balance in the wallet's currency (W3; W5 for observed wallets).
    public let balance: Money
    /// The number of live transactions in the wallet (T3: deleted ones are not counted).
    public let liveTransactionCount: Int
    /// Whether the wallet's bank link works (Tim Step 2.2, ``WalletConnectionStatus``); `nil`
    /// when the wallet has no connection or none was set.
    public let connectionStatus: WalletConnectionStatus?

    /// Whether the wallet counts in totals: active and not closed (W4).
    public var countsInTotals: Bool { isActive && closedOn == nil }

    /// A balance with every field given (read back from a store of the read model).
    public init(
        walletID: WalletID, name: String, kind: WalletKind, valuation: WalletValuation, owner: PersonID?, isActive: Bool,
        closedOn: LocalDate?, balance: Money, liveTransactionCount: Int, connectionStatus: WalletConnectionStatus? = nil
    ) {
        self.walletID = walletID
        self.name = name
        self.kind = kind
        self.valuation = valuation
        self.owner = owner
        self.isActive = isActive
        self.closedOn = closedOn
        self.balance = balance
        self.liveTransactionCount = liveTransactionCount
        self.connectionStatus = connectionStatus
    }
}

/// Totals of the wallets that count (active, not closed), per currency and in the base
/// currency (W4, N3). Liabilities count negative.
public struct WalletTotals: Hashable, Sendable {
    /// The date the totals are taken at; `nil` means "all recorded movements".
    public let asOf: LocalDate?
    /// The net total per currency (assets minus liabilities), sorted by currency code.
    public let perCurrency: [Money]
    /// The sum in the base currency of every currency that could be converted; `nil` before the
    /// household's base currency is known.
    public let baseTotal: Money?
    /// Currencies with no exchange rate to the base currency at the date (N3): their totals are
    /// not in ``baseTotal``. Never converted at a silent 1.0.
    public let missingRates: [Currency]

    /// Whether every currency could be converted.
    public var isComplete: Bool { missingRates.isEmpty }

    /// Totals with every field given (read back from a store of the read model).
    public init(asOf: LocalDate?, perCurrency: [Money], baseTotal: Money?, missingRates: [Currency]) {
        self.asOf = asOf
        self.perCurrency = perCurrency
        self.baseTotal = baseTotal
        self.missingRates = missingRates
    }
}

/// The reconciliation of a balance point on a transaction-tracked wallet (W5, Flow US-073): the
/// asserted balance, the derived one, and the difference, which is reported, never applied.
public struct Reconciliation: Hashable, Sendable {
    /// The wallet.
    public let walletID: WalletID
    /// The date of the assertion (end of day).
    public let date: LocalDate
    /// The balance the user recorded.
    public let asserted: Money
    /// The balance derived from transactions and transfers up to and including `date`.
    public let derived: Money
    /// `asserted - derived`; zero when the books agree.
    public let difference: Money
    /// The sequence number of the `BalanceRecorded` event.
    public let sequenceNumber: UInt64
}
