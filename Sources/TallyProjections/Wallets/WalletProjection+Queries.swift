import TallyModel

extension WalletProjection {
    /// One dated change of a wallet's balance, signed as the balance moves (liabilities inverted).
    struct Movement: Hashable, Sendable {
        let date: LocalDate
        let delta: Int128
    }

    /// The live movements of every wallet (T3: deleted transactions and transfers count nowhere),
    /// one per day with movements, each list sorted by date: from the index, O(days), not O(entries).
    func movementsByWallet() -> [WalletID: [Movement]] {
        var result: [WalletID: [Movement]] = [:]
        for (walletID, days) in movementIndex.dailySums {
            guard let wallet = wallets[walletID] else { continue }
            let sign = Int128(wallet.movementSign)
            let sorted: [(key: LocalDate, value: Int128)] = days.sorted { $0.key < $1.key }
            result[walletID] = sorted.map { Movement(date: $0.key, delta: $0.value * sign) }
        }
        return result
    }

    /// The value of `wallet` at the end of `date` in minor units; `nil` before it was opened.
    ///
    /// Transaction-tracked wallets: opening balance plus every live movement up to `date` (W3).
    /// Observed wallets (W5: a wallet's valuation; property and investment by default): the latest balance point at or before `date`
    /// sets the value (W5), plus movements dated after that point; before any point, as tracked.
    func value(of wallet: WalletRecord, movements: some Sequence<Movement>, asOf date: LocalDate) -> Int128? {
        guard date >= wallet.openedOn else { return nil }
        var total = Int128(wallet.openingBalance.minorUnits)
        var countedAfter: LocalDate? = nil
        if wallet.isValueObserved, let point = balancePoints[wallet.walletID]?.last(where: { $0.date <= date }) {
            total = Int128(point.balance.minorUnits)
            countedAfter = point.date
        }
        for movement in movements where movement.date <= date {
            if let after = countedAfter, movement.date <= after { continue }
            total += movement.delta
        }
        return total
    }

    /// The value of `wallet` after every recorded movement: ``value(of:movements:asOf:)`` at the
    /// end of time over the index's days as they are, unsorted (what every commit's store write
    /// and `balances()` without a date need).
    func currentValue(of wallet: WalletRecord) -> Int128 {
        if !wallet.isValueObserved || balancePoints[wallet.walletID]?.isEmpty != false {
            return Int128(wallet.openingBalance.minorUnits) + (movementIndex.totals[wallet.walletID] ?? 0) * Int128(wallet.movementSign)
        }
        let days = (movementIndex.dailySums[wallet.walletID] ?? [:]).lazy.map { date, raw in
            Movement(date: date, delta: raw * Int128(wallet.movementSign))
        }
        return value(of: wallet, movements: days, asOf: .max) ?? Int128(wallet.openingBalance.minorUnits)
    }

    /// The value of wallet `id` at the end of `date`, or after everything when `date` is nil,
    /// from its own movements only; `nil` for an unknown wallet or a date before it was opened.
    /// After everything, what a close requires to be zero (W4, the engine's validation).
    package func value(of id: WalletID, asOf date: LocalDate?) -> Int128? {
        guard let wallet = wallets[id] else { return nil }
        let days = (movementIndex.dailySums[id] ?? [:]).lazy.map { day, raw in
            Movement(date: day, delta: raw * Int128(wallet.movementSign))
        }
        guard let date else { return currentValue(of: wallet) }
        return value(of: wallet, movements: days, asOf: date)
    }

    /// The value of `wallet` at the end of `date`, or after everything when `date` is nil.
    func value(of wallet: WalletRecord, movements: @autoclosure () -> [Movement], asOf date: LocalDate?) -> Int128? {
        guard let date else { return currentValue(of: wallet) }
        return value(of: wallet, movements: movements(), asOf: date)
    }

    /// The balance of one wallet.
    /// - Parameters:
    ///   - walletID: the wallet.
    ///   - date: the end of the day to take the balance at; `nil` for all recorded movements.
    /// - Returns: the balance, or `nil` for an unknown wallet or a date before it was opened.
    /// - Throws: ``ProjectionError/overflow(rule:subject:)`` when it does not fit in `Int64`.
    public func balance(of walletID: WalletID, asOf date: LocalDate? = nil) throws(ProjectionError) -> Money? {
        guard let wallet = wallets[walletID] else { return nil }
        guard let units = value(of: wallet, movements: movementsByWallet()[walletID] ?? [], asOf: date) else { return nil }
        return try Self.money(units, wallet.currency, subject: "balance of \(walletID)")
    }

    /// The balance of a transaction-tracked wallet after every live movement up to the end of
    /// `date`, counted from its opening balance whatever the date (a statement's running
    /// balance; ``balance(of:asOf:)`` has none before the opening date). O(days it moved).
    /// - Returns: `nil` for an unknown wallet or one whose value is observed (W5).
    /// - Throws: ``ProjectionError/overflow(rule:subject:)`` when it does not fit in `Int64`.
    public func trackedBalance(of walletID: WalletID, throughEndOf date: LocalDate) throws(ProjectionError) -> Money? {
        guard let wallet = wallets[walletID], !wallet.isValueObserved else { return nil }
        var total = Int128(wallet.openingBalance.minorUnits)
        for (day, raw) in movementIndex.dailySums[walletID] ?? [:] where day <= date { total += raw * Int128(wallet.movementSign) }
        return try Self.money(total, wallet.currency, subject: "balance of \(walletID)")
    }

    /// Every wallet opened so far with its balance, sorted by name then id.
    /// - Parameters:
    ///   - date: the end of the day to take balances at; `nil` for all recorded movements.
    ///     Wallets opened after `date` are left out.
    ///   - viewer: who sees them (G7): for a member, wallets owned by another member are left
    ///     out; the read models are the audit read, so ``Viewer/audit`` by default.
    /// - Throws: ``ProjectionError/overflow(rule:subject:)``.
    public func balances(asOf date: LocalDate? = nil, visibleTo viewer: Viewer = .audit) throws(ProjectionError) -> [WalletBalance] {
        let movements = date == nil ? [:] : movementsByWallet()
        let counts = movementIndex.liveTransactionCounts
        var result: [WalletBalance] = []
        for wallet in wallets.values where viewer.sees(walletOwnedBy: wallet.owner) {
            guard let units = value(of: wallet, movements: movements[wallet.walletID] ?? [], asOf: date) else { continue }
            result.append(WalletBalance(
                walletID: wallet.walletID, name: wallet.name, kind: wallet.kind, valuation: wallet.valuation, owner: wallet.owner,
                isActive: wallet.isActive, closedOn: wallet.closedOn,
                balance: try Self.money(units, wallet.currency, subject: "balance of \(wallet.walletID)"),
                liveTransactionCount: counts[wallet.walletID] ?? 0, connectionStatus: wallet.connection?.status))
        }
        return result.sorted { ($0.name, $0.walletID) < ($1.name, $1.walletID) }
    }

    /// Totals of the wallets that count (active and not closed, W4) and `viewer` sees (G7),
    /// liabilities negative.
    /// - Parameters:
    ///   - date: the end of the day; `nil` for all movements, converted with the latest rates.
    ///   - viewer: for a member, the household's wallets and their own (as ``balances(asOf:visibleTo:)``).
    /// - Throws: ``ProjectionError/overflow(rule:subject:)``.
    public func totals(asOf date: LocalDate? = nil, visibleTo viewer: Viewer = .audit) throws(ProjectionError) -> WalletTotals {
        let movements = date == nil ? [:] : movementsByWallet()
        var sums: [Currency: MoneySum] = [:]
        for wallet in wallets.values where wallet.countsInTotals && viewer.sees(walletOwnedBy: wallet.owner) {
            guard let units = value(of: wallet, movements: movements[wallet.walletID] ?? [], asOf: date) else { continue }
            var sum = sums[wallet.currency] ?? MoneySum(wallet.currency)
            sum.add(MoneySum.signed(units, Int128(wallet.movementSign)))
            sums[wallet.currency] = sum
        }
        var perCurrency: [Money] = []
        var missing: [Currency] = []
        var base = baseCurrency.map(ConvertedTotal.init)
        for currency in sums.keys.sorted() {
            guard let sum = sums[currency] else { continue }
            perCurrency.append(try sum.money(rule: "W3", subject: "total in \(currency)"))
            guard let baseCurrency else { continue }
            if let converted = rates.exactly(sum.units, from: currency, to: baseCurrency, on: date ?? .max) {
                base?.add(converted)  // G2: exact, rounded once below
            } else {
                missing.append(currency)
            }
        }
        return WalletTotals(
            asOf: date, perCurrency: perCurrency,
            baseTotal: try base?.money(rule: "G2", subject: "total in the base currency"), missingRates: missing)
    }

    /// The reconciliation of every balance point on transaction-tracked wallets (W5), sorted by
    /// wallet id, then date, then sequence number. Observed wallets (W5) are
    /// not listed: their points set the value.
    /// - Throws: ``ProjectionError/overflow(rule:subject:)``.
    public func reconciliations() throws(ProjectionError) -> [Reconciliation] {
        let movements = movementsByWallet()
        var result: [Reconciliation] = []
        for walletID in balancePoints.keys.sorted() {
            guard let wallet = wallets[walletID], !wallet.isValueObserved else { continue }
            for point in balancePoints[walletID] ?? [] {
                let units = value(of: wallet, movements: movements[walletID] ?? [], asOf: point.date) ?? 0
                let derived = try Self.money(units, wallet.currency, subject: "balance of \(walletID)")
                let difference = try Self.money(
                    Int128(point.balance.minorUnits) - units, wallet.currency, subject: "reconciliation of \(walletID)")
                result.append(Reconciliation(
                    walletID: walletID, date: point.date, asserted: point.balance, derived: derived,
                    difference: difference, sequenceNumber: point.sequenceNumber))
            }
        }
        return result
    }

    /// The flow designation of a wallet in force for `month` (N5): ``WalletDesignation/neither``
    /// for a wallet never designated, or an unknown one.
    public func designation(of walletID: WalletID, in month: YearMonth) -> WalletDesignation {
        WalletDesignation.inForce(designations[walletID] ?? [], in: month)
    }

    /// A wallet's designations (N5), one per `fromMonth` (the latest set for it), `nil` first
    /// then by month.
    public func designations(of walletID: WalletID) -> [WalletDesignationSet] { designations[walletID] ?? [] }

    /// The last day on or before `date` (or ever, when `date` is nil) that changed a wallet's
    /// value: its latest live movement, for an observed wallet (W5) also its latest balance
    /// point, else the day it was opened; `nil` for an unknown wallet or one opened after `date`.
    /// What a wallet export writes as its balance's as-of date. O(days it moved).
    package func valueChangedLast(of walletID: WalletID, onOrBefore date: LocalDate?) -> LocalDate? {
        guard let wallet = wallets[walletID], date.map({ wallet.openedOn <= $0 }) ?? true else { return nil }
        let limit = date ?? .max
        var last = wallet.openedOn
        for (day, raw) in movementIndex.dailySums[walletID] ?? [:] where raw != 0 && day <= limit && day > last { last = day }
        if wallet.isValueObserved, let point = balancePoints[walletID]?.last(where: { $0.date <= limit }), point.date > last { last = point.date }
        return last
    }

    /// The balance points recorded for a wallet, by date then sequence number (W5).
    public func balancePoints(of walletID: WalletID) -> [BalancePoint] { balancePoints[walletID] ?? [] }

    static func money(_ units: Int128, _ currency: Currency, subject: @autoclosure () -> String) throws(ProjectionError) -> Money {
        guard let minorUnits = Int64(exactly: units) else { throw .overflow(rule: "W3", subject: subject()) }
        return Money(minorUnits: minorUnits, currency: currency)
    }
}

/// One transaction as the wallet read model holds it (T1-T3), a value snapshot.
public struct WalletTransaction: Hashable, Sendable {
    /// The transaction.
    public let transactionID: TransactionID
    /// Its current fields.
    public let details: TransactionDetails
    /// `false` while it is deleted (T3).
    public let isLive: Bool
    /// The sequence number of the event that first recorded it.
    public let sequenceNumber: UInt64
}

/// One transfer between two wallets (W6), a value snapshot.
public struct TransferEntry: Hashable, Sendable {
    /// The transfer.
    public let transferID: TransferID
    /// The wallet the money left.
    public let fromWalletID: WalletID
    /// The wallet the money reached.
    public let toWalletID: WalletID
    /// What left the source wallet.
    public let amountSent: Money
    /// What reached the target wallet.
    public let amountReceived: Money
    /// Its business date.
    public let date: LocalDate
    /// `false` once deleted.
    public let isLive: Bool
    /// The sequence number of the event that recorded it.
    public let sequenceNumber: UInt64
}

extension WalletProjection {
    /// The transaction `id`, live or deleted; `nil` when it was never recorded.
    public func transaction(_ id: TransactionID) -> WalletTransaction? {
        transactions[id].map { WalletTransaction(transactionID: id, details: $0.details, isLive: $0.isLive, sequenceNumber: $0.sequenceNumber) }
    }

    /// The transfer `id`, live or deleted; `nil` when it was never recorded.
    public func transfer(_ id: TransferID) -> TransferEntry? {
        transfers[id].map {
            TransferEntry(
                transferID: id, fromWalletID: $0.fromWalletID, toWalletID: $0.toWalletID, amountSent: $0.amountSent,
                amountReceived: $0.amountReceived, date: $0.date, isLive: $0.isLive, sequenceNumber: $0.sequenceNumber)
        }
    }

    /// The ids of every transaction recorded, live or deleted (unordered). O(history): with a
    /// store's history, read from it.
    public var transactionIDs: some Collection<TransactionID> { transactions.allEntries.keys }

    /// The ids of every transfer recorded, live or deleted (unordered).
    public var transferIDs: some Collection<TransferID> { transfers.allEntries.keys }
}
