import TallyModel

/// Net worth series (N1-N5): monthly assets minus liabilities in the base currency, a 12-month
/// baseline projection and monthly flows, derived from the wallet read model.
///
/// It is a view over the wallet state of ``Projections`` (``Projections/netWorth``), which folds
/// the events.
/// Deactivated wallets are left out of every point (W4); closed wallets keep their history.
public struct NetWorthProjection: Hashable, Sendable {
    /// The wallet state the series is derived from.
    public internal(set) var wallets: WalletProjection

    /// A net worth view over an existing wallet projection (no copy of the events is kept).
    public init(wallets: WalletProjection) { self.wallets = wallets }

    /// Events that could not be applied (those of the wrapped wallet projection).
    public var problems: [ProjectionProblem] { wallets.problems }

    var baseCurrency: Currency { wallets.baseCurrency ?? (try? Currency("XXX")) ?? .chf }

    /// The wallets that count: active ones (W4), sorted by id.
    var countedWallets: [WalletRecord] {
        wallets.wallets.values.filter(\.isActive).sorted { $0.walletID < $1.walletID }
    }

    /// The first and last month with a business date (opening, transaction, transfer, balance point).
    func monthRange() -> (first: YearMonth, last: YearMonth)? {
        var dates = wallets.wallets.values.map(\.openedOn)
        dates += wallets.movementIndex.liveDays.keys
        dates += wallets.balancePoints.values.flatMap { $0.map(\.date) }
        guard let first = dates.min(), let last = dates.max() else { return nil }
        return (first.yearMonth, last.yearMonth)
    }

    /// The months from `first` to `last`, inclusive.
    static func months(_ first: YearMonth, _ last: YearMonth) -> [YearMonth] {
        var result: [YearMonth] = []
        var month = first
        while month <= last {
            result.append(month)
            guard let next = try? month.adding(months: 1) else { break }
            month = next
        }
        return result
    }

    /// A wallet's value signed as net worth: liabilities negative (N1).
    static func signed(_ units: Int128, _ wallet: WalletRecord) -> Int128 { wallet.kind.isLiability ? -units : units }

    /// Builds a point from signed per-wallet values, converting at `date` (N3).
    func point(_ month: YearMonth, values: [(WalletRecord, Int128)], ratesOn date: LocalDate) throws(ProjectionError) -> NetWorthPoint {
        var total = ConvertedTotal(baseCurrency)
        var missing = Set<Currency>()
        var contributions: [WalletContribution] = []
        for (wallet, units) in values {
            let converted = wallets.rates.exactly(units, from: wallet.currency, to: baseCurrency, on: date)
            // G2: the total adds the exact values and rounds once; each part is rounded on its own.
            if let converted { total.add(converted) } else { missing.insert(wallet.currency) }
            contributions.append(WalletContribution(
                walletID: wallet.walletID,
                value: try MoneySum(units: units, currency: wallet.currency).money(rule: "N1", subject: "value of \(wallet.walletID)"),
                converted: try converted.map { exact throws(ProjectionError) in
                    try MoneySum(units: exact.rounded, currency: baseCurrency).money(rule: "N3", subject: "converted value of \(wallet.walletID)")
                }))
        }
        return NetWorthPoint(
            month: month, value: try total.money(rule: "N1", subject: "net worth in \(month)"),
            contributions: contributions, missingRates: missing.sorted())
    }

    /// The monthly series (N2): one point per month from the first event month to the last,
    /// each at the month's last day; values carry forward through months without activity.
    /// - Throws: ``ProjectionError/overflow(rule:subject:)``.
    public func series() throws(ProjectionError) -> [NetWorthPoint] {
        guard let range = monthRange() else { return [] }
        let movements = wallets.movementsByWallet()
        var result: [NetWorthPoint] = []
        for month in Self.months(range.first, range.last) {
            let values = countedWallets.compactMap { wallet -> (WalletRecord, Int128)? in
                wallets.value(of: wallet, movements: movements[wallet.walletID] ?? [], asOf: month.lastDay)
                    .map { (wallet, Self.signed($0, wallet)) }
            }
            result.append(try point(month, values: values, ratesOn: month.lastDay))
        }
        return result
    }
}
