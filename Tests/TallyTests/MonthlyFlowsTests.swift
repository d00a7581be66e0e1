import Tally
import TallyModel
import TallyProjections
import TallyTestSupport
import Testing

/// N5 (Tim, Step 3.2): monthly inflow and outflow from each wallet's net change, counted by its
/// persisted designation, through the engine and `Ledger.flows`.
@Suite("N5: monthly flows")
struct MonthlyFlowsTests {
    static func month(_ text: String) -> YearMonth {
        guard let month = try? YearMonth(iso: text) else { preconditionFailure("not a month in a test: \(text)") }
        return month
    }

    static func expense(_ s: Scenario, _ units: Int64, _ wallet: WalletID, _ day: String, _ currency: Currency = .chf) -> TransactionEntry {
        TransactionEntry(kind: .expense, amount: Money(minorUnits: units, currency: currency), walletID: wallet,
                         categoryID: s.groceries, date: Scenario.date(day), payer: s.alice)
    }

    static func income(_ s: Scenario, _ units: Int64, _ wallet: WalletID, _ day: String) -> TransactionEntry {
        TransactionEntry(kind: .income, amount: Scenario.chf(units), walletID: wallet, categoryID: s.salary,
                         date: Scenario.date(day), payer: s.alice)
    }

    static func row(_ flows: MonthlyFlows, _ wallet: WalletID) -> WalletMonthFlow? { flows.wallets.first { $0.walletID == wallet } }

    @Test("N5: without balance points the ledger balance counts, from the balance the month starts with; once a wallet has a point, points take priority, and a month without a point in it changes by 0")
    func ledgerBalanceAndMonthWithoutPoints() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("n5-ledger")
        defer { test.directory.remove() }
        try await test.ledger.execute(s.setup())  // Joint: CHF 1000.00 from 2026-01-01
        let savings: WalletID = s.ids.next()
        try await test.ledger.execute([
            s.command(.openWallet(walletID: savings, name: "Savings", kind: .savings, openingBalance: Scenario.chf(500_000),
                                  openedOn: Scenario.date("2026-01-01"), owner: nil)),
            s.command(.setWalletDesignation(walletID: s.joint, designation: .both, fromMonth: nil)),
            s.command(.setWalletDesignation(walletID: savings, designation: .inflow, fromMonth: nil)),
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.expense(s, 20_000, s.joint, "2026-01-10"))),
            // Dated the 1st: counts in February (the base is the balance February starts with).
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.income(s, 50_000, s.joint, "2026-02-01"))),
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.expense(s, 10_000, s.joint, "2026-02-15"))),
            // From its first point on, points take priority over the ledger balance.
            s.command(.recordBalance(walletID: savings, date: Scenario.date("2026-01-15"), balance: Scenario.chf(520_000))),
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.income(s, 99_900, savings, "2026-02-20"))),
            s.command(.recordBalance(walletID: savings, date: Scenario.date("2026-03-10"), balance: Scenario.chf(550_000))),
        ])
        let flows = try await test.ledger.flows(from: Self.month("2026-01"), through: Self.month("2026-03"), visibleTo: .audit)
        #expect(flows.map(\.month.isoString) == ["2026-01", "2026-02", "2026-03"])
        let joint = flows.map { Self.row($0, s.joint) }
        #expect(joint[0]?.base == Scenario.chf(100_000) && joint[0]?.latest == Scenario.chf(80_000) && joint[0]?.source == .ledger)
        #expect(joint[1]?.base == Scenario.chf(80_000) && joint[1]?.change == Scenario.chf(40_000))
        #expect(joint[2]?.change == Scenario.chf(0), "March: nothing moved")
        let points = flows.map { Self.row($0, savings) }
        #expect(points[0]?.source == .balancePoints && points[0]?.base == Scenario.chf(500_000) && points[0]?.change == Scenario.chf(20_000),
                "January is its first tracked month: the opening balance is the base, the point the latest balance")
        #expect(points[1]?.base == Scenario.chf(520_000) && points[1]?.latest == nil && points[1]?.change == Scenario.chf(0),
                "February has no point: change 0, whatever its transactions")
        #expect(points[2]?.change == Scenario.chf(30_000))
        #expect(flows[0].inflow == Scenario.chf(20_000) && flows[0].outflow == Scenario.chf(20_000))
        #expect(flows[1].inflow == Scenario.chf(40_000) && flows[1].outflow == Scenario.chf(0))
        #expect(flows[2].inflow == Scenario.chf(30_000) && flows[2].outflow == Scenario.chf(0))
        try await test.ledger.close()
    }

    @Test("N5: the month a wallet is first tracked: a wallet opened mid-month starts from its opening balance, one with a point before its opening from that point; before that it is not listed")
    func firstTrackedMonth() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("n5-first")
        defer { test.directory.remove() }
        try await test.ledger.execute(s.setup())
        let cash: WalletID = s.ids.next()
        let broker: WalletID = s.ids.next()
        try await test.ledger.execute([
            s.command(.openWallet(walletID: cash, name: "Cash", kind: .cash, openingBalance: Scenario.chf(30_000),
                                  openedOn: Scenario.date("2026-02-10"), owner: nil)),
            s.command(.openWallet(walletID: broker, name: "Broker", kind: .investment, openingBalance: Scenario.chf(0),
                                  openedOn: Scenario.date("2026-03-15"), owner: nil)),
            s.command(.setWalletDesignation(walletID: cash, designation: .both, fromMonth: nil)),
            s.command(.setWalletDesignation(walletID: broker, designation: .both, fromMonth: nil)),
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.income(s, 2_000, cash, "2026-02-10"))),
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.expense(s, 5_000, cash, "2026-02-12"))),
            // Values known from before the wallet was opened in tally.
            s.command(.recordBalance(walletID: broker, date: Scenario.date("2026-02-20"), balance: Scenario.chf(900_000))),
            s.command(.recordBalance(walletID: broker, date: Scenario.date("2026-02-27"), balance: Scenario.chf(950_000))),
        ])
        let january = try await test.ledger.flows(in: Self.month("2026-01"), visibleTo: .audit)
        #expect(Self.row(january, cash) == nil, "Cash opens in February")
        let february = try await test.ledger.flows(in: Self.month("2026-02"), visibleTo: .audit)
        #expect(Self.row(february, cash)?.base == Scenario.chf(30_000), "the opening balance, before the opening day's movements")
        #expect(Self.row(february, cash)?.change == Scenario.chf(-3_000))
        #expect(Self.row(january, broker) == nil, "the broker's first point is in February")
        #expect(Self.row(february, broker)?.base == Scenario.chf(900_000) && Self.row(february, broker)?.change == Scenario.chf(50_000),
                "its first point, before its opening, is its first balance")
        #expect(february.inflow == Scenario.chf(50_000) && february.outflow == Scenario.chf(3_000))
        let march = try await test.ledger.flows(in: Self.month("2026-03"), visibleTo: .audit)
        #expect(Self.row(march, broker)?.latest == nil && Self.row(march, broker)?.change == Scenario.chf(0),
                "no point in March: the February point holds, whatever the opening says")
        try await test.ledger.close()
    }

    @Test("N5: a card (liability) counts as net worth: spending on it is a negative change (outflow), paying it off a positive one (inflow)")
    func cardWallet() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("n5-card")
        defer { test.directory.remove() }
        try await test.ledger.execute(s.setup())
        let visa: WalletID = s.ids.next()
        try await test.ledger.execute([
            s.command(.openWallet(walletID: visa, name: "Visa", kind: .card, openingBalance: Scenario.chf(0),
                                  openedOn: Scenario.date("2026-01-01"), owner: nil)),
            s.command(.setWalletDesignation(walletID: visa, designation: .both, fromMonth: nil)),
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.expense(s, 8_000, visa, "2026-02-05"))),
            s.command(.recordTransfer(transferID: s.ids.next(), fromWalletID: s.joint, toWalletID: visa, amountSent: Scenario.chf(8_000),
                                      amountReceived: Scenario.chf(8_000), date: Scenario.date("2026-03-02"), note: nil)),
            // A point on a card is what is owed, like its balance (W1).
            s.command(.recordBalance(walletID: visa, date: Scenario.date("2026-04-30"), balance: Scenario.chf(2_500))),
        ])
        let flows = try await test.ledger.flows(from: Self.month("2026-02"), through: Self.month("2026-04"), visibleTo: .audit)
        #expect(Self.row(flows[0], visa)?.change == Scenario.chf(-8_000) && flows[0].outflow == Scenario.chf(8_000))
        #expect(Self.row(flows[1], visa)?.change == Scenario.chf(8_000) && flows[1].inflow == Scenario.chf(8_000),
                "the Joint account is not designated: only the card counts")
        #expect(Self.row(flows[2], visa)?.source == .balancePoints && Self.row(flows[2], visa)?.latest == Scenario.chf(-2_500)
                && Self.row(flows[2], visa)?.change == Scenario.chf(-2_500) && flows[2].outflow == Scenario.chf(2_500),
                "April: from the ledger's 0 owed to the point's 25.00 owed, which is -25.00 of net worth")
        try await test.ledger.close()
    }

    @Test("N5, G2: changes in several currencies convert at the month's end and the totals round the exact sum once; a currency without a rate is listed and left out")
    func mixedCurrencies() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("n5-fx")
        defer { test.directory.remove() }
        try await test.ledger.execute(s.setup())
        let first: WalletID = s.ids.next()
        let second: WalletID = s.ids.next()
        let dollars: WalletID = s.ids.next()
        let opened = Scenario.date("2026-01-01")
        try await test.ledger.execute([
            s.command(.openWallet(walletID: first, name: "Euro 1", kind: .cash, openingBalance: Scenario.eur(100), openedOn: opened, owner: nil)),
            s.command(.openWallet(walletID: second, name: "Euro 2", kind: .cash, openingBalance: Scenario.eur(100), openedOn: opened, owner: nil)),
            s.command(.openWallet(walletID: dollars, name: "Dollars", kind: .cash, openingBalance: Money(minorUnits: 0, currency: .usd), openedOn: opened, owner: nil)),
            // 1 EUR = 0.5 CHF: one euro cent is half a Rappen.
            s.command(.setExchangeRate(exchangeRate: try ExchangeRate(base: .eur, quote: .chf, scaledRate: ExchangeRate.scale / 2), asOf: opened)),
            s.command(.setWalletDesignation(walletID: first, designation: .inflow, fromMonth: nil)),
            s.command(.setWalletDesignation(walletID: second, designation: .inflow, fromMonth: nil)),
            s.command(.setWalletDesignation(walletID: dollars, designation: .both, fromMonth: nil)),
            s.command(.recordBalance(walletID: first, date: Scenario.date("2026-03-01"), balance: Scenario.eur(100))),
            s.command(.recordBalance(walletID: first, date: Scenario.date("2026-03-31"), balance: Scenario.eur(101))),
            s.command(.recordBalance(walletID: second, date: Scenario.date("2026-03-01"), balance: Scenario.eur(100))),
            s.command(.recordBalance(walletID: second, date: Scenario.date("2026-03-31"), balance: Scenario.eur(101))),
            s.command(.recordBalance(walletID: dollars, date: Scenario.date("2026-03-02"), balance: Money(minorUnits: 0, currency: .usd))),
            s.command(.recordBalance(walletID: dollars, date: Scenario.date("2026-03-30"), balance: Money(minorUnits: 5_000, currency: .usd))),
        ])
        let march = try await test.ledger.flows(in: Self.month("2026-03"), visibleTo: .audit)
        #expect(Self.row(march, first)?.change == Scenario.eur(1) && Self.row(march, first)?.convertedChange == Scenario.chf(0),
                "EUR 0.01 is CHF 0.005, shown rounded on its own")
        #expect(march.inflow == Scenario.chf(1), "0.005 + 0.005 = 0.01 exactly, rounded once (a sum of rounded parts says 0.00)")
        #expect(march.missingRates == [.usd] && !march.isComplete)
        #expect(Self.row(march, dollars)?.convertedChange == nil && march.outflow == Scenario.chf(0))
        try await test.ledger.close()
    }

    @Test("N5, T5: a designation changed mid-history applies from its month; earlier months keep the old one; undo removes the entry (blocked while a later designation of the wallet stands); never designated counts for nothing")
    func designationChangedMidHistory() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("n5-designation")
        defer { test.directory.remove() }
        try await test.ledger.execute(s.setup())
        let cash: WalletID = s.ids.next()
        try await test.ledger.execute([
            s.command(.openWallet(walletID: cash, name: "Cash", kind: .cash, openingBalance: Scenario.chf(10_000),
                                  openedOn: Scenario.date("2026-01-01"), owner: nil)),
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.expense(s, 1_000, s.joint, "2026-01-10"))),
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.expense(s, 2_000, s.joint, "2026-02-10"))),
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.expense(s, 3_000, s.joint, "2026-03-10"))),
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.expense(s, 500, cash, "2026-03-11"))),
        ])
        func outflows() async throws -> [Int64] {
            try await test.ledger.flows(from: Self.month("2026-01"), through: Self.month("2026-03"), visibleTo: .audit).map(\.outflow.minorUnits)
        }
        #expect(try await outflows() == [0, 0, 0], "no wallet is designated: neither counts for nothing")
        let outflow = s.command(.setWalletDesignation(walletID: s.joint, designation: .outflow, fromMonth: nil))
        try await test.ledger.execute(outflow)
        #expect(try await outflows() == [1_000, 2_000, 3_000])
        let change = s.command(.setWalletDesignation(walletID: s.joint, designation: .neither, fromMonth: Self.month("2026-02")))
        try await test.ledger.execute(change)
        #expect(try await outflows() == [1_000, 0, 0], "from February the Joint account counts for nothing")
        await expectRejection(test.ledger, s.command(.undo(targetCommandID: outflow.commandID)), code: "undoBlocked", rule: "T5")
        try await test.ledger.execute(s.command(.undo(targetCommandID: change.commandID)))
        #expect(try await outflows() == [1_000, 2_000, 3_000], "undo removed the February entry")
        #expect(await test.ledger.readModels.wallets.designations(of: s.joint).map(\.fromMonth) == [nil])
        try await test.ledger.execute(s.command(.setWalletDesignation(walletID: s.joint, designation: .neither, fromMonth: Self.month("2026-03"))))
        try await test.ledger.execute(s.command(.setWalletDesignation(walletID: s.joint, designation: .inflow, fromMonth: nil)))
        #expect(try await outflows() == [0, 0, 0], "an entry for every month changes the months before March only; March has its own")
        try await test.ledger.execute(s.command(.setWalletDesignation(walletID: s.joint, designation: .both, fromMonth: nil)))
        try await test.ledger.execute(s.command(.setWalletDesignation(walletID: cash, designation: .outflow, fromMonth: Self.month("2026-03"))))
        #expect(try await outflows() == [1_000, 2_000, 500], "March keeps its own entry (neither) for Joint; Cash counts from March")
        // The read models after a replay (and from a checkpoint) hold the same designations.
        let live = try await test.ledger.readModels.canonicalJSON().text
        try await test.ledger.close()
        let reopened = try await test.reopen()
        #expect(try await reopened.readModels.canonicalJSON().text == live)
        try await reopened.close()
    }

    @Test("N5: setWalletDesignation rejects an unknown wallet (W1) and a closed one (W4), appending nothing")
    func rejections() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("n5-rejections")
        defer { test.directory.remove() }
        try await test.ledger.execute(s.setup())
        let empty: WalletID = s.ids.next()
        try await test.ledger.execute([
            s.command(.openWallet(walletID: empty, name: "Empty", kind: .cash, openingBalance: Scenario.chf(0),
                                  openedOn: Scenario.date("2026-01-01"), owner: nil)),
            s.command(.closeWallet(walletID: empty, closedOn: Scenario.date("2026-01-31"))),
        ])
        await expectRejection(test.ledger, s.command(.setWalletDesignation(walletID: s.ids.next(), designation: .both, fromMonth: nil)),
                              code: "unknownWallet", rule: "W1")
        await expectRejection(test.ledger, s.command(.setWalletDesignation(walletID: empty, designation: .inflow, fromMonth: nil)),
                              code: "walletInactive", rule: "W4")
        try await test.ledger.close()
    }

    @Test("N5: the flows query refuses a range that ends before it starts or is longer than 1200 months")
    func rangeLimits() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("n5-range")
        defer { test.directory.remove() }
        try await test.ledger.execute(s.setup())
        do {
            _ = try await test.ledger.flows(from: Self.month("2026-03"), through: Self.month("2026-01"), visibleTo: .audit)
            Issue.record("a reversed range was accepted")
        } catch {
            #expect(error.code == "invalidQuery")
        }
        do {
            _ = try await test.ledger.flows(from: Self.month("1900-01"), through: Self.month("2026-01"), visibleTo: .audit)
            Issue.record("1513 months were accepted")
        } catch {
            #expect(error.code == "invalidQuery")
        }
        try await test.ledger.close()
    }
}
