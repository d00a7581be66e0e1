import Foundation
import Testing

/// S3, S5 (issue 18.4): a household expense split with chosen people through `tally apply`;
/// the contact's part shows as a household debt in `tally debts`.
@Suite("CLI: transaction split with people")
struct TransactionSplitWithCLITests {
    @Test("S5: recordTransaction with splitWith (Alice and Carol, a contact) through apply; tally debts lists Carol owing Alice her part")
    func splitWithContactShowsInDebts() throws {
        let ledger = try TallyRunner.householdLedger()
        let line = #"{"command": "recordTransaction", "commandID": "0000000c-0000-4000-8000-00000000f201", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-03-01T08:00:00.000Z", "transactionID": "00000005-0000-4000-8000-0000000000f1", "kind": "expense", "amount": {"minorUnits": 10001, "currency": "CHF"}, "walletID": "00000003-0000-4000-8000-000000000001", "categoryID": "1888ea90-fe65-8eb9-b79a-cbe2cfa8e97e", "date": "2026-03-01", "note": "Picnic", "splitWith": {"kind": "equal", "people": ["00000002-0000-4000-8000-000000000001", "00000002-0000-4000-8000-000000000003"]}}"#
        let applied = try TallyRunner.run(["apply", "--ledger", ledger, "-"], stdin: line + "\n")
        #expect(applied.status == 0, "\(applied.stderr) \(applied.stdout)")
        let text = try TallyRunner.run(["debts", ledger])
        #expect(text.status == 0, "\(text.stderr)")
        let carolLine = text.stdout.split(separator: "\n").first { $0.hasPrefix("Carol") && $0.contains("Alice") }
        #expect(carolLine?.contains("CHF 50.00") == true, "Carol owes Alice her part, the payer took the extra unit (S3): \(text.stdout)")
    }
}
