import TallyModel
import TallyProjections
import TallyTestSupport
import Testing

/// Flow budget intelligence (issue 31 item 6): the whole budget's status (US-054) and weekly
/// savings progress (US-038).
extension BudgetProjectionTests {
    @Test("US-054/B4: the whole budget is on track up to its total allocation + 10%, over beyond, and counts spending in unbudgeted categories")
    func overallStatusAppliesB4ToTheTotals() throws {
        var s = Scenario()
        let bank = s.wallet("Bank")
        s.add(.budgetAllocated(BudgetAllocated(categoryID: S.groceries, amount: chf(100_000), fromPeriod: d("2026-01-01"))))
        s.add(.budgetAllocated(BudgetAllocated(categoryID: S.restaurants, amount: chf(100_000), fromPeriod: d("2026-01-01"))))
        s.expense(150_000, wallet: bank, category: S.groceries, on: "2026-03-05")  // this category is over
        s.expense(70_000, wallet: bank, category: S.restaurants, on: "2026-03-05")
        let march = period("2026-03-01", "2026-03-31")
        let onTrack = try s.fold(BudgetProjection.self).budget(for: march)
        #expect(onTrack.totalSpent == chf(220_000) && onTrack.totalAllocated == chf(200_000))
        #expect(onTrack.status == .onTrack, "220 of 200 is exactly +10%: on track")
        #expect(onTrack.categories.first { $0.categoryID == S.groceries }?.status == .over)
        s.expense(1, wallet: bank, category: S.savings, on: "2026-03-06")  // no allocation: still spending
        let over = try s.fold(BudgetProjection.self).budget(for: march)
        #expect(over.totalSpent == chf(220_001) && over.status == .over)
    }

    @Test("US-054/B4: the whole budget is under only at period end below 80% of the total; nothing allocated is unbudgeted")
    func overallStatusUnderAtPeriodEnd() throws {
        var s = Scenario()
        let bank = s.wallet("Bank")
        s.expense(5_000, wallet: bank, category: S.groceries, on: "2026-02-03")
        #expect(try s.fold(BudgetProjection.self).budget(for: period("2026-02-01", "2026-02-28")).status == .unbudgeted)
        s.add(.budgetAllocated(BudgetAllocated(categoryID: S.groceries, amount: chf(100_000), fromPeriod: d("2026-01-01"))))
        s.expense(74_999, wallet: bank, category: S.groceries, on: "2026-02-10")
        let budgets = s.fold(BudgetProjection.self)
        let february = period("2026-02-01", "2026-02-28")
        #expect(try budgets.budget(for: february).status == .onTrack, "an open period is never under")
        #expect(try budgets.report(for: february, isFinal: true).status == .under, "79.999% at period end")
        #expect(try budgets.report(for: february, isFinal: true).totalSpent == chf(79_999))
    }

    @Test("US-054/B6: a closed period's snapshot keeps its overall status after a backdated expense")
    func overallStatusIsFrozenAtClose() throws {
        var s = Scenario()
        let bank = s.wallet("Bank")
        s.add(.budgetAllocated(BudgetAllocated(categoryID: S.groceries, amount: chf(100_000), fromPeriod: d("2026-01-01"))))
        s.expense(90_000, wallet: bank, category: S.groceries, on: "2026-01-10")
        s.add(.periodClosed(PeriodClosed(periodStart: d("2026-01-01"), periodEnd: d("2026-01-31"))))
        s.expense(90_000, wallet: bank, category: S.groceries, on: "2026-01-20")
        let snapshot = try s.fold(BudgetProjection.self).budget(for: period("2026-01-01", "2026-01-31"))
        #expect(snapshot.isFinal && snapshot.status == .onTrack && snapshot.totalSpent == chf(90_000))
    }

    @Test("US-038: without a savings allocation the target is 20% of income (B3), divided over the Monday weeks as B5 divides an allowance; each week counts its own savings")
    func weeklySavingsAgainstTheSuggestedTarget() throws {
        var s = Scenario()
        let bank = s.wallet("Bank")
        s.add(.incomeSettingsSet(IncomeSettingsSet(mode: .manual, monthlyIncome: chf(500_005), incomeCategoryIDs: [], graceDays: 3)))
        s.expense(20_000, wallet: bank, category: S.savings, on: "2026-02-03")
        s.expense(5_000, wallet: bank, category: S.savings, on: "2026-02-10")
        s.expense(99_000, wallet: bank, category: S.groceries, on: "2026-02-10")  // not savings
        let savings = try s.fold(BudgetProjection.self).budget(for: period("2026-02-01", "2026-02-28")).savings
        #expect(savings.targetSource == .suggested && savings.target == chf(100_001))
        #expect(savings.weeks.map(\.weekStart) == ["2026-01-26", "2026-02-02", "2026-02-09", "2026-02-16", "2026-02-23"].map(d))
        #expect(savings.weeks.map(\.target) == [chf(20_001), chf(20_000), chf(20_000), chf(20_000), chf(20_000)])
        #expect(savings.weeks.map(\.saved) == [chf(0), chf(20_000), chf(5_000), chf(0), chf(0)])
        #expect(savings.weeks.map(\.isMet) == [false, true, false, false, false], "the celebration: a week that reached its share")
        #expect(savings.saved == chf(25_000))
        #expect(savings.week(containing: d("2026-02-12"))?.saved == chf(5_000))
        #expect(savings.week(containing: d("2026-03-02")) == nil)
    }

    @Test("US-038: a household that allocated its savings categories sets the target; an income booked to a savings category counts as saved")
    func weeklySavingsAgainstTheAllocatedTarget() throws {
        var s = Scenario()
        let bank = s.wallet("Bank")
        let interest: CategoryID = s.id()
        s.category(interest, "Savings interest", .income, .savings)
        s.add(.incomeSettingsSet(IncomeSettingsSet(mode: .manual, monthlyIncome: chf(500_000), incomeCategoryIDs: [], graceDays: 3)))
        s.add(.budgetAllocated(BudgetAllocated(categoryID: S.savings, amount: chf(40_000), fromPeriod: d("2026-01-01"))))
        s.income(10_000, wallet: bank, category: interest, on: "2026-03-02")
        let savings = try s.fold(BudgetProjection.self).budget(for: period("2026-03-02", "2026-03-29")).savings
        #expect(savings.targetSource == .allocated && savings.target == chf(40_000))
        #expect(savings.weeks.map(\.target) == Array(repeating: chf(10_000), count: 4))
        #expect(savings.weeks.first?.saved == chf(10_000) && savings.weeks.first?.isMet == true)
    }
}
