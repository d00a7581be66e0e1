import Foundation
import Testing

/// Issue 31 (Swiff 1.3.1 sparkline and history, 2.3.2, Phase 5 investments): `tally people`,
/// `tally investments`, `tally transactions --debts` and `--sort category` on
/// Sources/TallyCLI/Demo/household.jsonl.
@Suite("CLI: people, investments, settled / pending, sort by category")
struct PeopleCLITests {
    /// `tally <arguments>` exits 0 and prints JSON.
    static func json(_ arguments: [String]) throws -> Any {
        let result = try TallyRunner.run(arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    }

    static let (alice, bob) = ("00000002-0000-4000-8000-000000000001", "00000002-0000-4000-8000-000000000002")

    @Test("Swiff 1.3.1 sparkline, 2.3.2, G7: people lists a member's own balances in each order; the history's last point is the current balance; whose balance must be named")
    func peopleBalancesAndHistory() throws {
        let ledger = try TallyRunner.householdLedger()
        let bobs = try #require(try Self.json(["people", "--json", "--as", "Bob", "--ledger", ledger]) as? [[String: Any]])
        #expect(!bobs.isEmpty && bobs.allSatisfy { $0["person"] as? String == Self.bob }, "G7: Bob's own pairs")
        for order in ["balance-desc", "activity-desc"] {
            let sorted = try #require(try Self.json(["people", "balances", "--json", "--as", "Bob", "--sort", order, "--ledger", ledger]) as? [[String: Any]])
            #expect(Set(sorted.compactMap { $0["other"] as? String }) == Set(bobs.compactMap { $0["other"] as? String }), "\(order): the same rows")
        }
        let points = try #require(try Self.json(["people", "history", "--with", "Alice", "--as", "Bob", "--json", "--ledger", ledger]) as? [[String: Any]])
        #expect(!points.isEmpty)
        let last = try #require(points.last?["balances"] as? [[String: Any]])
        let current = bobs.filter { $0["other"] as? String == Self.alice }
        #expect(NSArray(array: last) == NSArray(array: current), "the last point is the current balance")
        let text = try TallyRunner.run(["people", "history", "--with", "Bob", "--of", "Alice", "--ledger", ledger])
        #expect(text.status == 0 && text.stdout.contains("2026-"), "\(text.stdout)\(text.stderr)")
        let nobody = try TallyRunner.run(["people", "history", "--with", "Alice", "--ledger", ledger])
        #expect(nobody.status == 2 && nobody.stderr.contains("--of PERSON"), "\(nobody.stderr)")
    }

    @Test("Swiff 1.3.1 history: a person's group expenses across groups with a settled / open filter; transactions --debts settled|pending lists shared ones only")
    func groupExpensesAndDebtsFilter() throws {
        let ledger = try TallyRunner.householdLedger()
        let all = try #require(try Self.json(["people", "expenses", "--person", "Bob", "--json", "--ledger", ledger]) as? [[String: Any]])
        #expect(all.count == 3, "the three Ski weekend expenses name Bob")
        let settled = try #require(try Self.json(["people", "expenses", "--person", "Bob", "--state", "settled", "--json", "--ledger", ledger]) as? [[String: Any]])
        let open = try #require(try Self.json(["people", "expenses", "--person", "Bob", "--state", "open", "--json", "--ledger", ledger]) as? [[String: Any]])
        #expect(settled.count + open.count == all.count)
        var shared = 0
        for state in ["settled", "pending"] {
            let rows = try QueryCLITests.pagedRows(["transactions", "--json", "--debts", state, "--deleted", "included", "--ledger", ledger])
            #expect(rows.allSatisfy { ($0["split"] as? [Any])?.isEmpty == false }, "\(state): shared transactions only")
            shared += rows.count
        }
        let sharedRows = try QueryCLITests.pagedRows(["transactions", "--json", "--sharing", "shared", "--deleted", "included", "--ledger", ledger])
        #expect(shared == sharedRows.count, "every shared transaction is settled or pending")
        let bad = try TallyRunner.run(["transactions", "--debts", "later", "--ledger", ledger])
        #expect(bad.status == 2, "\(bad.stderr)")
    }

    @Test("Swiff 2.3.2: --sort category pages through every row, by category name")
    func sortByCategory() throws {
        let ledger = try TallyRunner.householdLedger()
        let paged = try QueryCLITests.allRows(ledger, ["--sort", "category", "--limit", "2"])
        let names = paged.map { $0["categoryName"] as? String ?? "" }
        #expect(names == names.sorted(), "by category name")
        #expect(paged.count == (try QueryCLITests.allRows(ledger, [])).count, "every row once")
    }

    @Test("Swiff Phase 5 investments: value, net contributions, gain and allocation of the investment wallets")
    func investments() throws {
        let ledger = try TallyRunner.householdLedger()
        let portfolio = try #require(try Self.json(["investments", "--json", "--ledger", ledger]) as? [String: Any])
        let positions = try #require(portfolio["positions"] as? [[String: Any]])
        #expect(positions.map { $0["name"] as? String } == ["ETF portfolio"])
        #expect(positions.first?["allocationBasisPoints"] as? Int == 10_000)
        let text = try TallyRunner.run(["investments", "--as", "Bob", "--ledger", ledger])
        #expect(text.status == 0 && text.stdout.contains("ETF portfolio") && text.stdout.contains("100.00%"), "\(text.stdout)\(text.stderr)")
    }
}
