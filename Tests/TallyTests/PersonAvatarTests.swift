import Tally
import TallyModel
import TallyTestSupport
import Testing

/// Swiff 1.1.2 Person (issue 31 item 8): a member's or contact's avatar (emoji, colour, a photo
/// by digest), set all at once, undoable (T5), dropped when the person is forgotten (P3).
@Suite("Person avatars (H3, Swiff 1.1.2)")
struct PersonAvatarTests {
    @Test("Swiff 1.1.2: setPersonAvatar sets emoji, colour and photo at once; people() shows them; an absent field is removed; undo puts the old avatar back")
    func setAndUndo() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("person-avatar", durability: .synchronous)
        try await test.ledger.execute(s.setup())
        let photo = AttachmentTests.hash(0x5C)
        try await test.ledger.execute(s.command(.setPersonAvatar(personID: s.bob, emoji: "🚴", color: "#4CAF50", photo: photo)))
        #expect(await test.ledger.people().first { $0.personID == s.bob }?.avatar == PersonAvatar(emoji: "🚴", color: "#4CAF50", photo: photo))
        #expect(await test.ledger.attachedContentHashes() == [photo], "the host keeps the photo's bytes")
        let change = s.command(.setPersonAvatar(personID: s.bob, emoji: "🏔"))
        try await test.ledger.execute(change)
        #expect(await test.ledger.people().first { $0.personID == s.bob }?.avatar == PersonAvatar(emoji: "🏔"), "colour and photo removed")
        #expect(await test.ledger.attachedContentHashes().isEmpty)
        try await test.ledger.execute(s.command(.undo(targetCommandID: change.commandID)))
        #expect(await test.ledger.people().first { $0.personID == s.bob }?.avatar?.photo == photo)
        try await test.ledger.execute(s.command(.setPersonAvatar(personID: s.alice)))
        #expect(await test.ledger.people().first { $0.personID == s.alice }?.avatar == nil, "no field: no avatar")
        try await test.ledger.close()
        let reopened = try await test.reopen()
        #expect(await reopened.people().first { $0.personID == s.bob }?.avatar?.emoji == "🚴", "kept across reopen")
        try await reopened.close()
    }

    @Test("P3, G6: a forgotten person's avatar is dropped and cannot be set again; an unknown person or an emoji over LedgerLimits.tagBytesMax is refused")
    func rules() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("person-avatar-rules", durability: .synchronous)
        try await test.ledger.execute(s.setup())
        try await test.ledger.execute(s.command(.setPersonAvatar(personID: s.bob, emoji: "🚴", photo: AttachmentTests.hash(1))))
        await expectRejection(test.ledger, s.command(.setPersonAvatar(personID: s.ids.next(), emoji: "x")), code: "unknownPerson", rule: "H3")
        await expectRejection(test.ledger, s.command(.setPersonAvatar(personID: s.bob, emoji: String(repeating: "x", count: LedgerLimits.tagBytesMax + 1))),
                              code: "inputTooLarge", rule: "G6")
        try await test.ledger.execute(s.command(.removeMember(personID: s.bob, acknowledgeUnsettled: true)))
        try await test.ledger.execute(s.command(.forgetPerson(personID: s.bob)))
        #expect(await test.ledger.people().first { $0.personID == s.bob }?.avatar == nil)
        #expect(await test.ledger.attachedContentHashes().isEmpty, "the host deletes a forgotten person's photo")
        await expectRejection(test.ledger, s.command(.setPersonAvatar(personID: s.bob, emoji: "🚴")), code: "personForgotten", rule: "P3")
    }
}

/// Drishti E6-S2 (issue 31 item 8): closing a wallet that goals count asks for confirmation.
@Suite("Closing a wallet goals count (W4, R2, Drishti E6-S2)")
struct WalletGoalLinkTests {
    @Test("E6-S2: closeWallet is refused naming the live goals that count the wallet, until acknowledgeGoals; a deleted goal does not count")
    func closeNeedsAcknowledgement() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("wallet-goal-link", durability: .synchronous)
        try await test.ledger.execute(s.setup())
        let pocket: WalletID = s.ids.next()
        let trip: GoalID = s.ids.next()
        let car: GoalID = s.ids.next()
        try await test.ledger.execute([
            s.command(.openWallet(walletID: pocket, name: "Pocket", kind: .savings, openingBalance: Scenario.chf(0), openedOn: Scenario.date("2026-01-01"))),
            s.command(.createGoal(goalID: trip, goal: GoalDefinition(name: "Trip", target: Scenario.chf(100_000), walletIDs: [pocket]))),
            s.command(.createGoal(goalID: car, goal: GoalDefinition(name: "Car", target: Scenario.chf(900_000), walletIDs: [pocket, s.joint]))),
        ])
        #expect(await test.ledger.readModels.goals.goalIDs(countingWallet: pocket) == [trip, car].sorted())
        await expectRejection(test.ledger, s.command(.closeWallet(walletID: pocket, closedOn: Scenario.date("2026-02-01"))),
                              code: "walletUsedByGoals", rule: "W4")
        do {
            try await test.ledger.execute(s.command(.closeWallet(walletID: pocket, closedOn: Scenario.date("2026-02-01"))))
        } catch {
            #expect(error.message.contains("\"Trip\"") && error.message.contains("\"Car\""), "\(error)")
        }
        // G7: a goal Bob saves in his own wallet besides this one is counted, not named, to Alice.
        let bobs: WalletID = s.ids.next()
        let bike: GoalID = s.ids.next()
        try await test.ledger.execute([
            s.command(.openWallet(walletID: bobs, name: "Bob's", kind: .savings, openingBalance: Scenario.chf(0), openedOn: Scenario.date("2026-01-01"), owner: s.bob), by: s.bob),
            s.command(.createGoal(goalID: bike, goal: GoalDefinition(name: "Secret bike", target: Scenario.chf(300_000), walletIDs: [pocket, bobs])), by: s.bob),
        ])
        do {
            try await test.ledger.execute(s.command(.closeWallet(walletID: pocket, closedOn: Scenario.date("2026-02-01"))))
        } catch {
            #expect(!error.message.contains("Secret bike") && error.message.contains("1 of another member"), "\(error)")
        }
        try await test.ledger.execute(s.command(.deleteGoal(goalID: bike), by: s.bob))
        try await test.ledger.execute(s.command(.deleteGoal(goalID: trip)))
        #expect(await test.ledger.readModels.goals.goalIDs(countingWallet: pocket) == [car])
        try await test.ledger.execute(s.command(.closeWallet(walletID: pocket, closedOn: Scenario.date("2026-02-01"), acknowledgeGoals: true)))
        #expect(try await test.ledger.readModels.wallets.balances(visibleTo: .audit).first { $0.walletID == pocket }?.closedOn == Scenario.date("2026-02-01"))
    }
}
