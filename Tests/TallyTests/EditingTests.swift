import Foundation
import Tally
import TallyModel
import TallyProjections
import TallyTestSupport
import Testing

/// Issue 18: what a user created can be changed or removed (Docs/Editing.md), each rule with
/// its rejections, its read models and its undo (T5).
@Suite("Editing")
struct EditingTests {
    /// The Scenario household with monthly periods from the 1st (the open period is January 2026).
    static func household() async throws -> (TestLedger, Scenario) {
        var s = Scenario()
        let test = try await TestLedger.make("editing")
        try await test.ledger.execute(s.setup() + [s.command(.setPayday(day: 1))])
        return (test, s)
    }

    static func line(_ category: CategoryID, in ledger: Ledger, on date: String) async throws -> CategoryBudget? {
        let budgets = await ledger.readModels.budgets
        let report = try budgets.budget(for: budgets.period(containing: Scenario.date(date)))
        return report.categories.first { $0.categoryID == category }
    }

    static func payloads(_ ledger: Ledger, after sequenceNumber: UInt64) async throws -> [EventPayload] {
        try await ledger.events(from: sequenceNumber + 1).map(\.event.payload)
    }

    // MARK: People (H3, P1, P3)

    @Test("H3: renamePerson changes the name and keeps the contact fields; updatePerson sets and clears them; undo restores the previous values")
    func renameAndUpdatePerson() async throws {
        var (test, s) = try await Self.household()
        let carol = Scenario.carol
        try await test.ledger.execute(s.command(.addPerson(personID: carol, name: "Carol")))
        let update = s.command(.updatePerson(personID: carol, name: "Carol M", email: "carol@example.ch", phone: "+41 79 123 45 67"))
        try await test.ledger.execute(update)
        let rename = s.command(.renamePerson(personID: carol, name: "Carol Meier"))
        try await test.ledger.execute(rename)
        var record = try #require(await test.ledger.state.people[carol])
        #expect(record.name.text == "Carol Meier")
        #expect(record.email?.text == "carol@example.ch")
        #expect(record.phone?.text == "+41 79 123 45 67")
        try await test.ledger.execute(s.command(.undo(targetCommandID: rename.commandID)))
        record = try #require(await test.ledger.state.people[carol])
        #expect(record.name.text == "Carol M")
        #expect(record.email?.text == "carol@example.ch")
        let clear = s.command(.updatePerson(personID: carol, name: "Carol", email: nil, phone: nil))
        try await test.ledger.execute(clear)
        record = try #require(await test.ledger.state.people[carol])
        #expect(record.email == nil)
        #expect(record.phone == nil)
        try await test.ledger.execute(s.command(.undo(targetCommandID: clear.commandID)))
        #expect(await test.ledger.state.people[carol]?.phone?.text == "+41 79 123 45 67")
        try await test.ledger.execute(s.command(.renamePerson(personID: s.bob, name: "Robert")))
        #expect(await test.ledger.state.people[s.bob]?.name.text == "Robert")
    }

    @Test("H3: a malformed e-mail or phone is invalidContact; an unknown person unknownPerson; an empty name nameRequired")
    func updatePersonRejections() async throws {
        var (test, s) = try await Self.household()
        for email in ["carol", "carol@", "@example.ch", "a@b@c", "carol @example.ch"] {
            await expectRejection(test.ledger, s.command(.updatePerson(personID: s.bob, name: "Bob", email: email, phone: nil)),
                                  code: "invalidContact", rule: "H3")
        }
        for phone in ["12", "call me", "+41 79 ABC"] {
            await expectRejection(test.ledger, s.command(.updatePerson(personID: s.bob, name: "Bob", email: nil, phone: phone)),
                                  code: "invalidContact", rule: "H3")
        }
        await expectRejection(test.ledger, s.command(.renamePerson(personID: s.ids.next(), name: "Nobody")), code: "unknownPerson", rule: "H3")
        await expectRejection(test.ledger, s.command(.renamePerson(personID: s.bob, name: "  ")), code: "nameRequired", rule: "G6")
    }

    @Test("P3: forgetting a person redacts their name, e-mail and phone, also after a reopen; a forgotten person cannot be updated")
    func forgettingRedactsContactFields() async throws {
        var (test, s) = try await Self.household()
        let carol = Scenario.carol
        try await test.ledger.execute([
            s.command(.addPerson(personID: carol, name: "Carol")),
            s.command(.updatePerson(personID: carol, name: "Carol", email: "carol@example.ch", phone: "044 123 45 67")),
        ])
        try await test.ledger.execute(s.command(.forgetPerson(personID: carol)))
        let record = try #require(await test.ledger.state.people[carol])
        #expect(record.name.isRedacted)
        #expect(record.email?.isRedacted == true)
        #expect(record.phone?.isRedacted == true)
        await expectRejection(test.ledger, s.command(.renamePerson(personID: carol, name: "Carol")), code: "personForgotten", rule: "P3")
        try await test.ledger.close()
        let reopened = try await test.reopen()
        let events = try await reopened.events().map(\.event.payload)
        for case .personUpdated(let updated) in events {
            #expect(updated.name.isRedacted && updated.email?.isRedacted == true && updated.phone?.isRedacted == true)
        }
        #expect(await reopened.state.people[carol]?.email?.isRedacted == true)
        try await reopened.close()
    }

    // MARK: Transfers (W6)

    /// Two more CHF wallets beside the joint account: savings and cash, both opened empty.
    static func wallets(_ s: inout Scenario, _ ledger: Ledger) async throws -> (savings: WalletID, cash: WalletID) {
        let savings: WalletID = s.ids.next()
        let cash: WalletID = s.ids.next()
        try await ledger.execute([
            s.command(.openWallet(walletID: savings, name: "Savings", kind: .savings, openingBalance: Scenario.chf(0),
                                  openedOn: Scenario.date("2026-01-01"), owner: nil)),
            s.command(.openWallet(walletID: cash, name: "Cash", kind: .cash, openingBalance: Scenario.chf(0),
                                  openedOn: Scenario.date("2026-01-01"), owner: nil)),
        ])
        return (savings, cash)
    }

    static func balances(_ ledger: Ledger, _ ids: [WalletID]) async throws -> [Int64] {
        let wallets = await ledger.readModels.wallets
        var result: [Int64] = []
        for id in ids {
            result.append(try wallets.balance(of: id)?.minorUnits ?? -1)
        }
        return result
    }

    @Test("W6: editTransfer moves the money to the new wallets, amount and date; undo puts the old transfer back")
    func editTransferMovesMoney() async throws {
        var (test, s) = try await Self.household()
        let (savings, cash) = try await Self.wallets(&s, test.ledger)
        let transfer: TransferID = s.ids.next()
        try await test.ledger.execute(s.command(.recordTransfer(
            transferID: transfer, fromWalletID: s.joint, toWalletID: savings, amountSent: Scenario.chf(20_000), amountReceived: Scenario.chf(20_000),
            date: Scenario.date("2026-01-05"), note: "saving")))
        #expect(try await Self.balances(test.ledger, [s.joint, savings, cash]) == [80_000, 20_000, 0])
        let edit = s.command(.editTransfer(
            transferID: transfer, fromWalletID: s.joint, toWalletID: cash, amountSent: Scenario.chf(30_000), amountReceived: Scenario.chf(30_000),
            date: Scenario.date("2026-01-06"), note: "cash"))
        try await test.ledger.execute(edit)
        #expect(try await Self.balances(test.ledger, [s.joint, savings, cash]) == [70_000, 0, 30_000])
        let entry = try #require(await test.ledger.readModels.wallets.transfer(transfer))
        #expect(entry.date == Scenario.date("2026-01-06"))
        #expect(entry.toWalletID == cash)
        try await test.ledger.execute(s.command(.undo(targetCommandID: edit.commandID)))
        #expect(try await Self.balances(test.ledger, [s.joint, savings, cash]) == [80_000, 20_000, 0])
        #expect(await test.ledger.state.transfers[transfer]?.transfer.note?.text == "saving")
    }

    @Test("W6: an edit between currencies records both amounts; one that keeps the note keeps its author (P1)")
    func editTransferAcrossCurrencies() async throws {
        var (test, s) = try await Self.household()
        let transfer: TransferID = s.ids.next()
        try await test.ledger.execute(s.command(.recordTransfer(
            transferID: transfer, fromWalletID: s.joint, toWalletID: s.euroCard, amountSent: Scenario.chf(10_000), amountReceived: Scenario.eur(10_600),
            date: Scenario.date("2026-01-05"), note: "card payment")))
        try await test.ledger.execute(s.command(.editTransfer(
            transferID: transfer, fromWalletID: s.joint, toWalletID: s.euroCard, amountSent: Scenario.chf(10_000), amountReceived: Scenario.eur(10_650),
            date: Scenario.date("2026-01-05"), note: "card payment"), by: s.bob))
        let record = try #require(await test.ledger.state.transfers[transfer])
        #expect(record.transfer.amountReceived == Scenario.eur(10_650))
        #expect(record.transfer.note?.owner == s.alice)
        try await test.ledger.execute(s.command(.editTransfer(
            transferID: transfer, fromWalletID: s.joint, toWalletID: s.euroCard, amountSent: Scenario.chf(10_000), amountReceived: Scenario.eur(10_650),
            date: Scenario.date("2026-01-05"), note: "Bob's words"), by: s.bob))
        #expect(await test.ledger.state.transfers[transfer]?.transfer.note?.owner == s.bob)
    }

    @Test("W6: an edit is validated like recording: unknownTransfer, transferToSameWallet, transferAmountsDiffer, currencyMismatch, amountMustBePositive, walletInactive")
    func editTransferRejections() async throws {
        var (test, s) = try await Self.household()
        let (savings, cash) = try await Self.wallets(&s, test.ledger)
        let transfer: TransferID = s.ids.next()
        let day = Scenario.date("2026-01-05")
        try await test.ledger.execute(s.command(.recordTransfer(
            transferID: transfer, fromWalletID: s.joint, toWalletID: savings, amountSent: Scenario.chf(20_000), amountReceived: Scenario.chf(20_000),
            date: day, note: nil)))
        func edit(_ from: WalletID, _ to: WalletID, _ sent: Money, _ received: Money, id: TransferID? = nil) -> Command {
            s.command(.editTransfer(transferID: id ?? transfer, fromWalletID: from, toWalletID: to, amountSent: sent, amountReceived: received, date: day, note: nil))
        }
        await expectRejection(test.ledger, edit(s.joint, savings, Scenario.chf(1), Scenario.chf(1), id: s.ids.next()),
                              code: "unknownTransfer", rule: "W6")
        await expectRejection(test.ledger, edit(s.joint, s.joint, Scenario.chf(1), Scenario.chf(1)), code: "transferToSameWallet", rule: "W6")
        await expectRejection(test.ledger, edit(s.joint, savings, Scenario.chf(1), Scenario.chf(2)), code: "transferAmountsDiffer", rule: "W6")
        await expectRejection(test.ledger, edit(s.joint, s.euroCard, Scenario.chf(1), Scenario.chf(1)), code: "currencyMismatch", rule: "W6")
        await expectRejection(test.ledger, edit(s.joint, savings, Scenario.chf(0), Scenario.chf(0)), code: "amountMustBePositive", rule: "T1")
        try await test.ledger.execute(s.command(.deactivateWallet(walletID: cash)))
        await expectRejection(test.ledger, edit(s.joint, cash, Scenario.chf(1), Scenario.chf(1)), code: "walletInactive", rule: "W4")
        try await test.ledger.execute(s.command(.deleteTransfer(transferID: transfer)))
        await expectRejection(test.ledger, edit(s.joint, savings, Scenario.chf(1), Scenario.chf(1)), code: "unknownTransfer", rule: "W6")
    }

    // MARK: Categories (C1)

    @Test("C1: updateCategory changes the bucket, icon and color; the open period's 50/30/20 groups follow; undo restores them")
    func updateCategory() async throws {
        var (test, s) = try await Self.household()
        try await test.ledger.execute(s.command(.allocateBudget(categoryID: s.groceries, amount: Scenario.chf(50_000), fromPeriod: nil)))
        func allocated(_ type: BudgetType) async throws -> Money? {
            let budgets = await test.ledger.readModels.budgets
            return try budgets.budget(for: budgets.period(containing: Scenario.date("2026-01-05"))).groups.first { $0.budgetType == type }?.allocated
        }
        #expect(try await allocated(.needs) == Scenario.chf(50_000))
        let update = s.command(.updateCategory(categoryID: s.groceries, budgetType: .wants, icon: "🥦", color: nil))
        try await test.ledger.execute(update)
        #expect(try await allocated(.needs) == Scenario.chf(0))
        #expect(try await allocated(.wants) == Scenario.chf(50_000))
        let entry = try #require(await test.ledger.readModels.budgets.categoryList().first { $0.categoryID == s.groceries })
        #expect(entry.budgetType == .wants)
        #expect(entry.icon == "🥦")
        #expect(entry.color == nil)
        try await test.ledger.execute(s.command(.undo(targetCommandID: update.commandID)))
        let restored = try #require(await test.ledger.readModels.budgets.categoryList().first { $0.categoryID == s.groceries })
        #expect(restored.budgetType == .needs)
        #expect(restored.icon == "🛒")
        #expect(restored.color == "#4CAF50")
        #expect(try await allocated(.needs) == Scenario.chf(50_000))
        await expectRejection(test.ledger, s.command(.updateCategory(categoryID: s.ids.next(), budgetType: .needs, icon: nil, color: nil)),
                              code: "unknownCategory", rule: "C1")
        await expectRejection(test.ledger, s.command(.updateCategory(categoryID: s.groceries, budgetType: .needs, icon: String(repeating: "x", count: 65), color: nil)),
                              code: "inputTooLarge", rule: "G6")
    }

    @Test("C1: reorderCategories puts the listed categories in the places they held, the others keep theirs, new ones go last; undo puts the old order back")
    func reorderCategories() async throws {
        var (test, s) = try await Self.household()
        let before = await test.ledger.readModels.budgets.categoryList().map(\.categoryID)
        #expect(await test.ledger.state.categoryOrder == before)
        let expenses = await test.ledger.readModels.budgets.categoryList().filter { $0.group == .expense }.map(\.categoryID)
        let reversed = Array(expenses.reversed())
        let reorder = s.command(.reorderCategories(categoryIDs: reversed))
        try await test.ledger.execute(reorder)
        let after = await test.ledger.readModels.budgets.categoryList()
        #expect(after.filter { $0.group == .expense }.map(\.categoryID) == reversed)
        #expect(zip(before, after.map(\.categoryID)).allSatisfy { old, new in expenses.contains(old) || old == new },
                "income categories keep their places")
        let pets: CategoryID = s.ids.next()
        try await test.ledger.execute(s.command(.createCategory(
            categoryID: pets, name: "Pets", group: .expense, budgetType: .needs, shareable: false, icon: nil, color: nil)))
        #expect(await test.ledger.readModels.budgets.categoryList().last?.categoryID == pets)
        try await test.ledger.execute(s.command(.undo(targetCommandID: reorder.commandID)))
        #expect(await test.ledger.readModels.budgets.categoryList().map(\.categoryID) == before + [pets])
        #expect(await test.ledger.state.categoryOrder == before + [pets])
        await expectRejection(test.ledger, s.command(.reorderCategories(categoryIDs: [s.groceries, s.restaurants, s.groceries])),
                              code: "categoryListedTwice", rule: "C1")
        await expectRejection(test.ledger, s.command(.reorderCategories(categoryIDs: [])), code: "categoryListedTwice", rule: "C1")
        await expectRejection(test.ledger, s.command(.reorderCategories(categoryIDs: [s.groceries, s.ids.next()])), code: "unknownCategory", rule: "C1")
    }

    // MARK: Groups (S7, S8)

    /// A group of Alice, Bob and Carol (a contact), and Alice paying CHF 90 split equally.
    static func tripGroup(_ s: inout Scenario, _ ledger: Ledger) async throws -> GroupID {
        let group: GroupID = s.ids.next()
        try await ledger.execute([
            s.command(.addPerson(personID: Scenario.carol, name: "Carol")),
            s.command(.createGroup(groupID: group, name: "Trip", members: [s.alice, s.bob, Scenario.carol])),
        ])
        try await ledger.execute(expense(&s, group, paidBy: s.alice))
        return group
    }

    static func expense(_ s: inout Scenario, _ group: GroupID, paidBy: PersonID) -> Command {
        s.command(.recordGroupExpense(
            expenseID: s.ids.next(), groupID: group, paidBy: paidBy, amount: Scenario.chf(9_000), date: Scenario.date("2026-01-05"),
            note: nil, split: .equal([s.alice, s.bob, Scenario.carol])))
    }

    @Test("S7, Swiff 1.1.2 Group: updateGroup sets name, description and emoji; archiveGroup stops new expenses but not settlements; unarchive and undo reverse them")
    func updateAndArchiveGroup() async throws {
        var (test, s) = try await Self.household()
        let group = try await Self.tripGroup(&s, test.ledger)
        let update = s.command(.updateGroup(groupID: group, name: "Ski trip", description: "Verbier", emoji: "⛷"))
        try await test.ledger.execute(update)
        #expect(await test.ledger.readModels.debts.group(group)?.name == "Ski trip")
        #expect(await test.ledger.readModels.debts.groupState(group)?.description == "Verbier")
        #expect(await test.ledger.readModels.debts.groupState(group)?.emoji == "⛷")
        let rename = s.command(.updateGroup(groupID: group, name: "Ski trip", description: "Verbier"))
        try await test.ledger.execute(rename)
        #expect(await test.ledger.readModels.debts.groupState(group)?.emoji == nil, "an absent emoji is removed")
        try await test.ledger.execute(s.command(.undo(targetCommandID: rename.commandID)))
        #expect(await test.ledger.readModels.debts.groupState(group)?.emoji == "⛷", "undo puts the emoji back")
        try await test.ledger.execute(s.command(.undo(targetCommandID: update.commandID)))
        #expect(await test.ledger.readModels.debts.group(group)?.name == "Trip")
        #expect(await test.ledger.readModels.debts.groupState(group)?.description == nil)
        #expect(await test.ledger.readModels.debts.groupState(group)?.emoji == nil)

        try await test.ledger.execute(s.command(.archiveGroup(groupID: group)))
        #expect(await test.ledger.readModels.debts.groupState(group)?.isArchived == true)
        await expectRejection(test.ledger, Self.expense(&s, group, paidBy: s.bob), code: "groupArchived", rule: "S7")
        await expectRejection(test.ledger, s.command(.archiveGroup(groupID: group)), code: "groupStateUnchanged", rule: "S7")
        try await test.ledger.execute(s.command(.recordSettlement(
            settlementID: s.ids.next(), from: s.bob, to: s.alice, amount: Scenario.chf(3_000), date: Scenario.date("2026-01-06"),
            covers: nil, isAdvance: false, groupID: group)))
        let unarchive = s.command(.unarchiveGroup(groupID: group))
        try await test.ledger.execute(unarchive)
        try await test.ledger.execute(Self.expense(&s, group, paidBy: s.bob))
        await expectRejection(test.ledger, s.command(.unarchiveGroup(groupID: group)), code: "groupStateUnchanged", rule: "S7")
    }

    @Test("S8: a member with a balance cannot leave the group (the message names the amount); once settled they can; a group keeps two people")
    func removeGroupMemberNeedsZeroBalance() async throws {
        var (test, s) = try await Self.household()
        let group = try await Self.tripGroup(&s, test.ledger)  // Alice is owed 60, Bob and Carol owe 30 each
        do {
            try await test.ledger.execute(s.command(.removeGroupMember(groupID: group, personID: Scenario.carol)))
            Issue.record("a member with a balance left the group")
        } catch {
            #expect(error.code == "groupBalanceNotSettled")
            #expect(error.rule == "S8")
            #expect(error.message.contains("30.00"), "\(error.message)")
        }
        try await test.ledger.execute(s.command(.recordSettlement(
            settlementID: s.ids.next(), from: Scenario.carol, to: s.alice, amount: Scenario.chf(3_000), date: Scenario.date("2026-01-06"),
            covers: nil, isAdvance: false, groupID: group)))
        let remove = s.command(.removeGroupMember(groupID: group, personID: Scenario.carol))
        try await test.ledger.execute(remove)
        #expect(await test.ledger.readModels.debts.group(group)?.members == [s.alice, s.bob])
        await expectRejection(test.ledger, s.command(.removeGroupMember(groupID: group, personID: Scenario.carol)), code: "notInGroup", rule: "S7")
        await expectRejection(test.ledger, s.command(.removeGroupMember(groupID: group, personID: s.bob)), code: "groupNeedsTwoMembers", rule: "S7")
        try await test.ledger.execute(s.command(.undo(targetCommandID: remove.commandID)))
        #expect(await test.ledger.readModels.debts.group(group)?.members == [s.alice, s.bob, Scenario.carol])
        await expectRejection(test.ledger, s.command(.addGroupMember(groupID: group, personID: s.bob)), code: "alreadyInGroup", rule: "S7")
        let dave = Scenario.dave
        try await test.ledger.execute(s.command(.addPerson(personID: dave, name: "Dave")))
        try await test.ledger.execute(s.command(.addGroupMember(groupID: group, personID: dave)))
        #expect(await test.ledger.state.groups[group]?.members.last == dave)
    }

    @Test("S8: deleteGroup needs every balance at zero; a deleted group is listed nowhere and takes nothing more")
    func deleteGroupNeedsSettlement() async throws {
        var (test, s) = try await Self.household()
        let group = try await Self.tripGroup(&s, test.ledger)
        await expectRejection(test.ledger, s.command(.deleteGroup(groupID: group)), code: "groupBalanceNotSettled", rule: "S8")
        for person in [s.bob, Scenario.carol] {
            try await test.ledger.execute(s.command(.recordSettlement(
                settlementID: s.ids.next(), from: person, to: s.alice, amount: Scenario.chf(3_000), date: Scenario.date("2026-01-06"),
                covers: nil, isAdvance: false, groupID: group)))
        }
        let delete = s.command(.deleteGroup(groupID: group))
        try await test.ledger.execute(delete)
        #expect(await !test.ledger.readModels.debts.groupIDs.contains(group))
        #expect(await test.ledger.readModels.debts.groupState(group) == nil)
        await expectRejection(test.ledger, Self.expense(&s, group, paidBy: s.alice), code: "unknownGroup", rule: "S7")
        await expectRejection(test.ledger, s.command(.updateGroup(groupID: group, name: "Again", description: nil)), code: "unknownGroup", rule: "S7")
        // Undoable since issue 31 item 8 (GroupRestored): UndoDeletionTests.
    }

    // MARK: Pay schedule (B1, B6)

    @Test("B1, B6: setPaySchedule(biweekly) starts when the open period ends: 14-day periods after it, closed periods unchanged; setPayday returns to monthly")
    func biweeklyPaySchedule() async throws {
        var (test, s) = try await Self.household()  // monthly from the 1st: the open period is January
        func period(_ date: String) async -> PayPeriod { await test.ledger.readModels.budgets.period(containing: Scenario.date(date)) }
        try await test.ledger.execute(s.command(.setPaySchedule(frequency: .biweekly)))
        #expect(await period("2026-01-15") == PayPeriod(start: Scenario.date("2026-01-01"), end: Scenario.date("2026-01-31")))
        #expect(await period("2026-02-05") == PayPeriod(start: Scenario.date("2026-02-01"), end: Scenario.date("2026-02-14")))
        #expect(await period("2026-02-20") == PayPeriod(start: Scenario.date("2026-02-15"), end: Scenario.date("2026-02-28")))
        s.advance(to: "2026-02-16")
        try await test.ledger.execute(s.command(.closePeriod))
        let closed = await test.ledger.readModels.budgets.closedPeriods
        #expect(closed == [PayPeriod(start: Scenario.date("2026-01-01"), end: Scenario.date("2026-01-31")),
                           PayPeriod(start: Scenario.date("2026-02-01"), end: Scenario.date("2026-02-14"))])
        #expect(await test.ledger.state.periods.openStart == Scenario.date("2026-02-15"))
        try await test.ledger.execute(s.command(.setPayday(day: 1)))  // monthly again when the open period ends
        #expect(await period("2026-02-20") == PayPeriod(start: Scenario.date("2026-02-15"), end: Scenario.date("2026-02-28")))
        #expect(await period("2026-03-20") == PayPeriod(start: Scenario.date("2026-03-01"), end: Scenario.date("2026-03-31")))
        #expect(await test.ledger.readModels.budgets.closedPeriods == closed)
        await expectRejection(test.ledger, s.command(.setPaySchedule(frequency: .monthly)), code: "paydayOutOfRange", rule: "B1")
    }

    @Test("B1: a weekly schedule set before any payday starts on the recorded date")
    func weeklyPayScheduleFromToday() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("weekly")
        try await test.ledger.execute(s.setup())
        try await test.ledger.execute(s.command(.setPaySchedule(frequency: .weekly)))  // recorded 2026-01-05
        let period = await test.ledger.readModels.budgets.period(containing: Scenario.date("2026-01-13"))
        #expect(period == PayPeriod(start: Scenario.date("2026-01-12"), end: Scenario.date("2026-01-18")))
        #expect(await test.ledger.state.periods.openStart == Scenario.date("2026-01-05"))
    }

    // MARK: Budgets (B2)

    @Test("B2: after removeBudget the category is not budgeted: its spending is unbudgeted with no alert, while an allocation of 0 is over")
    func removedBudgetIsNotBudgetedZero() async throws {
        var (test, s) = try await Self.household()
        try await test.ledger.execute([
            s.command(.allocateBudget(categoryID: s.groceries, amount: Scenario.chf(50_000), fromPeriod: nil)),
            s.command(.allocateBudget(categoryID: s.restaurants, amount: Scenario.chf(0), fromPeriod: nil)),
        ])
        try await test.ledger.execute(s.command(.removeBudget(categoryID: s.groceries, fromPeriod: nil)))
        #expect(try await Self.line(s.groceries, in: test.ledger, on: "2026-01-05") == nil, "a removed budget without spending is not listed")
        try await test.ledger.execute([
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(2_000))),
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(2_000, category: s.restaurants))),
        ])
        let groceries = try #require(try await Self.line(s.groceries, in: test.ledger, on: "2026-01-05"))
        #expect(groceries.status == .unbudgeted)
        #expect(groceries.alert == .none)
        #expect(groceries.allocated == Scenario.chf(0))
        #expect(groceries.percentBasisPoints == nil)
        let restaurants = try #require(try await Self.line(s.restaurants, in: test.ledger, on: "2026-01-05"))
        #expect(restaurants.status == .over)
        #expect(restaurants.alert == .reached100)
    }

    @Test("B2: a removal from a later period keeps the earlier periods' allocation; a later allocation budgets the category again")
    func removalFromLaterPeriod() async throws {
        var (test, s) = try await Self.household()
        try await test.ledger.execute(s.command(.allocateBudget(categoryID: s.groceries, amount: Scenario.chf(50_000), fromPeriod: nil)))
        try await test.ledger.execute(s.command(.removeBudget(categoryID: s.groceries, fromPeriod: Scenario.date("2026-02-01"))))
        #expect(try await Self.line(s.groceries, in: test.ledger, on: "2026-01-05")?.allocated == Scenario.chf(50_000))
        #expect(try await Self.line(s.groceries, in: test.ledger, on: "2026-02-05") == nil)
        try await test.ledger.execute(s.command(.allocateBudget(
            categoryID: s.groceries, amount: Scenario.chf(40_000), fromPeriod: Scenario.date("2026-03-01"))))
        #expect(try await Self.line(s.groceries, in: test.ledger, on: "2026-02-05") == nil)
        #expect(try await Self.line(s.groceries, in: test.ledger, on: "2026-03-05")?.allocated == Scenario.chf(40_000))
    }

    @Test("B2: removing a budget that is not in force is budgetNotAllocated (never allocated, removed already); an unknown category is unknownCategory")
    func removeBudgetRejections() async throws {
        var (test, s) = try await Self.household()
        await expectRejection(test.ledger, s.command(.removeBudget(categoryID: s.groceries, fromPeriod: nil)),
                              code: "budgetNotAllocated", rule: "B2")
        try await test.ledger.execute(s.command(.allocateBudget(
            categoryID: s.groceries, amount: Scenario.chf(50_000), fromPeriod: Scenario.date("2026-02-01"))))
        await expectRejection(test.ledger, s.command(.removeBudget(categoryID: s.groceries, fromPeriod: Scenario.date("2026-01-01"))),
                              code: "budgetNotAllocated", rule: "B2")
        try await test.ledger.execute(s.command(.removeBudget(categoryID: s.groceries, fromPeriod: Scenario.date("2026-02-01"))))
        await expectRejection(test.ledger, s.command(.removeBudget(categoryID: s.groceries, fromPeriod: Scenario.date("2026-03-01"))),
                              code: "budgetNotAllocated", rule: "B2")
        await expectRejection(test.ledger, s.command(.removeBudget(categoryID: s.ids.next(), fromPeriod: nil)),
                              code: "unknownCategory", rule: "C1")
    }

    @Test("T5: undoing removeBudget re-allocates the amount in force; undoing a category's first allocateBudget records BudgetRemoved, not an allocation of 0")
    func budgetUndo() async throws {
        var (test, s) = try await Self.household()
        let allocate = s.command(.allocateBudget(categoryID: s.groceries, amount: Scenario.chf(50_000), fromPeriod: nil))
        let remove = s.command(.removeBudget(categoryID: s.groceries, fromPeriod: nil))
        try await test.ledger.execute([allocate, remove])
        try await test.ledger.execute(s.command(.undo(targetCommandID: remove.commandID)))
        #expect(try await Self.line(s.groceries, in: test.ledger, on: "2026-01-05")?.allocated == Scenario.chf(50_000))
        try await test.ledger.execute(s.command(.redo(targetCommandID: remove.commandID)))
        #expect(try await Self.line(s.groceries, in: test.ledger, on: "2026-01-05") == nil)
        try await test.ledger.execute(s.command(.undo(targetCommandID: remove.commandID)))

        let before = await test.ledger.lastSequenceNumber
        try await test.ledger.execute(s.command(.undo(targetCommandID: allocate.commandID)))
        let start = Scenario.date("2026-01-01")
        #expect(try await Self.payloads(test.ledger, after: before) == [
            .commandUndone(CommandUndone(undoneCommandID: allocate.commandID)),
            .budgetRemoved(BudgetRemoved(categoryID: s.groceries, fromPeriod: start)),
        ])
        #expect(try await Self.line(s.groceries, in: test.ledger, on: "2026-01-05") == nil)
        await expectRejection(test.ledger, s.command(.removeBudget(categoryID: s.groceries, fromPeriod: nil)),
                              code: "budgetNotAllocated", rule: "B2")
    }

    // MARK: Balance points (W5)

    /// An investment wallet (value observed, W5) opened with CHF 100 on 2026-01-01.
    static func portfolio(_ s: inout Scenario, _ ledger: Ledger) async throws -> WalletID {
        let id: WalletID = s.ids.next()
        try await ledger.execute(s.command(.openWallet(
            walletID: id, name: "ETF", kind: .investment, openingBalance: Scenario.chf(10_000),
            openedOn: Scenario.date("2026-01-01"), owner: nil)))
        return id
    }

    static func netWorth(_ ledger: Ledger, month: String) async throws -> Money? {
        try await ledger.readModels.netWorth.series().first { "\($0.month)" == month }?.value
    }

    @Test("W5: removeBalance drops the point: the observed wallet's value, its balance points and net worth follow")
    func removeBalancePoint() async throws {
        var (test, s) = try await Self.household()
        let etf = try await Self.portfolio(&s, test.ledger)
        let netWorthBefore = try await Self.netWorth(test.ledger, month: "2026-01")
        try await test.ledger.execute(s.command(.recordBalance(walletID: etf, date: Scenario.date("2026-01-20"), balance: Scenario.chf(50_000))))
        #expect(try await test.ledger.readModels.wallets.balance(of: etf) == Scenario.chf(50_000))
        #expect(try await Self.netWorth(test.ledger, month: "2026-01") != netWorthBefore)
        try await test.ledger.execute(s.command(.removeBalance(walletID: etf, date: Scenario.date("2026-01-20"))))
        #expect(try await test.ledger.readModels.wallets.balance(of: etf) == Scenario.chf(10_000))
        #expect(await test.ledger.readModels.wallets.balancePoints(of: etf).isEmpty)
        #expect(try await Self.netWorth(test.ledger, month: "2026-01") == netWorthBefore)
    }

    @Test("W5: editBalance changes a point's amount and date in one command; its undo puts the old point back")
    func editBalancePoint() async throws {
        var (test, s) = try await Self.household()
        let etf = try await Self.portfolio(&s, test.ledger)
        try await test.ledger.execute(s.command(.recordBalance(walletID: etf, date: Scenario.date("2026-01-20"), balance: Scenario.chf(50_000))))
        let edit = s.command(.editBalance(walletID: etf, date: Scenario.date("2026-01-20"), newDate: Scenario.date("2026-01-25"), balance: Scenario.chf(60_000)))
        try await test.ledger.execute(edit)
        let points = await test.ledger.readModels.wallets.balancePoints(of: etf)
        #expect(points.map(\.date) == [Scenario.date("2026-01-25")])
        #expect(points.map(\.balance) == [Scenario.chf(60_000)])
        #expect(try await test.ledger.readModels.wallets.balance(of: etf, asOf: Scenario.date("2026-01-22")) == Scenario.chf(10_000))
        try await test.ledger.execute(s.command(.undo(targetCommandID: edit.commandID)))
        let restored = await test.ledger.readModels.wallets.balancePoints(of: etf)
        #expect(restored.map(\.date) == [Scenario.date("2026-01-20")])
        #expect(restored.map(\.balance) == [Scenario.chf(50_000)])
    }

    @Test("T5: recordBalance is undoable; undoing a point that replaced one on the same date puts the earlier one back")
    func recordBalanceUndo() async throws {
        var (test, s) = try await Self.household()
        let etf = try await Self.portfolio(&s, test.ledger)
        let first = s.command(.recordBalance(walletID: etf, date: Scenario.date("2026-01-20"), balance: Scenario.chf(50_000)))
        let second = s.command(.recordBalance(walletID: etf, date: Scenario.date("2026-01-20"), balance: Scenario.chf(70_000)))
        try await test.ledger.execute(first)
        try await test.ledger.execute(second)
        #expect(try await test.ledger.readModels.wallets.balance(of: etf) == Scenario.chf(70_000))
        await expectRejection(test.ledger, s.command(.undo(targetCommandID: first.commandID)), code: "undoBlocked", rule: "T5")
        try await test.ledger.execute(s.command(.undo(targetCommandID: second.commandID)))
        #expect(try await test.ledger.readModels.wallets.balance(of: etf) == Scenario.chf(50_000))
        try await test.ledger.execute(s.command(.undo(targetCommandID: first.commandID)))
        #expect(try await test.ledger.readModels.wallets.balance(of: etf) == Scenario.chf(10_000))
        #expect(await test.ledger.readModels.wallets.balancePoints(of: etf).isEmpty)
        let remove = s.command(.removeBalance(walletID: etf, date: Scenario.date("2026-01-20")))
        await expectRejection(test.ledger, remove, code: "unknownBalancePoint", rule: "W5")
        try await test.ledger.execute(s.command(.redo(targetCommandID: first.commandID)))
        try await test.ledger.execute(remove)
        try await test.ledger.execute(s.command(.undo(targetCommandID: remove.commandID)))
        #expect(try await test.ledger.readModels.wallets.balance(of: etf) == Scenario.chf(50_000))
    }

    @Test("W5: editing or removing a point that does not exist is unknownBalancePoint; on a closed wallet walletInactive; in another currency currencyMismatch")
    func balanceRejections() async throws {
        var (test, s) = try await Self.household()
        let etf = try await Self.portfolio(&s, test.ledger)
        let day = Scenario.date("2026-01-20")
        await expectRejection(test.ledger, s.command(.removeBalance(walletID: etf, date: day)), code: "unknownBalancePoint", rule: "W5")
        await expectRejection(test.ledger, s.command(.editBalance(walletID: etf, date: day, newDate: nil, balance: Scenario.chf(1))),
                              code: "unknownBalancePoint", rule: "W5")
        try await test.ledger.execute(s.command(.recordBalance(walletID: etf, date: day, balance: Scenario.chf(0))))
        await expectRejection(test.ledger, s.command(.editBalance(walletID: etf, date: day, newDate: nil, balance: Scenario.eur(1))),
                              code: "currencyMismatch", rule: "W6")
        try await test.ledger.execute(s.command(.closeWallet(walletID: etf, closedOn: day)))
        await expectRejection(test.ledger, s.command(.removeBalance(walletID: etf, date: day)), code: "walletInactive", rule: "W4")
    }

    @Test("W5, B2: removed budgets and balance points survive a checkpoint and a reopen: the reopened state equals the live one")
    func editsSurviveCheckpoint() async throws {
        var (test, s) = try await Self.household()
        let etf = try await Self.portfolio(&s, test.ledger)
        try await test.ledger.execute([
            s.command(.allocateBudget(categoryID: s.groceries, amount: Scenario.chf(50_000), fromPeriod: nil)),
            s.command(.removeBudget(categoryID: s.groceries, fromPeriod: Scenario.date("2026-02-01"))),
            s.command(.recordBalance(walletID: etf, date: Scenario.date("2026-01-20"), balance: Scenario.chf(50_000))),
            s.command(.recordBalance(walletID: etf, date: Scenario.date("2026-01-25"), balance: Scenario.chf(55_000))),
            s.command(.removeBalance(walletID: etf, date: Scenario.date("2026-01-25"))),
        ])
        try await test.ledger.checkpoint()
        let state = await test.ledger.state
        let models = await test.ledger.readModels
        try await test.ledger.close()
        let reopened = try await test.reopen()
        #expect(reopened.openReport.rejectedCheckpoints.isEmpty)
        #expect(reopened.openReport.checkpointSequenceNumber != nil, "the reopen read the checkpoint")
        #expect(await reopened.state == state)
        #expect(await reopened.readModels == models)
        try await reopened.close()
    }

    @Test("Commands: renamePerson and updatePerson parse from their JSON lines; an absent e-mail or phone is nil")
    func parsePersonCommands() throws {
        let header = #""commandID":"0000000c-0000-4000-8000-0000000000f1","actor":"00000002-0000-4000-8000-000000000001","recordedAt":"2026-02-01T08:00:00.000Z""#
        let person = try PersonID(parsing: "00000002-0000-4000-8000-000000000003")
        let rename = try CommandParser.parse(line: #"{"command":"renamePerson",\#(header),"personID":"00000002-0000-4000-8000-000000000003","name":"Carol Meier"}"#)
        #expect(rename.action == .renamePerson(personID: person, name: "Carol Meier"))
        let update = try CommandParser.parse(line: #"{"command":"updatePerson",\#(header),"personID":"00000002-0000-4000-8000-000000000003","name":"Carol","email":"carol@example.ch"}"#)
        #expect(update.action == .updatePerson(personID: person, name: "Carol", email: "carol@example.ch", phone: nil))
    }

    @Test("Commands: editTransfer parses from its JSON line; an absent amountReceived stays absent (W6: the engine takes amountSent)")
    func parseEditTransfer() throws {
        let header = #""commandID":"0000000c-0000-4000-8000-0000000000f1","actor":"00000002-0000-4000-8000-000000000001","recordedAt":"2026-02-01T08:00:00.000Z""#
        let edit = try CommandParser.parse(line: #"{"command":"editTransfer",\#(header),"transferID":"00000006-0000-4000-8000-000000000001","fromWalletID":"00000003-0000-4000-8000-000000000001","toWalletID":"00000003-0000-4000-8000-000000000002","amountSent":"CHF 600.00","date":"2026-01-12"}"#)
        #expect(edit.action == .editTransfer(
            transferID: try TransferID(parsing: "00000006-0000-4000-8000-000000000001"), fromWalletID: try WalletID(parsing: "00000003-0000-4000-8000-000000000001"),
            toWalletID: try WalletID(parsing: "00000003-0000-4000-8000-000000000002"), amountSent: Scenario.chf(60_000),
            amountReceived: nil, date: Scenario.date("2026-01-12"), note: nil))
    }

    @Test("Commands: editBalance, removeBalance and removeBudget parse from their JSON lines")
    func parseEditingCommands() throws {
        let header = #""commandID":"0000000c-0000-4000-8000-0000000000f1","actor":"00000002-0000-4000-8000-000000000001","recordedAt":"2026-02-01T08:00:00.000Z""#
        let wallet = try WalletID(parsing: "00000003-0000-4000-8000-000000000005")
        let edit = try CommandParser.parse(line: #"{"command":"editBalance",\#(header),"walletID":"00000003-0000-4000-8000-000000000005","date":"2026-01-31","newDate":"2026-01-30","balance":"CHF 25300.00"}"#)
        #expect(edit.action == .editBalance(walletID: wallet, date: Scenario.date("2026-01-31"), newDate: Scenario.date("2026-01-30"), balance: Scenario.chf(2_530_000)))
        let remove = try CommandParser.parse(line: #"{"command":"removeBalance",\#(header),"walletID":"00000003-0000-4000-8000-000000000005","date":"2026-01-31"}"#)
        #expect(remove.action == .removeBalance(walletID: wallet, date: Scenario.date("2026-01-31")))
        let category = try CategoryID(parsing: "00000004-0000-4000-8000-000000000001")
        let budget = try CommandParser.parse(line: #"{"command":"removeBudget",\#(header),"categoryID":"00000004-0000-4000-8000-000000000001"}"#)
        #expect(budget.action == .removeBudget(categoryID: category, fromPeriod: nil))
    }
}
