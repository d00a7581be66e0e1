import Tally
import TallyModel
import TallyTestSupport
import Testing

/// Undo right after a delete (Swiff 1.2.5, 3.2.3; T5): `deleteGroup` (`GroupRestored`),
/// `archivePerson` (`PersonUnarchived`, also `unarchivePerson`) and `cancelTemplate`
/// (`TemplateReinstated`), their redo, what blocks them, and the cancel reason (Swiff 1.3.3).
@Suite("Undo of deletions")
struct UndoDeletionTests {
    /// A trip group whose balances are settled, ready to be deleted.
    static func settledGroup(_ s: inout Scenario, _ ledger: Ledger) async throws -> GroupID {
        let group = try await EditingTests.tripGroup(&s, ledger)
        for person in [s.bob, Scenario.carol] {
            try await ledger.execute(s.command(.recordSettlement(
                settlementID: s.ids.next(), from: person, to: s.alice, amount: Scenario.chf(3_000), date: Scenario.date("2026-01-06"),
                covers: nil, isAdvance: false, groupID: group)))
        }
        return group
    }

    @Test("1.2.5, 3.2.3, T5, S7: undo of deleteGroup restores the group with its members and expenses; redo deletes it again; both survive a restart")
    func undoDeleteGroupRestoresIt() async throws {
        var (test, s) = try await EditingTests.household()
        let group = try await Self.settledGroup(&s, test.ledger)
        let members = await test.ledger.readModels.debts.group(group)?.members
        let delete = s.command(.deleteGroup(groupID: group))
        try await test.ledger.execute(delete)
        #expect(await !test.ledger.readModels.debts.groupIDs.contains(group))
        try await test.ledger.execute(s.command(.undo(targetCommandID: delete.commandID)))
        #expect(await test.ledger.readModels.debts.groupIDs.contains(group))
        #expect(await test.ledger.readModels.debts.group(group)?.members == members)
        try await test.ledger.close()
        let reopened = try await test.reopen()
        #expect(await reopened.readModels.debts.groupIDs.contains(group))
        try await reopened.execute(s.command(.redo(targetCommandID: delete.commandID)))
        #expect(await !reopened.readModels.debts.groupIDs.contains(group))
        await expectRejection(reopened, EditingTests.expense(&s, group, paidBy: s.alice), code: "unknownGroup", rule: "S7")
        try await reopened.close()
    }

    @Test("T5, S8: a redo of deleteGroup is blocked once the restored group took an expense (a redo never deletes open balances)")
    func redoDeleteGroupBlockedByNewExpense() async throws {
        var (test, s) = try await EditingTests.household()
        let group = try await Self.settledGroup(&s, test.ledger)
        let delete = s.command(.deleteGroup(groupID: group))
        try await test.ledger.execute(delete)
        try await test.ledger.execute(s.command(.undo(targetCommandID: delete.commandID)))
        try await test.ledger.execute(EditingTests.expense(&s, group, paidBy: s.alice))
        await expectRejection(test.ledger, s.command(.redo(targetCommandID: delete.commandID)), code: "undoBlocked", rule: "T5")
        #expect(await test.ledger.readModels.debts.groupIDs.contains(group))
    }

    @Test("1.2.5 person, T5, H3: undo of archivePerson takes the person back; redo archives again; unarchivePerson does the same as a command")
    func undoArchivePerson() async throws {
        var (test, s) = try await RuleCoverageTests.household()
        let carol = Scenario.carol
        try await test.ledger.execute(s.command(.addPerson(personID: carol, name: "Carol")))
        let archive = s.command(.archivePerson(personID: carol))
        try await test.ledger.execute(archive)
        #expect(await test.ledger.state.people[carol]?.isArchived == true)
        try await test.ledger.execute(s.command(.undo(targetCommandID: archive.commandID)))
        #expect(await test.ledger.state.people[carol]?.isArchived == false)
        await expectRejection(test.ledger, s.command(.unarchivePerson(personID: carol)), code: "personNotArchived", rule: "H3")
        try await test.ledger.execute(s.command(.redo(targetCommandID: archive.commandID)))
        #expect(await test.ledger.state.people[carol]?.isArchived == true)
        let unarchive = s.command(.unarchivePerson(personID: carol))
        try await test.ledger.execute(unarchive)
        #expect(await test.ledger.state.people[carol]?.isArchived == false)
        try await test.ledger.execute(s.command(.undo(targetCommandID: unarchive.commandID)))
        #expect(await test.ledger.state.people[carol]?.isArchived == true)
        await expectRejection(test.ledger, s.command(.unarchivePerson(personID: s.ids.next())), code: "unknownPerson", rule: "H3")
    }

    @Test("T5, H3: a redo of archivePerson is blocked once the person, taken back, joined a group")
    func redoArchiveBlockedByGroupJoin() async throws {
        var (test, s) = try await RuleCoverageTests.household()
        let carol = Scenario.carol
        try await test.ledger.execute(s.command(.addPerson(personID: carol, name: "Carol")))
        let archive = s.command(.archivePerson(personID: carol))
        try await test.ledger.execute(archive)
        try await test.ledger.execute(s.command(.undo(targetCommandID: archive.commandID)))
        try await test.ledger.execute(s.command(.createGroup(groupID: s.ids.next(), name: "Dinner", members: [s.alice, carol])))
        await expectRejection(test.ledger, s.command(.redo(targetCommandID: archive.commandID)), code: "undoBlocked", rule: "T5")
    }

    @Test("1.2.5 subscription, 1.3.3 cancel, T5, R1: undo of cancelTemplate makes the dates from the cancel on due again, posted once by the next posting; the reason is kept and shown")
    func undoCancelTemplate() async throws {
        var (test, s) = try await SubscriptionTests.household()
        let template: TemplateID = s.ids.next()
        try await test.ledger.execute(s.command(.createTemplate(
            templateID: template, frequency: .monthly, entry: SubscriptionTests.entry(s, 1000, anchor: "2026-01-05"))))
        _ = try await SubscriptionTests.post(test, &s, through: "2026-02-28")
        let cancel = s.command(.cancelTemplate(templateID: template, effectiveOn: Scenario.date("2026-03-01"), reason: "Too expensive"))
        try await test.ledger.execute(cancel)
        let cancelled = try #require(await test.ledger.subscriptions(on: Scenario.date("2026-03-01"), visibleTo: .audit).first)
        #expect(cancelled.standing == .cancelled)
        #expect(cancelled.cancelReason == "Too expensive")
        _ = try await SubscriptionTests.post(test, &s, through: "2026-04-30")  // nothing: cancelled from 03-01
        #expect(try await SubscriptionTests.history(test, template).map(\.0) == ["2026-01-05", "2026-02-05"])

        let undo = s.command(.undo(targetCommandID: cancel.commandID))
        let undone = try await test.ledger.execute(undo)
        #expect(undone.count == 2)  // CommandUndone + TemplateReinstated: nothing is posted by the undo
        let back = try #require(await test.ledger.subscriptions(on: Scenario.date("2026-03-01"), visibleTo: .audit).first)
        #expect(back.standing != .cancelled)
        #expect(back.cancelReason == nil)
        #expect(back.schedule.cancelledOn == nil)
        _ = try await SubscriptionTests.post(test, &s, through: "2026-04-30")
        _ = try await SubscriptionTests.post(test, &s, through: "2026-04-30")
        #expect(try await SubscriptionTests.history(test, template).map(\.0) == ["2026-01-05", "2026-02-05", "2026-03-05", "2026-04-05"])
        // A posting after the undo depends on it: the cancel cannot be redone before it.
        await expectRejection(test.ledger, s.command(.redo(targetCommandID: cancel.commandID)), code: "undoBlocked", rule: "T5")
    }

    @Test("T5, R1: redo of cancelTemplate cancels again on the same date with the same reason, also after a restart")
    func redoCancelTemplateKeepsReason() async throws {
        var (test, s) = try await SubscriptionTests.household()
        let template: TemplateID = s.ids.next()
        try await test.ledger.execute(s.command(.createTemplate(
            templateID: template, frequency: .monthly, entry: SubscriptionTests.entry(s, 1000, anchor: "2026-01-05"))))
        let cancel = s.command(.cancelTemplate(templateID: template, effectiveOn: Scenario.date("2026-03-01"), reason: "Moving abroad"))
        try await test.ledger.execute(cancel)
        try await test.ledger.execute(s.command(.undo(targetCommandID: cancel.commandID)))
        try await test.ledger.execute(s.command(.redo(targetCommandID: cancel.commandID)))
        try await test.ledger.close()
        let reopened = try await test.reopen()
        let again = try #require(await reopened.subscriptions(on: Scenario.date("2026-03-01"), visibleTo: .audit).first)
        #expect(again.standing == .cancelled)
        #expect(again.schedule.cancelledOn == Scenario.date("2026-03-01"))
        #expect(again.cancelReason == "Moving abroad")
        try await reopened.close()
    }

    @Test("G6: a cancel reason longer than noteBytesMax is inputTooLarge")
    func cancelReasonIsBounded() async throws {
        var (test, s) = try await SubscriptionTests.household()
        let template: TemplateID = s.ids.next()
        try await test.ledger.execute(s.command(.createTemplate(
            templateID: template, frequency: .monthly, entry: SubscriptionTests.entry(s, 1000, anchor: "2026-01-05"))))
        let long = String(repeating: "r", count: LedgerLimits.noteBytesMax + 1)
        await expectRejection(test.ledger, s.command(.cancelTemplate(templateID: template, effectiveOn: Scenario.date("2026-03-01"), reason: long)),
                              code: "inputTooLarge", rule: "G6")
    }
}
