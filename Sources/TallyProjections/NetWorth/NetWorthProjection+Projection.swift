import TallyModel

extension NetWorthProjection {
    /// The baseline projection (N4): for each of the next `monthsAhead` months, each wallet with
    /// at least 2 month-end values in the series moves by the average of its last (up to) 3
    /// monthly deltas, rounded half-even; other wallets stay flat. Converted with the rates of
    /// the last series month.
    /// - Throws: ``ProjectionError/overflow(rule:subject:)``.
    public func baseline(monthsAhead: Int = 12) throws(ProjectionError) -> [NetWorthPoint] {
        guard let range = monthRange() else { return [] }
        let movements = wallets.movementsByWallet()
        let months = Self.months(range.first, range.last)
        var trends: [(WalletRecord, last: Int128, delta: Int128)] = []
        for wallet in countedWallets {
            let history = months.compactMap {
                wallets.value(of: wallet, movements: movements[wallet.walletID] ?? [], asOf: $0.lastDay)
            }.map { Self.signed($0, wallet) }
            guard let last = history.last else { continue }
            guard history.count >= 2 else {
                trends.append((wallet, last, 0))
                continue
            }
            let recent = Array(history.suffix(4))
            let deltas = zip(recent.dropFirst(), recent).map { $0 - $1 }
            trends.append((wallet, last, deltas.reduce(0, +).dividedRoundingHalfEven(by: Int128(deltas.count))))
        }
        var result: [NetWorthPoint] = []
        for step in 1...max(1, min(monthsAhead, 1_200)) {
            guard let month = try? range.last.adding(months: step) else { break }
            let values = trends.map { ($0.0, $0.last + $0.delta * Int128(step)) }
            result.append(try point(month, values: values, ratesOn: range.last.lastDay))
        }
        return result
    }
}
