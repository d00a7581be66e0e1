import TallyModel

extension NetWorthProjection {
    /// Months per ``flows(from:through:)`` call at most.
    public static let flowMonthsMax = 1_200

    /// The monthly flows of `month` (N5); see ``flows(from:through:)``.
    /// - Throws: ``ProjectionError/overflow(rule:subject:)``.
    public func flows(in month: YearMonth, visibleTo viewer: Viewer = .audit) throws(ProjectionError) -> MonthlyFlows {
        try flows(month, movements: wallets.movementsByWallet(), visibleTo: viewer)
    }

    /// The monthly flows (N5, Tim) of each month from `first` through `last` (none when `last`
    /// is before `first`; at most ``flowMonthsMax``).
    ///
    /// Per wallet that counts (active, W4) and month M, signed as net worth (a liability's
    /// balance owed counts negative):
    /// - its balance on a day is its latest balance point on or before that day, for every
    ///   kind; before its first point, its ledger balance (W3, W5), so a wallet kept by
    ///   transactions keeps its history when a point is first recorded;
    /// - base: the latest point on or before the 1st of M; without one, the ledger balance M
    ///   starts with (the end of the day before the 1st, so every movement counts in the month
    ///   it is dated in); in the month the wallet is first tracked, its first balance: a point on
    ///   or before its opening, else the opening balance before the opening day's movements;
    /// - change = the latest balance within M (its last point dated in M; without points up to
    ///   M's end, the ledger balance at M's end) - base; a wallet whose earlier point holds
    ///   through M has no balance in M: change 0;
    /// - inflow sums the positive changes of wallets designated inflow or both, outflow the
    ///   magnitudes of the negative changes of wallets designated outflow or both (the
    ///   designation in force for M, ``WalletDesignation/inForce(_:in:)``); neither counts for
    ///   nothing. Converted at M's last day, exactly, rounded once per total (G2).
    /// - Throws: ``ProjectionError/overflow(rule:subject:)``.
    /// For a member `viewer`, only the household's wallets and their own count (G7).
    public func flows(from first: YearMonth, through last: YearMonth, visibleTo viewer: Viewer = .audit) throws(ProjectionError) -> [MonthlyFlows] {
        let movements = wallets.movementsByWallet()
        var result: [MonthlyFlows] = []
        for month in Self.months(first, last).prefix(Self.flowMonthsMax) {
            result.append(try flows(month, movements: movements, visibleTo: viewer))
        }
        return result
    }

    private func flows(_ month: YearMonth, movements: [WalletID: [WalletProjection.Movement]], visibleTo viewer: Viewer) throws(ProjectionError) -> MonthlyFlows {
        var inflow = ConvertedTotal(baseCurrency)
        var outflow = ConvertedTotal(baseCurrency)
        var missing = Set<Currency>()
        var rows: [WalletMonthFlow] = []
        for wallet in countedWallets where viewer.sees(walletOwnedBy: wallet.owner) {
            guard let balances = flowBalances(of: wallet, in: month, movements: movements[wallet.walletID] ?? []) else { continue }
            let designation = wallets.designation(of: wallet.walletID, in: month)
            let change = balances.latest.map { $0 - balances.base } ?? 0
            let converted = wallets.rates.exactly(change, from: wallet.currency, to: baseCurrency, on: month.lastDay)
            var walletInflow = Int128(0)
            var walletOutflow = Int128(0)
            if (change > 0 && designation.countsInflow) || (change < 0 && designation.countsOutflow) {
                if let converted {
                    // G2: the totals add the exact values; each wallet's part is rounded on its own.
                    if change > 0 {
                        inflow.add(converted)
                        walletInflow = converted.rounded
                    } else {
                        outflow.add(converted.negated)
                        walletOutflow = converted.negated.rounded
                    }
                } else {
                    missing.insert(wallet.currency)
                }
            }
            func money(_ units: Int128, _ currency: Currency, _ subject: String) throws(ProjectionError) -> Money {
                try MoneySum(units: units, currency: currency).money(rule: "N5", subject: "\(subject) of \(wallet.walletID) in \(month)")
            }
            rows.append(WalletMonthFlow(
                walletID: wallet.walletID, designation: designation, source: balances.source,
                base: try money(balances.base, wallet.currency, "base"),
                latest: try balances.latest.map { units throws(ProjectionError) in try money(units, wallet.currency, "latest balance") },
                change: try money(change, wallet.currency, "change"),
                convertedChange: try converted.map { exact throws(ProjectionError) in try money(exact.rounded, baseCurrency, "converted change") },
                inflow: try money(walletInflow, baseCurrency, "inflow"), outflow: try money(walletOutflow, baseCurrency, "outflow")))
        }
        return MonthlyFlows(
            month: month, currency: baseCurrency, inflow: try inflow.money(rule: "N5", subject: "inflow in \(month)"),
            outflow: try outflow.money(rule: "N5", subject: "outflow in \(month)"), wallets: rows, missingRates: missing.sorted())
    }

    /// A wallet's N5 base and latest balance in `month`, signed as net worth; `nil` when it is
    /// not tracked by the month's end (its opening and its first point come later).
    func flowBalances(
        of wallet: WalletRecord, in month: YearMonth, movements: [WalletProjection.Movement]
    ) -> (source: FlowBalanceSource, base: Int128, latest: Int128?)? {
        let points = wallets.balancePoints[wallet.walletID] ?? []
        let trackedFrom = min(wallet.openedOn, points.first?.date ?? wallet.openedOn)
        guard trackedFrom <= month.lastDay else { return nil }
        /// The ledger balance (W3): the opening balance and the movements on the days `counts` takes.
        func ledger(_ counts: (LocalDate) -> Bool) -> Int128 {
            movements.reduce(Int128(wallet.openingBalance.minorUnits)) { counts($1.date) ? $0 + $1.delta : $0 }
        }
        let sign: Int128 = wallet.kind.isLiability ? -1 : 1
        let pointed = points.contains { $0.date <= month.lastDay }
        let base: Int128
        if month.firstDay <= trackedFrom {
            // First tracked month: its first balance, a point on or before its opening, else the
            // opening balance (with what is dated before the opening day).
            if let first = points.first, first.date <= wallet.openedOn {
                base = Int128(first.balance.minorUnits)
            } else {
                base = ledger { $0 < wallet.openedOn }
            }
        } else if let point = points.last(where: { $0.date <= month.firstDay }) {
            base = Int128(point.balance.minorUnits)
        } else {
            base = ledger { $0 < month.firstDay }
        }
        let latest: Int128?
        if let point = points.last(where: { month.firstDay <= $0.date && $0.date <= month.lastDay }) {
            latest = Int128(point.balance.minorUnits)
        } else if pointed {
            latest = nil  // an earlier point holds through the month: no balance in it
        } else {
            latest = ledger { $0 <= month.lastDay }
        }
        return (pointed ? .balancePoints : .ledger, sign * base, latest.map { sign * $0 })
    }
}
