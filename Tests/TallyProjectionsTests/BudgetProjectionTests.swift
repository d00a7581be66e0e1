import TallyModel
import TallyProjections
import TallyTestSupport
import Testing

@Suite("BudgetProjection")
struct BudgetProjectionTests {
    typealias S = Scenario

    func period(_ start: String, _ end: String) -> PayPeriod { PayPeriod(start: d(start), end: d(end)) }

    @Test("B1: payday 31 falls on the last day of shorter months (Feb 28, Feb 29 in leap years)")
    func payday31() {
        var s = Scenario()
        s.add(.paydaySet(PaydaySet(day: 31, effectiveFrom: d("2026-01-31"))))
        let budgets = s.fold(BudgetProjection.self)
        #expect(budgets.period(containing: d("2026-02-15")) == period("2026-01-31", "2026-02-27"))
        #expect(budgets.period(containing: d("2026-02-28")) == period("2026-02-28", "2026-03-30"))
        #expect(budgets.period(containing: d("2026-04-30")) == period("2026-04-30", "2026-05-30"))
        var leap = Scenario()
        leap.add(.paydaySet(PaydaySet(day: 31, effectiveFrom: d("2024-01-31"))))
        #expect(leap.fold(BudgetProjection.self).period(containing: d("2024-02-29")) == period("2024-02-29", "2024-03-30"))
    }

    @Test("B1: a payday change inside a running period takes effect when that period ends")
    func paydayChangeInsidePeriod() {
        var s = Scenario()
        s.add(.paydaySet(PaydaySet(day: 1, effectiveFrom: d("2026-01-01"))))
        s.add(.paydaySet(PaydaySet(day: 15, effectiveFrom: d("2026-03-10"))))
        let budgets = s.fold(BudgetProjection.self)
        #expect(budgets.period(containing: d("2026-03-20")) == period("2026-03-01", "2026-03-31"))
        #expect(budgets.period(containing: d("2026-04-05")) == period("2026-04-01", "2026-04-14"))
        #expect(budgets.period(containing: d("2026-04-20")) == period("2026-04-15", "2026-05-14"))
    }

    @Test("B1: without a payday, periods are calendar months")
    func defaultCalendarMonths() {
        #expect(Scenario().fold(BudgetProjection.self).period(containing: d("2026-02-10")) == period("2026-02-01", "2026-02-28"))
    }

    @Test("B2/B4: allocations carry over; status on-track up to +10%, over beyond; alerts at 80% and 100%")
    func statusAndCarryOver() throws {
        var s = Scenario()
        let bank = s.wallet("Bank")
        s.add(.budgetAllocated(BudgetAllocated(categoryID: S.groceries, amount: chf(100_000), fromPeriod: d("2026-01-01"))))
        s.expense(110_000, wallet: bank, category: S.groceries, on: "2026-03-05")
        s.expense(80_000, wallet: bank, category: S.restaurants, on: "2026-03-05")
        s.add(.budgetAllocated(BudgetAllocated(categoryID: S.restaurants, amount: chf(100_000), fromPeriod: d("2026-01-01"))))
        let report = try s.fold(BudgetProjection.self).budget(for: period("2026-03-01", "2026-03-31"))
        let groceries = try #require(report.categories.first { $0.categoryID == S.groceries })
        #expect(groceries.allocated == chf(100_000) && groceries.spent == chf(110_000) && groceries.remaining == chf(-10_000))
        #expect(groceries.status == .onTrack && groceries.alert == .reached100 && groceries.percentBasisPoints == 11_000)
        let dining = try #require(report.categories.first { $0.categoryID == S.restaurants })
        #expect(dining.alert == .reached80 && dining.status == .onTrack)
        s.expense(1, wallet: bank, category: S.groceries, on: "2026-03-06")
        let over = try s.fold(BudgetProjection.self).budget(for: period("2026-03-01", "2026-03-31"))
        #expect(over.categories.first { $0.categoryID == S.groceries }?.status == .over)
        let april = try s.fold(BudgetProjection.self).report(for: period("2026-04-01", "2026-04-30"), isFinal: true)
        #expect(april.categories.first { $0.categoryID == S.groceries }?.spent == chf(0))
        #expect(april.categories.first { $0.categoryID == S.groceries }?.status == .under)
    }

    @Test("B6: a backdated edit after close leaves the snapshot unchanged and is listed as an adjustment")
    func backdatedEditAfterClose() throws {
        var s = Scenario()
        let bank = s.wallet("Bank")
        s.add(.budgetAllocated(BudgetAllocated(categoryID: S.groceries, amount: chf(50_000), fromPeriod: d("2026-01-01"))))
        let spend = s.expense(20_000, wallet: bank, category: S.groceries, on: "2026-01-10")
        s.add(.periodClosed(PeriodClosed(periodStart: d("2026-01-01"), periodEnd: d("2026-01-31"))))
        s.edit(spend, S.details(.expense, 30_000, .chf, wallet: bank, category: S.groceries, on: "2026-01-10", payer: S.alice))
        let late = s.expense(5_000, wallet: bank, category: S.groceries, on: "2026-01-20")
        let budgets = s.fold(BudgetProjection.self)
        let january = period("2026-01-01", "2026-01-31")
        let snapshot = try budgets.budget(for: january)
        #expect(snapshot.isFinal)
        #expect(snapshot.categories.first?.spent == chf(20_000))
        #expect(try budgets.report(for: january, isFinal: true).categories.first?.spent == chf(35_000))
        #expect(budgets.adjustmentsAfterClose.map(\.kind) == ["transactionEdited", "transactionRecorded"])
        #expect(budgets.adjustmentsAfterClose.map(\.transactionID) == [spend, late])
    }

    @Test("B5: weekly allowance over the Monday-based weeks overlapping February 2026; overspend does not carry")
    func weeklyAllowance() throws {
        var s = Scenario()
        let bank = s.wallet("Bank")
        s.add(.budgetAllocated(BudgetAllocated(categoryID: S.groceries, amount: chf(100_001), fromPeriod: d("2026-01-01"))))
        s.expense(25_000, wallet: bank, category: S.groceries, on: "2026-02-03")
        let report = try s.fold(BudgetProjection.self).budget(for: period("2026-02-01", "2026-02-28"))
        let needs = report.weeklyAllowances.filter { $0.budgetType == .needs }
        #expect(needs.map(\.weekStart) == ["2026-01-26", "2026-02-02", "2026-02-09", "2026-02-16", "2026-02-23"].map(d))
        #expect(needs.map(\.allowance) == [chf(20_001), chf(20_000), chf(20_000), chf(20_000), chf(20_000)])
        #expect(needs[0].from == d("2026-02-01") && needs[4].to == d("2026-02-28"))
        #expect(needs[1].remaining == chf(-5_000))
        #expect(needs[2].remaining == chf(20_000))
    }

    @Test("B3: 50/30/20 suggestion from the income and unallocated = income - allocations")
    func fiftyThirtyTwenty() throws {
        var s = Scenario()
        s.add(.incomeSettingsSet(IncomeSettingsSet(mode: .manual, monthlyIncome: chf(500_001), incomeCategoryIDs: [], graceDays: 3)))
        s.add(.budgetAllocated(BudgetAllocated(categoryID: S.groceries, amount: chf(300_000), fromPeriod: d("2026-01-01"))))
        s.add(.budgetAllocated(BudgetAllocated(categoryID: S.restaurants, amount: chf(300_000), fromPeriod: d("2026-01-01"))))
        let report = try s.fold(BudgetProjection.self).budget(for: period("2026-01-01", "2026-01-31"))
        #expect(report.groups.map(\.suggested) == [chf(250_001), chf(150_000), chf(100_000)])
        #expect(report.unallocated == chf(-99_999))
        #expect(report.income.source == .manual)
    }

    @Test("B7: auto income uses a 3-day grace before payday, flags a bonus over 150% of the 3-period average, falls back to manual")
    func incomeDetection() throws {
        var s = Scenario()
        let bank = s.wallet("Bank")
        s.add(.incomeSettingsSet(IncomeSettingsSet(mode: .auto, monthlyIncome: chf(400_000), incomeCategoryIDs: [S.salary], graceDays: 3)))
        s.income(500_000, wallet: bank, on: "2025-12-31")
        s.income(500_000, wallet: bank, on: "2026-01-30")
        s.income(500_000, wallet: bank, on: "2026-02-27")
        let bonus = s.income(800_000, wallet: bank, on: "2026-03-15")
        var budgets = s.fold(BudgetProjection.self)
        let february = try budgets.budget(for: period("2026-02-01", "2026-02-28"))
        #expect(february.income.source == .detected && february.income.amount == chf(500_000))
        var march = try budgets.budget(for: period("2026-03-01", "2026-03-31"))
        #expect(march.income.amount == chf(500_000) && march.income.flaggedBonuses == [bonus])
        s.add(.bonusConfirmed(BonusConfirmed(transactionID: bonus)))
        budgets = s.fold(BudgetProjection.self)
        march = try budgets.budget(for: period("2026-03-01", "2026-03-31"))
        #expect(march.income.amount == chf(1_300_000) && march.income.flaggedBonuses.isEmpty)
        let april = try budgets.budget(for: period("2026-04-01", "2026-04-30"))
        #expect(april.income.source == .fallbackManual && april.income.amount == chf(400_000))
    }
}
