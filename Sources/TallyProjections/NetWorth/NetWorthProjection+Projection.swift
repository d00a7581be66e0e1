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

    /// Monthly flows of the chosen wallets (N5): within each month, every day on which a
    /// wallet's value changed contributes its change, positive to the inflow, negative to the
    /// outflow, measured from the month's base (the previous month-end value, or the opening
    /// balance in the opening month). Signed as net worth; totals converted at the month end.
    /// - Parameter walletIDs: the chosen wallets; unknown ids are ignored.
    /// - Throws: ``ProjectionError/overflow(rule:subject:)``.
    public func flows(for walletIDs: [WalletID]) throws(ProjectionError) -> [MonthlyFlow] {
        guard let range = monthRange() else { return [] }
        let movements = wallets.movementsByWallet()
        let chosen = walletIDs.compactMap { wallets.wallets[$0] }
        var result: [MonthlyFlow] = []
        for month in Self.months(range.first, range.last) {
            var flows: [WalletFlow] = []
            var inflowTotal = ConvertedTotal(baseCurrency)
            var outflowTotal = ConvertedTotal(baseCurrency)
            var missing = Set<Currency>()
            for wallet in chosen {
                let walletMovements = movements[wallet.walletID] ?? []
                var changeDates = Set(walletMovements.map(\.date))
                changeDates.formUnion(wallets.balancePoints[wallet.walletID]?.map(\.date) ?? [])
                let monthDates = changeDates.filter { $0 >= month.firstDay && $0 <= month.lastDay && $0 >= wallet.openedOn }.sorted()
                var previous: Int128
                if wallet.openedOn >= month.firstDay {
                    previous = Int128(wallet.openingBalance.minorUnits)
                } else {
                    previous = wallets.value(of: wallet, movements: walletMovements, asOf: PaySchedule.dayBefore(month.firstDay)) ?? 0
                }
                previous = Self.signed(previous, wallet)
                var inflow = Int128(0)
                var outflow = Int128(0)
                for date in monthDates {
                    let current = Self.signed(wallets.value(of: wallet, movements: walletMovements, asOf: date) ?? 0, wallet)
                    let change = current - previous
                    if change > 0 { inflow += change } else { outflow -= change }
                    previous = current
                }
                if let converted = wallets.rates.exactly(inflow, from: wallet.currency, to: baseCurrency, on: month.lastDay),
                   let convertedOut = wallets.rates.exactly(outflow, from: wallet.currency, to: baseCurrency, on: month.lastDay) {
                    inflowTotal.add(converted)
                    outflowTotal.add(convertedOut)
                } else {
                    missing.insert(wallet.currency)
                }
                flows.append(WalletFlow(
                    walletID: wallet.walletID,
                    inflow: try MoneySum(units: inflow, currency: wallet.currency).money(rule: "N5", subject: "inflow"),
                    outflow: try MoneySum(units: outflow, currency: wallet.currency).money(rule: "N5", subject: "outflow")))
            }
            result.append(MonthlyFlow(
                month: month, wallets: flows, totalInflow: try inflowTotal.money(rule: "N5", subject: "total inflow"),
                totalOutflow: try outflowTotal.money(rule: "N5", subject: "total outflow"), missingRates: missing.sorted()))
        }
        return result
    }
}
