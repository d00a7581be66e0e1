import Foundation
import Tally
import TallyModel
import TallyProjections
import TallyTestSupport
import Testing

/// Issue 18.4: a household transaction split with chosen people, equal or exact (or
/// percentages, or shares: the group expense kinds), with zero residue (S3); the people's parts
/// are household debts to the payer (S5). Docs/Editing.md, "Splitting a household transaction
/// with people".
@Suite("Transaction split with people")
struct TransactionSplitWithPeopleTests {
    /// The Editing household with Carol, a contact.
    static func household() async throws -> (TestLedger, Scenario) {
        var (test, s) = try await EditingTests.household()
        try await test.ledger.execute(s.command(.addPerson(personID: Scenario.carol, name: "Carol")))
        return (test, s)
    }

    static func entry(_ s: Scenario, _ minorUnits: Int64, split: GroupSplit?, payer: PersonID? = nil) -> TransactionEntry {
        var entry = s.expense(minorUnits, payer: payer)
        entry.splitWith = split
        return entry
    }

    @Test("S3: an expense split equally with Alice, Bob and Carol (a contact): CHF 100.01 -> 33.34 to Alice (the payer), 33.34 and 33.33; zero residue")
    func equalSplitHasNoResidue() async throws {
        var (test, s) = try await Self.household()
        let id: TransactionID = s.ids.next()
        let people: GroupSplit = .equal([s.alice, s.bob, Scenario.carol])
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: id, entry: Self.entry(s, 10_001, split: people))))
        let record = try #require(await test.ledger.state.transactions[id])
        let shares = try #require(record.details.split?.shares)
        #expect(shares.reduce(0) { $0 + $1.amount.minorUnits } == 10_001)
        #expect(shares.first { $0.person == s.alice }?.amount.minorUnits == 3_334, "ties go to the payer first (S3)")
        #expect(shares.map(\.amount.minorUnits).sorted() == [3_333, 3_334, 3_334])
        #expect(record.splitWith == people)
    }

    @Test("S5: the people's parts become household debts to the payer, in the engine and the debt read model; a household settlement covers them")
    func partsBecomeDebts() async throws {
        var (test, s) = try await Self.household()
        let id: TransactionID = s.ids.next()
        let exact: GroupSplit = .exact([PersonShare(person: s.alice, amount: Scenario.chf(2_000)),
                                        PersonShare(person: Scenario.carol, amount: Scenario.chf(4_000))])
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: id, entry: Self.entry(s, 6_000, split: exact))))
        #expect(await test.ledger.state.debts.owedMinorUnits(by: Scenario.carol, to: s.alice, in: .chf) == 4_000)
        #expect(await test.ledger.state.debts.owedMinorUnits(by: s.bob, to: s.alice, in: .chf) == 0)
        let owed = try await test.ledger.readModels.debts.owed(by: Scenario.carol, to: s.alice, in: .chf)
        #expect(owed == Scenario.chf(4_000))
        let items = await test.ledger.readModels.debts.householdItems(involving: Scenario.carol)
        #expect(items.map(\.source) == [.transaction(id)])
        try await test.ledger.execute(s.command(.recordSettlement(
            settlementID: s.ids.next(), from: Scenario.carol, to: s.alice, amount: Scenario.chf(4_000), date: Scenario.date("2026-01-06"),
            covers: [.transaction(id)], isAdvance: false, groupID: nil)))
        #expect(await test.ledger.state.debts.owedMinorUnits(by: Scenario.carol, to: s.alice, in: .chf) == 0)
        await expectRejection(test.ledger, s.command(.deleteTransaction(transactionID: id)), code: "editOfSettledTransaction", rule: "T2")
    }

    @Test("S5, S6: a settlement covers one person's share, not the whole transaction: after Bob settles his part of an expense split with Bob and Carol, Carol can still settle hers by listing the same transaction (and not twice); the transaction is permanent from Bob's settlement on (T2)")
    func settlementCoversOneShare() async throws {
        var (test, s) = try await Self.household()
        let id: TransactionID = s.ids.next()
        let people: GroupSplit = .equal([s.alice, s.bob, Scenario.carol])
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: id, entry: Self.entry(s, 9_000, split: people))))
        func settle(_ from: PersonID) -> Command {
            s.command(.recordSettlement(
                settlementID: s.ids.next(), from: from, to: s.alice, amount: Scenario.chf(3_000), date: Scenario.date("2026-01-06"),
                covers: [.transaction(id)], isAdvance: false, groupID: nil))
        }
        let bobs = settle(s.bob)
        try await test.ledger.execute(bobs)
        await expectRejection(test.ledger, s.command(.deleteTransaction(transactionID: id)), code: "editOfSettledTransaction", rule: "T2")
        try await test.ledger.execute(settle(Scenario.carol))
        await expectRejection(test.ledger, settle(Scenario.carol), code: "settlementItemInvalid", rule: "S6")
        let items = await test.ledger.readModels.debts.householdItems()
        #expect(items.count == 2 && items.allSatisfy { $0.settledBy != nil }, "both shares are settled, each by its own settlement")
        #expect(Set(items.compactMap(\.settledBy)).count == 2)
        #expect(await test.ledger.state.debts.owedMinorUnits(by: Scenario.carol, to: s.alice, in: .chf) == 0)
        #expect(await test.ledger.state.debts.owedMinorUnits(by: s.bob, to: s.alice, in: .chf) == 0)
    }

    @Test("S6: a listed item must be one the settlement covers: in its currency and its place (a household transaction in a household settlement); refused otherwise, a listed item is never pinned")
    func listedItemsMatchTheSettlement() async throws {
        var (test, s) = try await Self.household()
        let id: TransactionID = s.ids.next()
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: id, entry: Self.entry(s, 9_000, split: .equal([s.alice, s.bob, Scenario.carol])))))
        let group: GroupID = s.ids.next()
        try await test.ledger.execute(s.command(.createGroup(groupID: group, name: "Trip", members: [s.alice, s.bob])))
        let euros = s.command(.recordSettlement(
            settlementID: s.ids.next(), from: s.bob, to: s.alice, amount: Scenario.eur(3_000), date: Scenario.date("2026-01-06"),
            covers: [.transaction(id)], isAdvance: true, groupID: nil))
        await expectRejection(test.ledger, euros, code: "settlementItemInvalid", rule: "S6")
        let inGroup = s.command(.recordSettlement(
            settlementID: s.ids.next(), from: s.bob, to: s.alice, amount: Scenario.chf(3_000), date: Scenario.date("2026-01-06"),
            covers: [.transaction(id)], isAdvance: true, groupID: group))
        await expectRejection(test.ledger, inGroup, code: "settlementItemInvalid", rule: "S6")
        try await test.ledger.execute(s.command(.editTransaction(transactionID: id, entry: Self.entry(s, 6_000, split: .equal([s.alice, s.bob])))))
    }

    @Test("S3: a split with people is validated by the group expense rule: typed rejections naming the rule")
    func rejections() async throws {
        var (test, s) = try await Self.household()
        let exactShort: GroupSplit = .exact([PersonShare(person: Scenario.carol, amount: Scenario.chf(1_000))])
        await expectRejection(test.ledger, s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.entry(s, 2_000, split: exactShort))),
                              code: "exactSplitMustSumToTotal", rule: "S7")
        let percent: GroupSplit = .percentage([s.ratio(s.alice, 5_000), s.ratio(Scenario.carol, 4_000)])
        await expectRejection(test.ledger, s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.entry(s, 2_000, split: percent))),
                              code: "splitRatiosMustSumTo100", rule: "S1")
        await expectRejection(test.ledger, s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.entry(s, 2_000, split: .equal([s.alice, Scenario.dave])))),
                              code: "unknownPerson", rule: "H3")
        await expectRejection(test.ledger, s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.entry(s, 2_000, split: .equal([s.alice, s.alice])))),
                              code: "invalidShares", rule: "S7")
        await expectRejection(test.ledger, s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.entry(s, 2_000, split: .equal([s.alice])))),
                              code: "invalidShares", rule: "S7")
        var both = Self.entry(s, 2_000, split: .equal([s.alice, Scenario.carol]))
        both.ratioOverride = [s.ratio(s.alice, 5_000), s.ratio(s.bob, 5_000)]
        await expectRejection(test.ledger, s.command(.recordTransaction(transactionID: s.ids.next(), entry: both)), code: "invalidShares", rule: "S7")
        var salary = Self.entry(s, 2_000, split: .equal([s.alice, Scenario.carol]))
        (salary.kind, salary.categoryID) = (.income, s.salary)
        await expectRejection(test.ledger, s.command(.recordTransaction(transactionID: s.ids.next(), entry: salary)), code: "categoryNotShareable", rule: "C1")
        await expectRejection(test.ledger, s.command(.createTemplate(
            templateID: s.ids.next(), frequency: .monthly, entry: Self.entry(s, 2_000, split: .equal([s.alice, Scenario.carol])), terms: nil)),
                              code: "recurringTermsInvalid", rule: "R1")
    }

    @Test("T2, T5: editTransaction switches between the household ratio and a split with people; undo puts the old split back, as entered")
    func editAndUndo() async throws {
        var (test, s) = try await Self.household()
        let id: TransactionID = s.ids.next()
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: id, entry: s.expense(6_000, shared: true))))
        #expect(await test.ledger.state.debts.owedMinorUnits(by: s.bob, to: s.alice, in: .chf) == 3_000)
        let people: GroupSplit = .shares([MemberWeight(person: s.alice, weight: 1), MemberWeight(person: Scenario.carol, weight: 2)])
        let edit = s.command(.editTransaction(transactionID: id, entry: Self.entry(s, 6_000, split: people)))
        try await test.ledger.execute(edit)
        #expect(await test.ledger.state.debts.owedMinorUnits(by: s.bob, to: s.alice, in: .chf) == 0)
        #expect(await test.ledger.state.debts.owedMinorUnits(by: Scenario.carol, to: s.alice, in: .chf) == 4_000)
        #expect(await test.ledger.state.transactions[id]?.splitWith == people)
        let second = s.command(.editTransaction(transactionID: id, entry: Self.entry(s, 6_000, split: .equal([s.bob, Scenario.carol]))))
        try await test.ledger.execute(second)
        #expect(await test.ledger.state.debts.owedMinorUnits(by: Scenario.carol, to: s.alice, in: .chf) == 3_000)
        try await test.ledger.execute(s.command(.undo(targetCommandID: second.commandID)))
        #expect(await test.ledger.state.transactions[id]?.splitWith == people)
        #expect(await test.ledger.state.debts.owedMinorUnits(by: Scenario.carol, to: s.alice, in: .chf) == 4_000)
        try await test.ledger.execute(s.command(.undo(targetCommandID: edit.commandID)))
        #expect(await test.ledger.state.transactions[id]?.splitWith == nil)
        #expect(await test.ledger.state.debts.owedMinorUnits(by: Scenario.carol, to: s.alice, in: .chf) == 0)
        #expect(await test.ledger.state.debts.owedMinorUnits(by: s.bob, to: s.alice, in: .chf) == 3_000)
        #expect(try await test.ledger.readModels.debts.owed(by: s.bob, to: s.alice, in: .chf) == Scenario.chf(3_000))
    }

    @Test("Commands: recordTransaction and editTransaction parse splitWith (the group expense split kinds)")
    func parsesSplitWith() throws {
        let header = #""commandID":"0000000c-0000-4000-8000-0000000000e9","actor":"00000002-0000-4000-8000-000000000001","recordedAt":"2026-01-19T08:00:00.000Z""#
        let command = try CommandParser.parse(line: #"{"command":"recordTransaction",\#(header),"transactionID":"00000005-0000-4000-8000-000000000099","kind":"expense","amount":"CHF 30.00","walletID":"00000003-0000-4000-8000-000000000001","categoryID":"00000004-0000-4000-8000-000000000001","date":"2026-01-19","splitWith":{"kind":"equal","people":["00000002-0000-4000-8000-000000000001","00000002-0000-4000-8000-000000000003"]}}"#)
        guard case .recordTransaction(_, let entry) = command.action else {
            Issue.record("not a recordTransaction: \(command.action)")
            return
        }
        let alice = PersonID(UUIDValue(high: 0x0000_0002_0000_4000, low: 0x8000_0000_0000_0001))
        let carol = PersonID(UUIDValue(high: 0x0000_0002_0000_4000, low: 0x8000_0000_0000_0003))
        #expect(entry.splitWith == .equal([alice, carol]))
        #expect(!entry.isShared)
    }
}
