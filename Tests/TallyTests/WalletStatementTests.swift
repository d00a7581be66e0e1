import Foundation
@testable import Tally
import TallyModel
import TallyStore
import TallyTestSupport
import Testing

/// Issue 15: a wallet's statement (transactions and transfers by date, with the running
/// balance), checked against a reference fold of the same commands.
@Suite("Wallet statement (read side)", .serialized)
struct WalletStatementTests {
    /// A movement as the reference keeps it.
    struct Expected {
        let date: LocalDate
        let sequenceNumber: UInt64
        let delta: Int64
        var isLive = true
    }

    @Test("W3, W6: every row's balance is the opening balance plus every live movement up to it by (date, sequence); read in pages of 3 both ways, transfers in and out included, deleted ones left out")
    func runningBalanceMatchesTheReference() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("statement", durability: .synchronous)
        defer { test.directory.remove() }
        let ledger = test.ledger
        try await ledger.execute(s.setup())
        var expected: [Expected] = []
        var random = SeededRandom(seed: 1515)
        var recorded: [(id: TransactionID, index: Int)] = []
        for index in 0..<30 {
            let date = try Scenario.date("2026-01-02").adding(days: Int64.random(in: 0..<12, using: &random))  // busy days
            let amount = Int64.random(in: 1...90, using: &random) * 10
            let positions: [EventPosition]
            if index % 5 == 0 {
                let outgoing = index % 10 == 0
                positions = try await ledger.execute(s.command(.recordTransfer(
                    transferID: s.ids.next(), fromWalletID: outgoing ? s.joint : s.euroCard, toWalletID: outgoing ? s.euroCard : s.joint,
                    amountSent: outgoing ? Scenario.chf(amount) : Scenario.eur(amount),
                    amountReceived: outgoing ? Scenario.eur(amount + 5) : Scenario.chf(amount - 5), date: date, note: nil)))
                expected.append(Expected(date: date, sequenceNumber: try #require(positions.first).sequenceNumber, delta: outgoing ? -amount : amount - 5))
            } else {
                let id: TransactionID = s.ids.next()
                var entry = s.expense(amount)
                entry.date = date
                if index % 7 == 0 { entry.kind = .income; entry.categoryID = s.salary }
                positions = try await ledger.execute(s.command(.recordTransaction(transactionID: id, entry: entry)))
                recorded.append((id, expected.count))
                expected.append(Expected(date: date, sequenceNumber: try #require(positions.first).sequenceNumber, delta: entry.kind == .income ? amount : -amount))
            }
        }
        // A deleted transaction counts nowhere (T3).
        try await ledger.execute(s.command(.deleteTransaction(transactionID: recorded[3].id)))
        expected[recorded[3].index].isLive = false
        let live = expected.filter(\.isLive).sorted { ($0.date, $0.sequenceNumber) < ($1.date, $1.sequenceNumber) }
        var running: Int64 = 100_000
        let balances = live.map { movement -> Int64 in
            running += movement.delta
            return running
        }
        for order in [TransactionQuery.Order.oldestFirst, .newestFirst] {
            var query = StatementQuery(walletID: s.joint, visibleTo: .audit)
            query.order = order
            query.limit = 3
            let rows = try await allPages(of: query, cursor: \.after, next: \.next) { query in
                try await ledger.statement(query)
            }.flatMap(\.rows)
            let want = order == .oldestFirst ? Array(zip(live, balances)) : Array(zip(live, balances).reversed())
            #expect(rows.map(\.sequenceNumber) == want.map(\.0.sequenceNumber), "\(order): the rows in (date, sequence) order, each once")
            #expect(rows.map(\.amount.minorUnits) == want.map(\.0.delta), "\(order): signed movements")
            #expect(rows.map { $0.balance?.minorUnits } == want.map(\.1), "\(order): running balances")
        }
        let joint = s.joint
        let current = try await ledger.auditRead { models in try models.wallets.balance(of: joint) }
        #expect(current?.minorUnits == balances.last, "the newest row's balance is the wallet's balance")
        try await ledger.close()
    }

    @Test("W6, W1: a transfer row names both wallets and both amounts; in the card's statement (a liability) the money paid in lowers what is owed, in its own currency, as the card's balance reports it")
    func transferRowsNameBothWallets() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("statement-transfer", durability: .synchronous)
        defer { test.directory.remove() }
        try await test.ledger.execute(s.setup())
        try await test.ledger.execute(s.command(.recordTransfer(
            transferID: s.ids.next(), fromWalletID: s.joint, toWalletID: s.euroCard, amountSent: Scenario.chf(1_000),
            amountReceived: Scenario.eur(1_050), date: Scenario.date("2026-01-03"), note: nil)))
        let joint = try await test.ledger.statement(StatementQuery(walletID: s.joint, visibleTo: .audit)).rows
        let card = try await test.ledger.statement(StatementQuery(walletID: s.euroCard, visibleTo: .audit)).rows
        #expect(joint.map(\.amount) == [Scenario.chf(-1_000)] && joint.map(\.balance) == [Scenario.chf(99_000)])
        #expect(card.map(\.amount) == [Scenario.eur(-1_050)] && card.map(\.balance) == [Scenario.eur(-1_050)])
        let euroCard = s.euroCard
        #expect(try await test.ledger.auditRead { try $0.wallets.balance(of: euroCard) } == Scenario.eur(-1_050), "the card's balance agrees")
        guard case .transfer(let transfer) = try #require(joint.first).movement else {
            Issue.record("a transfer row")
            return
        }
        #expect(transfer.fromWalletName == "Joint" && transfer.toWalletName == "Euro card")
        #expect(transfer.amountSent == Scenario.chf(1_000) && transfer.amountReceived == Scenario.eur(1_050))
        try await test.ledger.close()
    }

    @Test("W1: a card's statement (a liability) with several expenses and a payment on one day, one dated before the card was opened, read newest first: each balance is what is owed after that movement")
    func liabilityRunningBalance() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("statement-card", durability: .synchronous)
        defer { test.directory.remove() }
        try await test.ledger.execute(s.setup())
        var owed: Int64 = 0
        var want: [Int64] = []
        for (index, amount) in [1_250, 800, 4_000, 330].enumerated() {
            var entry = s.expense(Int64(amount))
            entry.walletID = s.euroCard
            entry.amount = Scenario.eur(Int64(amount))
            entry.date = Scenario.date(index == 0 ? "2025-12-30" : "2026-01-10")  // the first before the opening (2026-01-01)
            try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: entry)))
            owed += Int64(amount)
            want.append(owed)
            if index == 2 {
                try await test.ledger.execute(s.command(.recordTransfer(
                    transferID: s.ids.next(), fromWalletID: s.joint, toWalletID: s.euroCard, amountSent: Scenario.chf(2_000),
                    amountReceived: Scenario.eur(1_900), date: Scenario.date("2026-01-10"), note: nil)))
                owed -= 1_900
                want.append(owed)
            }
        }
        var query = StatementQuery(walletID: s.euroCard, visibleTo: .audit)
        query.limit = 2
        let rows = try await allPages(of: query, cursor: \.after, next: \.next) { query in
            try await test.ledger.statement(query)
        }.flatMap(\.rows)
        #expect(rows.map { $0.balance?.minorUnits } == want.reversed(), "owed after each movement, newest first")
        #expect(rows.map(\.amount.minorUnits) == [330, -1_900, 4_000, 800, 1_250])
        let card = s.euroCard
        #expect(try await test.ledger.auditRead { try $0.wallets.balance(of: card) }?.minorUnits == owed)
        try await test.ledger.close()
    }

    @Test("W5: an observed wallet's statement lists its movements without a running balance; an order by amount and a cursor of another order are typed errors")
    func observedWalletsAndInvalidQueries() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("statement-observed", durability: .synchronous)
        defer { test.directory.remove() }
        try await test.ledger.execute(s.setup())
        let depot: WalletID = s.ids.next()
        try await test.ledger.execute(s.command(.openWallet(
            walletID: depot, name: "Depot", kind: .investment, openingBalance: Scenario.chf(500_000),
            openedOn: Scenario.date("2026-01-01"), owner: nil)))
        try await test.ledger.execute(s.command(.recordTransfer(
            transferID: s.ids.next(), fromWalletID: s.joint, toWalletID: depot, amountSent: Scenario.chf(10_000),
            amountReceived: Scenario.chf(10_000), date: Scenario.date("2026-01-04"), note: nil)))
        let rows = try await test.ledger.statement(StatementQuery(walletID: depot, visibleTo: .audit)).rows
        #expect(rows.count == 1 && rows.first?.amount == Scenario.chf(10_000) && rows.first?.balance == nil)
        var query = StatementQuery(walletID: s.joint, visibleTo: .audit)
        query.order = .largestFirst
        await #expect(throws: LedgerError.self) { try await test.ledger.statement(query) }
        query.order = .oldestFirst
        query.after = TransactionCursor("date-desc.20260104.9")
        await #expect(throws: LedgerError.self) { try await test.ledger.statement(query) }
        try await test.ledger.close()
    }
}
