import TallyModel
import TallyProjections
import TallyTestSupport
import Testing

@Suite("NetWorthProjection")
struct NetWorthProjectionTests {
    typealias S = Scenario

    @Test("N1/N2: monthly points from the first to the last event month, liabilities negative, values carried forward")
    func monthlySeries() throws {
        var s = Scenario()
        let bank = s.wallet("Bank", opening: 100_000, on: "2026-01-05")
        s.wallet("Card", .card, opening: 20_000, on: "2026-01-10")
        s.expense(30_000, wallet: bank, on: "2026-03-10")
        let series = try s.fold(NetWorthProjection.self).series()
        #expect(series.map(\.month.isoString) == ["2026-01", "2026-02", "2026-03"])
        #expect(series.map(\.value) == [chf(80_000), chf(80_000), chf(50_000)])
        #expect(series[0].contributions.map(\.value) == [chf(100_000), chf(-20_000)])
    }

    @Test("N3: a wallet without a rate at the month end is a gap, not converted at 1.0")
    func fxGapInSeries() throws {
        var s = Scenario()
        s.wallet("Bank", opening: 100_000, on: "2026-01-05")
        s.wallet("Euro", opening: 10_000, currency: .eur, on: "2026-01-05")
        s.rate(.eur, .chf, "0.95", on: "2026-02-01")
        s.expense(1, wallet: s.wallet("Spare", opening: 1, on: "2026-02-10"), on: "2026-02-10")
        let series = try s.fold(NetWorthProjection.self).series()
        #expect(series[0].missingRates == [.eur] && series[0].value == chf(100_000))
        #expect(series[0].contributions[1].converted == nil)
        #expect(series[1].isComplete && series[1].value == chf(100_000 + 9_500))
    }

    @Test("N4: baseline moves each wallet by the average of its last 3 monthly deltas; short histories stay flat")
    func baseline() throws {
        var s = Scenario()
        let bank = s.wallet("Bank", opening: 100_000, on: "2026-01-05")
        s.income(10_000, wallet: bank, on: "2026-02-05")
        s.income(20_000, wallet: bank, on: "2026-03-05")
        s.income(30_000, wallet: bank, on: "2026-04-05")
        s.wallet("New", opening: 5_000, on: "2026-04-20")
        let baseline = try s.fold(NetWorthProjection.self).baseline()
        #expect(baseline.count == 12)
        #expect(baseline.first?.month.isoString == "2026-05")
        #expect(baseline.first?.value == chf(160_000 + 20_000 + 5_000))
        #expect(baseline.last?.month.isoString == "2027-04")
        #expect(baseline.last?.value == chf(160_000 + 12 * 20_000 + 5_000))
    }

    @Test("N5: the projection nets each wallet's month (not day by day): a bank's income and expenses net to one change; a valuation counts as a change; designations decide what counts")
    func monthlyFlows() throws {
        var s = Scenario()
        let bank = s.wallet("Bank", opening: 100_000, on: "2026-01-15")
        let house = s.wallet("House", .property, opening: 1_000_000, on: "2026-01-01")
        s.add(.walletDesignationSet(WalletDesignationSet(walletID: bank, designation: .both, fromMonth: nil)))
        s.add(.walletDesignationSet(WalletDesignationSet(walletID: house, designation: .inflow, fromMonth: nil)))
        s.income(50_000, wallet: bank, on: "2026-01-20")
        s.expense(20_000, wallet: bank, on: "2026-01-25")
        s.expense(10_000, wallet: bank, on: "2026-02-03")
        s.add(.balanceRecorded(BalanceRecorded(walletID: house, date: d("2026-02-10"), balance: chf(1_200_000))))
        let projection = s.fold(NetWorthProjection.self)
        let flows = try projection.flows(from: YearMonth(year: 2026, month: 1), through: YearMonth(year: 2026, month: 2), visibleTo: .audit)
        #expect(flows.count == 2)
        let january = flows[0].wallets.first { $0.walletID == bank }
        #expect(january?.change == chf(30_000) && january?.inflow == chf(30_000) && january?.outflow == chf(0))
        #expect(flows[1].wallets.first { $0.walletID == house }?.inflow == chf(200_000))
        #expect(flows[1].inflow == chf(200_000) && flows[1].outflow == chf(10_000))
        #expect(projection.wallets.designation(of: house, in: try YearMonth(year: 2026, month: 2)) == .inflow)
    }
}
