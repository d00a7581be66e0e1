import Foundation
@testable import Tally
import TallyModel
import TallyStore
import TallyTestSupport
import Testing

/// Issue 31 item 3 (Flow's list filters): shared or personal transactions, in pages and reports.
@Suite("S2: lists filtered to shared or personal transactions", .serialized)
struct SharingFilterTests {
    @Test("S2: shared == true lists exactly the transactions with a split, false the personal ones, nil both; a report by month filtered so sums the same rows; an edit that shares a personal expense moves it")
    func sharedAndPersonal() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("sharing-filter", durability: .synchronous)
        defer { test.directory.remove() }
        try await test.ledger.execute(s.setup())
        var shared: [TransactionID] = []
        var personal: [TransactionID] = []
        for (index, amount) in [1_000, 2_000, 3_000, 4_000, 5_000].enumerated() {
            let id: TransactionID = s.ids.next()
            try await test.ledger.execute(s.command(.recordTransaction(transactionID: id, entry: s.expense(Int64(amount), shared: index % 2 == 0))))
            if index % 2 == 0 { shared.append(id) } else { personal.append(id) }
        }
        func listed(_ value: Bool?) async throws -> Set<TransactionID> {
            var query = TransactionQuery(visibleTo: .audit)
            query.shared = value
            return Set(try await test.ledger.transactions(query).rows.map(\.transaction.transactionID))
        }
        #expect(try await listed(true) == Set(shared))
        #expect(try await listed(false) == Set(personal))
        #expect(try await listed(nil) == Set(shared + personal))

        var report = TransactionQuery(visibleTo: .audit)
        report.shared = true
        report.restrict(to: try YearMonth(year: 2026, month: 1))
        let totals = try await test.ledger.categoryTotals(byMonth: report)
        #expect(totals.map(\.total) == [Scenario.chf(1_000 + 3_000 + 5_000)], "the shared rows only: \(totals)")

        let moved = try #require(personal.first)
        try await test.ledger.execute(s.command(.editTransaction(transactionID: moved, entry: s.expense(2_000, shared: true))))
        let (nowShared, nowPersonal) = (try await listed(true), try await listed(false))
        #expect(nowShared == Set(shared + [moved]) && !nowPersonal.contains(moved))
        try await test.ledger.close()
    }
}
