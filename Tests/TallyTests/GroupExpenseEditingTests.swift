import Foundation
import Tally
import TallyModel
import TallyProjections
import TallyTestSupport
import Testing

/// Issue 18.3: group expenses can be edited, deleted, undone and marked settled; they carry a
/// title and a category (Docs/Editing.md, "Group expenses").
@Suite("Group expense editing")
struct GroupExpenseEditingTests {
    /// The Editing household, a group of Alice, Bob and Carol (a contact), and Alice paying
    /// CHF 90 split equally among the three (Alice +60, Bob -30, Carol -30).
    static func trip() async throws -> (TestLedger, Scenario, GroupID, GroupExpenseID) {
        var (test, s) = try await EditingTests.household()
        let group: GroupID = s.ids.next()
        let expense: GroupExpenseID = s.ids.next()
        try await test.ledger.execute([
            s.command(.addPerson(personID: Scenario.carol, name: "Carol")),
            s.command(.createGroup(groupID: group, name: "Trip", members: [s.alice, s.bob, Scenario.carol])),
            s.command(.recordGroupExpense(
                expenseID: expense, groupID: group, paidBy: s.alice, amount: Scenario.chf(9_000), date: Scenario.date("2026-01-05"),
                note: "Card", split: .equal([s.alice, s.bob, Scenario.carol]), categoryID: s.restaurants, title: "Dinner")),
        ])
        return (test, s, group, expense)
    }

    /// Each member's balance in CHF, as validation reads the debt book and as the debt read
    /// model reports it; the test checks both agree.
    static func balances(_ ledger: Ledger, _ group: GroupID, _ people: [PersonID]) async throws -> [Int64] {
        let state = await ledger.state
        let engine = people.map { state.debts.groupBalance(group, person: $0, currency: .chf) }
        let model = try await ledger.readModels.debts.groupBalances(group)[.chf] ?? []
        let projected = people.map { person in model.first { $0.person == person }?.balance.minorUnits ?? 0 }
        #expect(engine == projected, "validation's read of the debt book and the debt read model's report disagree")
        return engine
    }

    static func edit(
        _ s: inout Scenario, _ id: GroupExpenseID, paidBy: PersonID, amount: Int64, split: GroupSplit,
        categoryID: CategoryID? = nil, title: String? = "Dinner", note: String? = "Card"
    ) -> Command {
        s.command(.editGroupExpense(
            expenseID: id, paidBy: paidBy, amount: Scenario.chf(amount), date: Scenario.date("2026-01-06"),
            note: note, split: split, categoryID: categoryID, title: title))
    }

    @Test("S7: editGroupExpense replaces payer, amount, split, title and category; balances follow in the engine and the read model; undo and redo")
    func editFollowsBalances() async throws {
        var (test, s, group, expense) = try await Self.trip()
        let people = [s.alice, s.bob, Scenario.carol]
        #expect(try await Self.balances(test.ledger, group, people) == [6_000, -3_000, -3_000])
        let edit = Self.edit(&s, expense, paidBy: s.bob, amount: 12_000,
                             split: .exact([PersonShare(person: s.alice, amount: Scenario.chf(8_000)), PersonShare(person: s.bob, amount: Scenario.chf(4_000))]),
                             categoryID: s.groceries, title: "Groceries")
        try await test.ledger.execute(edit)
        #expect(try await Self.balances(test.ledger, group, people) == [-8_000, 8_000, 0])
        let listed = try #require(await test.ledger.readModels.debts.groupExpenses(in: group).first)
        #expect(listed.paidBy == s.bob)
        #expect(listed.amount == Scenario.chf(12_000))
        #expect(listed.title?.text == "Groceries")
        #expect(listed.categoryID == s.groceries)
        #expect(listed.date == Scenario.date("2026-01-06"))
        let undo = s.command(.undo(targetCommandID: edit.commandID))
        try await test.ledger.execute(undo)
        #expect(try await Self.balances(test.ledger, group, people) == [6_000, -3_000, -3_000])
        #expect(await test.ledger.readModels.debts.groupExpenses(in: group).first?.title?.text == "Dinner")
        try await test.ledger.execute(s.command(.redo(targetCommandID: edit.commandID)))
        #expect(try await Self.balances(test.ledger, group, people) == [-8_000, 8_000, 0])
    }

    @Test("S3: an edited equal split resolves with zero residue: CHF 100.01 among three paid by Bob -> 33.34 to Bob, 33.34 and 33.33")
    func editedSplitHasNoResidue() async throws {
        var (test, s, group, expense) = try await Self.trip()
        try await test.ledger.execute(Self.edit(&s, expense, paidBy: s.bob, amount: 10_001, split: .equal([s.alice, s.bob, Scenario.carol])))
        let listed = try #require(await test.ledger.readModels.debts.groupExpenses(in: group).first)
        #expect(listed.owed.reduce(0) { $0 + $1.amount.minorUnits } == 10_001)
        #expect(listed.owed.first { $0.person == s.bob }?.amount.minorUnits == 3_334)
        #expect(listed.owed.map(\.amount.minorUnits).sorted() == [3_333, 3_334, 3_334])
        let sum = try await Self.balances(test.ledger, group, [s.alice, s.bob, Scenario.carol]).reduce(0, +)
        #expect(sum == 0, "S8: balances sum to zero")
    }

    @Test("S7: editGroupExpense is validated like recordGroupExpense: typed rejections naming the rule")
    func editRejections() async throws {
        var (test, s, group, expense) = try await Self.trip()
        let everyone: GroupSplit = .equal([s.alice, s.bob, Scenario.carol])
        await expectRejection(test.ledger, Self.edit(&s, s.ids.next(), paidBy: s.alice, amount: 100, split: everyone),
                              code: "unknownGroupExpense", rule: "S7")
        let dave = Scenario.dave
        try await test.ledger.execute(s.command(.addPerson(personID: dave, name: "Dave")))
        await expectRejection(test.ledger, Self.edit(&s, expense, paidBy: dave, amount: 100, split: everyone), code: "notInGroup", rule: "S7")
        await expectRejection(test.ledger, Self.edit(&s, expense, paidBy: s.alice, amount: 100, split: .equal([s.alice, dave])),
                              code: "notInGroup", rule: "S7")
        await expectRejection(test.ledger, Self.edit(&s, expense, paidBy: s.alice, amount: 100,
                                                     split: .exact([PersonShare(person: s.alice, amount: Scenario.chf(60))])),
                              code: "exactSplitMustSumToTotal", rule: "S7")
        let ninety = try Ratio(basisPoints: 9_000)
        await expectRejection(test.ledger, Self.edit(&s, expense, paidBy: s.alice, amount: 100,
                                                     split: .percentage([MemberRatio(person: s.alice, ratio: ninety)])),
                              code: "splitRatiosMustSumTo100", rule: "S1")
        await expectRejection(test.ledger, Self.edit(&s, expense, paidBy: s.alice, amount: 0, split: everyone), code: "amountMustBePositive", rule: "T1")
        await expectRejection(test.ledger, Self.edit(&s, expense, paidBy: s.alice, amount: 100, split: everyone, categoryID: s.salary),
                              code: "categoryGroupMismatch", rule: "T1")
        try await test.ledger.execute(s.command(.archiveGroup(groupID: group)))
        await expectRejection(test.ledger, Self.edit(&s, expense, paidBy: s.alice, amount: 100, split: everyone), code: "groupArchived", rule: "S7")
        await expectRejection(test.ledger, s.command(.deleteGroupExpense(expenseID: expense)), code: "groupArchived", rule: "S7")
        #expect(try await Self.balances(test.ledger, group, [s.alice, s.bob, Scenario.carol]) == [6_000, -3_000, -3_000])
    }

    @Test("T5: deleteGroupExpense takes the expense out of every balance and list; undo restores it, redo deletes it again; a deleted expense takes no edit")
    func deleteAndUndo() async throws {
        var (test, s, group, expense) = try await Self.trip()
        let people = [s.alice, s.bob, Scenario.carol]
        let delete = s.command(.deleteGroupExpense(expenseID: expense))
        try await test.ledger.execute(delete)
        #expect(try await Self.balances(test.ledger, group, people) == [0, 0, 0])
        #expect(await test.ledger.readModels.debts.groupExpenses(in: group).isEmpty)
        #expect(try await test.ledger.readModels.debts.settlementPlan(group)[.chf]?.isEmpty ?? true)
        await expectRejection(test.ledger, s.command(.deleteGroupExpense(expenseID: expense)), code: "groupExpenseDeleted", rule: "S7")
        await expectRejection(test.ledger, Self.edit(&s, expense, paidBy: s.alice, amount: 100, split: .equal(people)),
                              code: "groupExpenseDeleted", rule: "S7")
        await expectRejection(test.ledger, s.command(.markGroupExpenseSettled(expenseID: expense, isSettled: true)), code: "groupExpenseDeleted", rule: "S7")
        try await test.ledger.execute(s.command(.undo(targetCommandID: delete.commandID)))
        #expect(try await Self.balances(test.ledger, group, people) == [6_000, -3_000, -3_000])
        #expect(await test.ledger.readModels.debts.groupExpenses(in: group).map(\.expenseID) == [expense])
        try await test.ledger.execute(s.command(.redo(targetCommandID: delete.commandID)))
        #expect(try await Self.balances(test.ledger, group, people) == [0, 0, 0])
    }

    @Test("T5: recording a group expense is undoable (the undo deletes it); undo is refused once the group is deleted")
    func recordingIsUndoable() async throws {
        var (test, s, group, _) = try await Self.trip()
        let people = [s.alice, s.bob, Scenario.carol]
        let second: GroupExpenseID = s.ids.next()
        let record = s.command(.recordGroupExpense(
            expenseID: second, groupID: group, paidBy: s.bob, amount: Scenario.chf(3_000), date: Scenario.date("2026-01-07"),
            note: nil, split: .equal(people)))
        try await test.ledger.execute(record)
        #expect(try await Self.balances(test.ledger, group, people) == [5_000, -1_000, -4_000])
        try await test.ledger.execute(s.command(.undo(targetCommandID: record.commandID)))
        #expect(try await Self.balances(test.ledger, group, people) == [6_000, -3_000, -3_000])
        #expect(await test.ledger.state.groupExpenses[second]?.isDeleted == true)
        try await test.ledger.execute(s.command(.redo(targetCommandID: record.commandID)))
        try await test.ledger.execute(s.command(.undo(targetCommandID: record.commandID)))
        for person in [s.bob, Scenario.carol] {
            try await test.ledger.execute(s.command(.recordSettlement(
                settlementID: s.ids.next(), from: person, to: s.alice, amount: Scenario.chf(3_000), date: Scenario.date("2026-01-08"),
                covers: nil, isAdvance: false, groupID: group)))
        }
        try await test.ledger.execute(s.command(.deleteGroup(groupID: group)))
        await expectRejection(test.ledger, s.command(.redo(targetCommandID: record.commandID)), code: "unknownGroup", rule: "S7")
    }

    @Test("S6, S8: a group settlement lists only open parts the payer owes the receiver in its group; an expense it covers, or marked settled, cannot be edited or deleted; taking the mark back allows it")
    func settledExpensesAreFixed() async throws {
        var (test, s, group, expense) = try await Self.trip()
        let everyone: GroupSplit = .equal([s.alice, s.bob, Scenario.carol])
        let mark = s.command(.markGroupExpenseSettled(expenseID: expense, isSettled: true))
        try await test.ledger.execute(mark)
        await expectRejection(test.ledger, Self.edit(&s, expense, paidBy: s.alice, amount: 100, split: everyone), code: "groupExpenseSettled", rule: "S8")
        await expectRejection(test.ledger, s.command(.deleteGroupExpense(expenseID: expense)), code: "groupExpenseSettled", rule: "S8")
        try await test.ledger.execute(s.command(.markGroupExpenseSettled(expenseID: expense, isSettled: false)))
        try await test.ledger.execute(Self.edit(&s, expense, paidBy: s.alice, amount: 9_000, split: everyone))

        let second: GroupExpenseID = s.ids.next()
        try await test.ledger.execute(s.command(.recordGroupExpense(
            expenseID: second, groupID: group, paidBy: s.bob, amount: Scenario.chf(9_000), date: Scenario.date("2026-01-07"),
            note: nil, split: .equal([s.bob, Scenario.carol]))))
        // Bob is owed 15 net (paid 90, owes 45 + 30); Carol pays 15 for the second expense.
        let settle = s.command(.recordSettlement(
            settlementID: s.ids.next(), from: Scenario.carol, to: s.bob, amount: Scenario.chf(1_500), date: Scenario.date("2026-01-08"),
            covers: [.groupExpense(second)], isAdvance: false, groupID: group))
        // S6: a group settlement lists only open parts the payer owes the receiver in its group:
        // not the first expense (Alice paid it, Carol owes Alice, not Bob), not a household
        // transaction. Refused, these pin nothing.
        for covers: [SettledItem] in [[.groupExpense(expense)], [.groupExpense(second), .transaction(s.ids.next())]] {
            await expectRejection(test.ledger, s.command(.recordSettlement(
                settlementID: s.ids.next(), from: Scenario.carol, to: s.bob, amount: Scenario.chf(1_500), date: Scenario.date("2026-01-08"),
                covers: covers, isAdvance: false, groupID: group)), code: "settlementItemInvalid", rule: "S6")
        }
        try await test.ledger.execute(settle)
        await expectRejection(test.ledger, s.command(.recordSettlement(
            settlementID: s.ids.next(), from: Scenario.carol, to: s.bob, amount: Scenario.chf(1), date: Scenario.date("2026-01-08"),
            covers: [.groupExpense(second)], isAdvance: true, groupID: group)), code: "settlementItemInvalid", rule: "S6")
        await expectRejection(test.ledger, s.command(.deleteGroupExpense(expenseID: second)), code: "groupExpenseSettled", rule: "S8")
        await expectRejection(test.ledger, Self.edit(&s, second, paidBy: s.bob, amount: 900, split: everyone), code: "groupExpenseSettled", rule: "S8")
        let listed = await test.ledger.readModels.debts.groupExpenses(in: group)
        #expect(listed.map(\.expenseID) == [expense, second])
        #expect(listed.map(\.isSettled) == [false, true], "derived: every part of the second is covered by the settlement")
        #expect(listed.map(\.isMarkedSettled) == [false, false])
    }

    @Test("Swiff 2.1.4, S6: a group expense's summary says which participants' parts are paid (the payer's own, those a settlement covers, with the settlement) and which are open; marking it settled marks every part paid")
    func partsCarryTheirPaidState() async throws {
        var (test, s, group, expense) = try await Self.trip()
        let settlement: SettlementID = s.ids.next()
        try await test.ledger.execute(s.command(.recordSettlement(
            settlementID: settlement, from: s.bob, to: s.alice, amount: Scenario.chf(3_000), date: Scenario.date("2026-01-08"),
            covers: [.groupExpense(expense)], isAdvance: false, groupID: group)))
        var summary = try #require(await test.ledger.readModels.debts.groupExpenses(in: group).first)
        #expect(summary.parts.map(\.person) == [s.alice, s.bob, Scenario.carol], "in the order of the split")
        #expect(summary.parts.map(\.amount) == summary.owed.map(\.amount))
        #expect(summary.parts.map(\.isPaid) == [true, true, false], "Alice paid it, Bob's part is covered, Carol's is open")
        #expect(summary.parts.map(\.settlement) == [nil, settlement, nil])
        #expect(!summary.isSettled)
        #expect(await test.ledger.groupExpenses(in: group, visibleTo: .member(Scenario.carol)) == [summary], "G7: a member of the group")
        #expect(await test.ledger.groupExpenses(in: group, settled: true, visibleTo: .audit).isEmpty, "the Settled filter")
        #expect(await test.ledger.groupExpenses(in: group, visibleTo: .member(Scenario.dave)).isEmpty, "G7: not a member of the group")

        try await test.ledger.execute(s.command(.markGroupExpenseSettled(expenseID: expense, isSettled: true)))
        summary = try #require(await test.ledger.readModels.debts.groupExpenses(in: group).first)
        #expect(summary.parts.map(\.isPaid) == [true, true, true], "marked settled: every part counts as paid")
        #expect(summary.parts.map(\.settlement) == [nil, settlement, nil], "the mark covers nothing")
        #expect(await test.ledger.groupExpenses(in: group, settled: true, visibleTo: .member(s.bob)).map(\.expenseID) == [expense])
        #expect(await test.ledger.groupExpenses(in: group, settled: false, visibleTo: .member(s.bob)).isEmpty, "the Unsettled filter")
    }

    @Test("S8, T5: undoing an edit that kept a former member's part puts the expense back in the debt book too (the book accepts a former member whose part is unchanged), and redo follows")
    func undoKeepsFormerMembersPart() async throws {
        var (test, s, group, expense) = try await Self.trip()
        let people = [s.alice, s.bob, Scenario.carol]
        let edit = Self.edit(&s, expense, paidBy: s.alice, amount: 9_000, split: .exact([
            PersonShare(person: s.alice, amount: Scenario.chf(2_000)), PersonShare(person: s.bob, amount: Scenario.chf(4_000)),
            PersonShare(person: Scenario.carol, amount: Scenario.chf(3_000))]))
        try await test.ledger.execute(edit)
        try await test.ledger.execute(s.command(.recordSettlement(
            settlementID: s.ids.next(), from: Scenario.carol, to: s.alice, amount: Scenario.chf(3_000), date: Scenario.date("2026-01-07"),
            covers: nil, isAdvance: false, groupID: group)))
        try await test.ledger.execute(s.command(.removeGroupMember(groupID: group, personID: Scenario.carol)))
        #expect(try await Self.balances(test.ledger, group, people) == [4_000, -4_000, 0])
        let undo = s.command(.undo(targetCommandID: edit.commandID))
        try await test.ledger.execute(undo)
        #expect(try await Self.balances(test.ledger, group, people) == [3_000, -3_000, 0], "the equal split is back; Carol's part never moved")
        #expect(await test.ledger.readModels.debts.groupExpenses(in: group).first?.owed.map(\.amount.minorUnits) == [3_000, 3_000, 3_000])
        try await test.ledger.execute(s.command(.redo(targetCommandID: edit.commandID)))
        #expect(try await Self.balances(test.ledger, group, people) == [4_000, -4_000, 0])
        #expect(await test.ledger.readModels.debts.problems.isEmpty, "the book applied every event validation accepted")
    }

    @Test("S8: an edit or deletion cannot change what a person who left the group paid or owes; their zero balance stays")
    func removedMembersKeepTheirParts() async throws {
        var (test, s, group, expense) = try await Self.trip()
        try await test.ledger.execute(s.command(.recordSettlement(
            settlementID: s.ids.next(), from: Scenario.carol, to: s.alice, amount: Scenario.chf(3_000), date: Scenario.date("2026-01-06"),
            covers: nil, isAdvance: false, groupID: group)))
        try await test.ledger.execute(s.command(.removeGroupMember(groupID: group, personID: Scenario.carol)))
        await expectRejection(test.ledger, s.command(.deleteGroupExpense(expenseID: expense)), code: "groupExpenseNamesFormerMember", rule: "S8")
        await expectRejection(test.ledger, Self.edit(&s, expense, paidBy: s.alice, amount: 9_000, split: .equal([s.alice, s.bob])),
                              code: "groupExpenseNamesFormerMember", rule: "S8")
        await expectRejection(test.ledger, Self.edit(&s, expense, paidBy: s.alice, amount: 9_000, split: .equal([s.alice, s.bob, Scenario.carol])),
                              code: "notInGroup", rule: "S7")
        // An expense among the current members only can still change.
        let other: GroupExpenseID = s.ids.next()
        try await test.ledger.execute(s.command(.recordGroupExpense(
            expenseID: other, groupID: group, paidBy: s.bob, amount: Scenario.chf(1_000), date: Scenario.date("2026-01-07"),
            note: nil, split: .equal([s.alice, s.bob]))))
        try await test.ledger.execute(s.command(.deleteGroupExpense(expenseID: other)))
        #expect(try await Self.balances(test.ledger, group, [s.alice, s.bob, Scenario.carol]) == [3_000, -3_000, 0])
    }

    @Test("S7: markGroupExpenseSettled only records the mark: balances stay; the mark shows in the read model; undo takes it back")
    func markSettled() async throws {
        var (test, s, group, expense) = try await Self.trip()
        let people = [s.alice, s.bob, Scenario.carol]
        let mark = s.command(.markGroupExpenseSettled(expenseID: expense, isSettled: true))
        try await test.ledger.execute(mark)
        #expect(try await Self.balances(test.ledger, group, people) == [6_000, -3_000, -3_000])
        var listed = try #require(await test.ledger.readModels.debts.groupExpenses(in: group).first)
        #expect(listed.isMarkedSettled && listed.isSettled)
        await expectRejection(test.ledger, s.command(.markGroupExpenseSettled(expenseID: expense, isSettled: true)), code: "groupExpenseStateUnchanged", rule: "S7")
        await expectRejection(test.ledger, s.command(.markGroupExpenseSettled(expenseID: s.ids.next(), isSettled: true)), code: "unknownGroupExpense", rule: "S7")
        try await test.ledger.execute(s.command(.undo(targetCommandID: mark.commandID)))
        listed = try #require(await test.ledger.readModels.debts.groupExpenses(in: group).first)
        #expect(!listed.isMarkedSettled && !listed.isSettled)
        await expectRejection(test.ledger, s.command(.markGroupExpenseSettled(expenseID: expense, isSettled: false)), code: "groupExpenseStateUnchanged", rule: "S7")
        try await test.ledger.execute(s.command(.archiveGroup(groupID: group)))
        try await test.ledger.execute(s.command(.markGroupExpenseSettled(expenseID: expense, isSettled: true)))
    }

    @Test("C3: a category that a group expense is filed under cannot be deleted, even with a reassignment target; once re-filed it can")
    func categoryCountsGroupExpenses() async throws {
        var (test, s, group, expense) = try await Self.trip()
        let trips: CategoryID = s.ids.next()
        try await test.ledger.execute(s.command(.createCategory(
            categoryID: trips, name: "Trips", group: .expense, budgetType: .wants, shareable: true, icon: nil, color: nil)))
        let everyone: GroupSplit = .equal([s.alice, s.bob, Scenario.carol])
        try await test.ledger.execute(Self.edit(&s, expense, paidBy: s.alice, amount: 9_000, split: everyone, categoryID: trips))
        await expectRejection(test.ledger, s.command(.deleteCategory(categoryID: trips, reassignTo: nil)), code: "categoryHasGroupExpenses", rule: "C3")
        await expectRejection(test.ledger, s.command(.deleteCategory(categoryID: trips, reassignTo: s.groceries)), code: "categoryHasGroupExpenses", rule: "C3")
        // A deleted expense still counts (undo can bring it back), like a deleted transaction.
        let delete = s.command(.deleteGroupExpense(expenseID: expense))
        try await test.ledger.execute(delete)
        await expectRejection(test.ledger, s.command(.deleteCategory(categoryID: trips, reassignTo: nil)), code: "categoryHasGroupExpenses", rule: "C3")
        try await test.ledger.execute(s.command(.undo(targetCommandID: delete.commandID)))
        // An inactive category the expense has may stay in an edit; re-filing frees the category.
        try await test.ledger.execute(s.command(.deactivateCategory(categoryID: trips)))
        try await test.ledger.execute(Self.edit(&s, expense, paidBy: s.alice, amount: 9_000, split: everyone, categoryID: trips, title: "Kept"))
        try await test.ledger.execute(Self.edit(&s, expense, paidBy: s.alice, amount: 9_000, split: everyone, categoryID: nil))
        try await test.ledger.execute(s.command(.deleteCategory(categoryID: trips, reassignTo: nil)))
        #expect(await test.ledger.state.categories[trips]?.isDeleted == true)
        #expect(await test.ledger.readModels.debts.groupExpenses(in: group).first?.categoryID == nil)
    }

    @Test("P1: the title is personal text of its author; an edit keeping it keeps the author, a new title belongs to the editor")
    func titleIsPersonalText() async throws {
        var (test, s, group, expense) = try await Self.trip()
        #expect(await test.ledger.readModels.debts.groupExpenses(in: group).first?.title?.owner == s.alice)
        let everyone: GroupSplit = .equal([s.alice, s.bob, Scenario.carol])
        try await test.ledger.execute(s.command(.editGroupExpense(
            expenseID: expense, paidBy: s.alice, amount: Scenario.chf(9_000), date: Scenario.date("2026-01-05"),
            note: "Card", split: everyone, categoryID: nil, title: "Dinner"), by: s.bob))
        #expect(await test.ledger.readModels.debts.groupExpenses(in: group).first?.title?.owner == s.alice)
        try await test.ledger.execute(s.command(.editGroupExpense(
            expenseID: expense, paidBy: s.alice, amount: Scenario.chf(9_000), date: Scenario.date("2026-01-05"),
            note: nil, split: everyone, categoryID: nil, title: "Dinner by the lake"), by: s.bob))
        let listed = try #require(await test.ledger.readModels.debts.groupExpenses(in: group).first)
        #expect(listed.title?.owner == s.bob)
        #expect(listed.title?.text == "Dinner by the lake")
        #expect(listed.note == nil)
    }

    @Test("Commands: editGroupExpense, deleteGroupExpense and markGroupExpenseSettled parse from their JSON lines; recordGroupExpense takes a title")
    func parseCommands() throws {
        let header = #""commandID":"0000000c-0000-4000-8000-0000000000e6","actor":"00000002-0000-4000-8000-000000000001","recordedAt":"2026-01-19T08:00:00.000Z""#
        let expense = GroupExpenseID(UUIDValue(high: 0x0000_000A_0000_4000, low: 0x8000_0000_0000_0001))
        let alice = PersonID(UUIDValue(high: 0x0000_0002_0000_4000, low: 0x8000_0000_0000_0001))
        let edit = try CommandParser.parse(line: #"{"command":"editGroupExpense",\#(header),"expenseID":"0000000a-0000-4000-8000-000000000001","paidBy":"00000002-0000-4000-8000-000000000001","amount":"CHF 48.00","date":"2026-01-17","title":"Chalet","split":{"kind":"equal","people":["00000002-0000-4000-8000-000000000001"]}}"#)
        #expect(edit.action == .editGroupExpense(
            expenseID: expense, paidBy: alice, amount: Scenario.chf(4_800), date: Scenario.date("2026-01-17"),
            note: nil, split: .equal([alice]), categoryID: nil, title: "Chalet"))
        let delete = try CommandParser.parse(line: #"{"command":"deleteGroupExpense",\#(header),"expenseID":"0000000a-0000-4000-8000-000000000001"}"#)
        #expect(delete.action == .deleteGroupExpense(expenseID: expense))
        let mark = try CommandParser.parse(line: #"{"command":"markGroupExpenseSettled",\#(header),"expenseID":"0000000a-0000-4000-8000-000000000001"}"#)
        #expect(mark.action == .markGroupExpenseSettled(expenseID: expense, isSettled: true))
        let unmark = try CommandParser.parse(line: #"{"command":"markGroupExpenseSettled",\#(header),"expenseID":"0000000a-0000-4000-8000-000000000001","isSettled":false}"#)
        #expect(unmark.action == .markGroupExpenseSettled(expenseID: expense, isSettled: false))
    }
}
