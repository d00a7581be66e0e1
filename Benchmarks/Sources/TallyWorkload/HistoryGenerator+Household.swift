import TallyModel

extension HistoryGenerator {
    /// A transfer: paying off the card, topping up the shared account, or CHF to EUR at the
    /// current rate (both amounts recorded, W6).
    mutating func recordTransfer() {
        let (from, to) = random.pick([
            (WalletSlot.checking, WalletSlot.card), (WalletSlot.checking, WalletSlot.shared),
            (WalletSlot.checking, WalletSlot.euro), (WalletSlot.euro, WalletSlot.cash),
        ])
        var sent = random.value(in: 10_000...150_000)
        if to == WalletSlot.card, wallets[to].balance > 0 { sent = wallets[to].balance }
        var received = sent
        if wallets[from].currency != wallets[to].currency {
            let (value, _) = Self.convert(sent, rate: eurToCHFRate, toEuro: wallets[from].currency == Self.chf)
            received = max(1, value)
        }
        wallets[from].balance -= sent
        wallets[to].balance += wallets[to].kind.isLiability ? -received : received
        beginCommand(by: wallets[from].owner ?? admin)
        emit(.transferRecorded(TransferRecorded(
            transferID: ids.next(), fromWalletID: wallets[from].id, toWalletID: wallets[to].id,
            amountSent: wallets[from].money(sent), amountReceived: wallets[to].money(received), date: date,
            note: note(random.chance(percent: 30) ? "monthly" : nil))))
    }

    /// CHF <-> EUR with an EUR->CHF rate scaled by 10^8, rounded down.
    static func convert(_ minorUnits: Int64, rate: Int64, toEuro: Bool) -> (Int64, Bool) {
        let product = toEuro
            ? minorUnits.multipliedFullWidth(by: ExchangeRate.scale)
            : minorUnits.multipliedFullWidth(by: rate)
        let divisor = toEuro ? rate : ExchangeRate.scale
        let (quotient, _) = divisor.dividingFullWidth(product)
        return (quotient, true)
    }

    /// A settlement of the household debt from shared expenses, from debtor to creditor, never
    /// more than owed (S6).
    mutating func recordSettlement() {
        guard memberOwesAdmin != 0 else { return recordSharedExpense() }
        let owed = memberOwesAdmin.magnitude
        let amount = Int64(owed) - (random.chance(percent: 50) ? 0 : Int64(owed / 3))
        let (from, to) = memberOwesAdmin > 0 ? (member, admin) : (admin, member)
        memberOwesAdmin += memberOwesAdmin > 0 ? -amount : amount
        beginCommand(by: from)
        emit(.settlementRecorded(SettlementRecorded(
            settlementID: ids.next(), from: from, to: to, amount: Money(minorUnits: amount, currency: Self.chf),
            date: date, covers: nil, isAdvance: false, groupID: nil)))
    }

    /// A balance point: the property's observed value, or an assertion of a tracked wallet's
    /// balance (W5).
    mutating func recordBalance() {
        let walletIndex: Int
        if random.chance(percent: 40) {
            walletIndex = WalletSlot.property
            propertyValue += random.value(in: -300_000...500_000)
            wallets[walletIndex].balance = propertyValue
        } else {
            walletIndex = random.pick([WalletSlot.checking, WalletSlot.shared, WalletSlot.euro, WalletSlot.card])
        }
        let wallet = wallets[walletIndex]
        beginCommand(by: wallet.owner ?? admin)
        emit(.balanceRecorded(BalanceRecorded(walletID: wallet.id, date: date, balance: wallet.money(wallet.balance))))
    }

    /// The EUR->CHF rate of the day, a bounded random walk around 0.95 (N3).
    mutating func setExchangeRate() {
        eurToCHFRate = min(max(eurToCHFRate + random.value(in: -400_000...400_000), 80_000_000), 110_000_000)
        let rate = Self.checked { () throws(ModelError) in try ExchangeRate(base: Self.eur, quote: Self.chf, scaledRate: eurToCHFRate) }
        beginCommand(by: admin)
        emit(.exchangeRateSet(ExchangeRateSet(rate: rate, asOf: date)))
    }

    /// A budget change for an expense category from the current period on (B2).
    mutating func allocateBudget() {
        beginCommand(by: admin)
        emit(.budgetAllocated(BudgetAllocated(
            categoryID: random.pick(expenseCategories),
            amount: Money(minorUnits: random.value(in: 10_000...150_000), currency: Self.chf), fromPeriod: periodStart)))
    }

    /// Closes the running period (B6), starts the next one and pays both salaries on payday.
    mutating func closePeriod() {
        let end = periodEnd
        beginCommand(by: admin)
        emit(.periodClosed(PeriodClosed(periodStart: periodStart, periodEnd: end)))
        periodStart = Self.checked { () throws(ModelError) in try periodStart.adding(months: 1) }
        recordSalary(of: admin, into: WalletSlot.checking, amount: 720_000 + random.value(in: 0...20_000))
        recordSalary(of: member, into: WalletSlot.euro, amount: 410_000)
    }
}
