import Foundation
import Testing

/// S7 (issue 18.3): group expenses edited, marked settled and deleted through `tally apply`,
/// listed by `tally debts --expenses` (text and JSON) on the demo household's "Ski weekend".
@Suite("CLI: group expenses")
struct GroupExpensesCLITests {
    static let actor = #""actor": "00000002-0000-4000-8000-000000000001""#
    static let people = #"["00000002-0000-4000-8000-000000000001", "00000002-0000-4000-8000-000000000002", "00000002-0000-4000-8000-000000000003"]"#

    @Test("S7: editGroupExpense, markGroupExpenseSettled and deleteGroupExpense through apply; debts --expenses lists titles and settled states; balances still sum to zero (S8)")
    func editMarkDeleteAndList() throws {
        let ledger = try TallyRunner.householdLedger()
        let lines = [
            #"{"command": "editGroupExpense", "commandID": "0000000c-0000-4000-8000-00000000f101", \#(Self.actor), "recordedAt": "2026-03-01T08:00:00.000Z", "expenseID": "0000000a-0000-4000-8000-000000000003", "paidBy": "00000002-0000-4000-8000-000000000002", "amount": {"minorUnits": 15001, "currency": "CHF"}, "date": "2026-01-18", "title": "Fondue night", "split": {"kind": "equal", "people": \#(Self.people)}}"#,
            #"{"command": "markGroupExpenseSettled", "commandID": "0000000c-0000-4000-8000-00000000f102", \#(Self.actor), "recordedAt": "2026-03-01T08:01:00.000Z", "expenseID": "0000000a-0000-4000-8000-000000000002"}"#,
            #"{"command": "deleteGroupExpense", "commandID": "0000000c-0000-4000-8000-00000000f103", \#(Self.actor), "recordedAt": "2026-03-01T08:02:00.000Z", "expenseID": "0000000a-0000-4000-8000-000000000001"}"#,
        ]
        let applied = try TallyRunner.run(["apply", "--ledger", ledger, "-"], stdin: lines.joined(separator: "\n") + "\n")
        #expect(applied.status == 0, "\(applied.stderr) \(applied.stdout)")

        let text = try TallyRunner.run(["debts", "--expenses", ledger])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Fondue night") && text.stdout.contains("CHF 150.01"), "\(text.stdout)")
        #expect(text.stdout.contains("Ski passes") && text.stdout.contains("settled (marked)"), "\(text.stdout)")
        #expect(!text.stdout.contains("Chalet"), "a deleted expense is listed nowhere")

        let json = try TallyRunner.run(["debts", "--expenses", "--json", ledger])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try TallyRunner.jsonObject(Substring(json.stdout))
        let group = try #require((object["groups"] as? [[String: Any]])?.first)
        let expenses = try #require(group["expenses"] as? [[String: Any]])
        #expect(expenses.map { $0["expenseID"] as? String } == ["0000000a-0000-4000-8000-000000000002", "0000000a-0000-4000-8000-000000000003"])
        #expect(expenses.map { $0["isMarkedSettled"] as? Bool } == [true, false])
        let owed = (expenses.last?["owed"] as? [[String: Any]])?.compactMap { ($0["amount"] as? [String: Any])?["minorUnits"] as? Int }
        #expect(owed?.reduce(0, +) == 15001, "S3: the edited split has no residue")

        let debts = try TallyRunner.jsonObject(Substring(try TallyRunner.run(["debts", "--json", ledger]).stdout))
        let balances = try #require(((debts["groups"] as? [[String: Any]])?.first?["balances"] as? [[String: Any]])?.first?["members"] as? [[String: Any]])
        let sum = balances.compactMap { ($0["balance"] as? [String: Any])?["minorUnits"] as? Int }.reduce(0, +)
        #expect(sum == 0, "S8: balances sum to zero after the edit and the deletion")
    }

    @Test("S8: a rejected group expense edit through apply names its rule (groupExpenseSettled) and appends nothing")
    func rejectedEditNamesTheRule() throws {
        let ledger = try TallyRunner.householdLedger()
        let mark = #"{"command": "markGroupExpenseSettled", "commandID": "0000000c-0000-4000-8000-00000000f111", \#(Self.actor), "recordedAt": "2026-03-01T08:00:00.000Z", "expenseID": "0000000a-0000-4000-8000-000000000002"}"#
        #expect(try TallyRunner.run(["apply", "--ledger", ledger, "-"], stdin: mark + "\n").status == 0)
        let delete = #"{"command": "deleteGroupExpense", "commandID": "0000000c-0000-4000-8000-00000000f112", \#(Self.actor), "recordedAt": "2026-03-01T08:01:00.000Z", "expenseID": "0000000a-0000-4000-8000-000000000002"}"#
        let rejected = try TallyRunner.run(["apply", "--ledger", ledger, "-"], stdin: delete + "\n")
        #expect(rejected.status != 0)
        #expect((rejected.stdout + rejected.stderr).contains("groupExpenseSettled"), "\(rejected.stdout) \(rejected.stderr)")
    }
}
