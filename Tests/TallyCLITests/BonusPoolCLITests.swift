import Foundation
import Testing

/// Flow US-066: `tally budget --bonus-pool` lists the bonus pool for the `--as` person (G7).
@Suite("CLI: bonus pool")
struct BonusPoolCLITests {
    @Test("US-066: markBonus and allocateBonus through apply; budget --bonus-pool lists the bonus for its receiver (text and JSON), not for another member; --as without --bonus-pool exits 2")
    func bonusPoolThroughTheCLI() throws {
        let ledger = try TallyRunner.householdLedger()
        let actor = #""actor": "00000002-0000-4000-8000-000000000001""#
        let income = #""transactionID": "00000005-0000-4000-8000-000000000009""#  // Alice's CHF 5,400 salary of Jan 25
        let lines = [
            #"{"command": "markBonus", "commandID": "0000000c-0000-4000-8000-00000000f201", \#(actor), "recordedAt": "2026-03-02T09:00:00.000Z", \#(income)}"#,
            #"{"command": "allocateBonus", "commandID": "0000000c-0000-4000-8000-00000000f202", \#(actor), "recordedAt": "2026-03-02T09:01:00.000Z", \#(income), "categoryID": "00000004-0000-4000-8000-000000000001", "amount": {"minorUnits": 100000, "currency": "CHF"}}"#,
        ]
        let applied = try TallyRunner.run(["apply", "--ledger", ledger, "-"], stdin: lines.joined(separator: "\n") + "\n")
        #expect(applied.status == 0, "\(applied.stderr) \(applied.stdout)")

        let alice = try TallyRunner.run(["budget", "--bonus-pool", "--as", "00000002-0000-4000-8000-000000000001", ledger])
        #expect(alice.status == 0, "\(alice.stderr)")
        #expect(alice.stdout.contains("CHF 5'400.00") && alice.stdout.contains("CHF 1'000.00") && alice.stdout.contains("CHF 4'400.00"), "\(alice.stdout)")
        #expect(alice.stdout.contains("2026-03-09"), "7 days after the mark: \(alice.stdout)")
        let bob = try TallyRunner.run(["budget", "--bonus-pool", "--as", "00000002-0000-4000-8000-000000000002", ledger])
        #expect(bob.status == 0 && bob.stdout.contains("The bonus pool is empty."), "\(bob.stdout) \(bob.stderr)")
        let json = try TallyRunner.run(["budget", "--bonus-pool", "--json", ledger])
        #expect(json.status == 0 && json.stdout.contains("440000") && json.stdout.contains("2026-03-09"), "\(json.stdout)")
        let misuse = try TallyRunner.run(["budget", "--as", "00000002-0000-4000-8000-000000000001", ledger])
        #expect(misuse.status == 2, "\(misuse.stderr)")
    }
}
