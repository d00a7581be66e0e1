import Tally
import TallyModel
import TallyTestSupport
import Testing

/// Invitations to join the household (Flow US-005, US-006; H6): `inviteMember`,
/// `cancelInvitation`, `acceptInvitation`, the 7-day expiry judged against each command's
/// `recordedAt`, the member cap as the host's entity limit `members`, and who sees them (G7).
@Suite("Invitations")
struct InvitationTests {
    static let dana = PersonID(UUIDValue(high: 0xDA4A_0000_0000_4000, low: 0x8000_0000_0000_0001))
    static let eve = PersonID(UUIDValue(high: 0xE7E0_0000_0000_4000, low: 0x8000_0000_0000_0001))
    static let day: Int64 = 86_400_000

    static func invite(_ s: inout Scenario, _ id: InvitationID, _ person: PersonID, _ name: String, email: String? = nil, by actor: PersonID? = nil) -> Command {
        s.command(.inviteMember(invitationID: id, personID: person, name: name, email: email), by: actor)
    }

    static func now(_ s: Scenario) -> Timestamp { Timestamp(millisecondsSinceEpoch: s.clock) }

    @Test("US-005, US-006, H6: the admin invites; the invitation is pending for 7 days; the invitee accepts and is a member by addMember's rules; a second accept is invitationNotPending")
    func inviteAndAccept() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("invitations-accept", durability: .synchronous)
        try await test.ledger.execute(s.setup())
        let id: InvitationID = s.ids.next()
        let invite = Self.invite(&s, id, Self.dana, "Dana", email: "dana@example.ch")
        try await test.ledger.execute(invite)
        let pending = await test.ledger.invitations(at: Self.now(s), visibleTo: .member(s.alice))
        #expect(pending.map(\.invitationID) == [id])
        #expect(pending.first?.name == "Dana" && pending.first?.email == "dana@example.ch" && pending.first?.status == .pending)
        #expect(pending.first?.expiresAt == Timestamp(millisecondsSinceEpoch: invite.recordedAt.millisecondsSinceEpoch + 7 * Self.day))
        #expect(!(await test.ledger.people().contains { $0.personID == Self.dana }))
        s.clock += 6 * Self.day
        let accept = s.command(.acceptInvitation(invitationID: id), by: Self.dana)
        try await test.ledger.execute(accept)
        let dana = await test.ledger.people().first { $0.personID == Self.dana }
        #expect(dana?.role == .member && dana?.name == "Dana")
        #expect(await test.ledger.invitations(at: Self.now(s), visibleTo: .audit).isEmpty)
        #expect(await test.ledger.invitations(at: Self.now(s), visibleTo: .audit, all: true).map(\.status) == [.accepted])
        await expectRejection(test.ledger, s.command(.acceptInvitation(invitationID: id), by: Self.dana), code: "invitationNotPending", rule: "H6")
        // The membership is not undoable; the new member acts as one.
        await expectRejection(test.ledger, s.command(.undo(targetCommandID: accept.commandID), by: Self.dana), code: "notUndoable", rule: "T5")
        try await test.ledger.execute(s.command(.renamePerson(personID: Self.dana, name: "Dana M."), by: Self.dana))
        try await test.ledger.close()
        let reopened = try await test.reopen()
        #expect(await reopened.invitations(at: Self.now(s), visibleTo: .audit, all: true).map(\.status) == [.accepted])
    }

    @Test("US-005, H6, G3: expiry is judged against the command's recordedAt: an accept 7 days later is invitationNotPending (expired), so is a cancel; the query at that time lists it as expired; a new invitation re-sends it")
    func expiry() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("invitations-expiry", durability: .synchronous)
        try await test.ledger.execute(s.setup())
        let id: InvitationID = s.ids.next()
        try await test.ledger.execute(Self.invite(&s, id, Self.dana, "Dana"))
        let sent = Self.now(s)
        s.clock += 7 * Self.day - 60_000  // the next command is exactly 7 days after the invitation
        await expectRejection(test.ledger, s.command(.acceptInvitation(invitationID: id), by: Self.dana), code: "invitationNotPending", rule: "H6")
        await expectRejection(test.ledger, s.command(.cancelInvitation(invitationID: id)), code: "invitationNotPending", rule: "H6")
        let justBefore = Timestamp(millisecondsSinceEpoch: sent.millisecondsSinceEpoch + 7 * Self.day - 1)
        #expect(await test.ledger.invitations(at: justBefore, visibleTo: .audit).map(\.invitationID) == [id])
        #expect(await test.ledger.invitations(at: Self.now(s), visibleTo: .audit).isEmpty)
        #expect(await test.ledger.invitations(at: Self.now(s), visibleTo: .audit, all: true).map(\.status) == [.expired])
        let again: InvitationID = s.ids.next()
        try await test.ledger.execute(Self.invite(&s, again, Self.dana, "Dana"))
        try await test.ledger.execute(s.command(.acceptInvitation(invitationID: again), by: Self.dana))
        #expect(await test.ledger.people().contains { $0.personID == Self.dana && $0.role == .member })
    }

    @Test("US-005, H5, H6, T5: only the admin invites and cancels (adminOnly); a cancelled invitation cannot be accepted; undoing the cancel makes it pending again; undoing the invitation cancels it")
    func cancelAndUndo() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("invitations-cancel", durability: .synchronous)
        try await test.ledger.execute(s.setup())
        let id: InvitationID = s.ids.next()
        await expectRejection(test.ledger, Self.invite(&s, id, Self.dana, "Dana", by: s.bob), code: "adminOnly", rule: "H5")
        let invite = Self.invite(&s, id, Self.dana, "Dana")
        try await test.ledger.execute(invite)
        await expectRejection(test.ledger, s.command(.cancelInvitation(invitationID: id), by: s.bob), code: "adminOnly", rule: "H5")
        await expectRejection(test.ledger, s.command(.cancelInvitation(invitationID: s.ids.next())), code: "unknownInvitation", rule: "H6")
        let cancel = s.command(.cancelInvitation(invitationID: id))
        try await test.ledger.execute(cancel)
        #expect(await test.ledger.invitations(at: Self.now(s), visibleTo: .audit).isEmpty)
        await expectRejection(test.ledger, s.command(.acceptInvitation(invitationID: id), by: Self.dana), code: "invitationNotPending", rule: "H6")
        try await test.ledger.execute(s.command(.undo(targetCommandID: cancel.commandID)))
        #expect(await test.ledger.invitations(at: Self.now(s), visibleTo: .audit).map(\.invitationID) == [id])
        try await test.ledger.execute(s.command(.undo(targetCommandID: invite.commandID)))
        #expect(await test.ledger.invitations(at: Self.now(s), visibleTo: .audit, all: true).map(\.status) == [.cancelled])
    }

    @Test("US-005, H6, G5, G7: a person id in the household is duplicateID; a second pending invitation for one person is alreadyInvited; only the invitee accepts (notInvitee); members see the household's invitations, e-mail for the admin only; an invitee sees only their own")
    func rulesAndVisibility() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("invitations-rules", durability: .synchronous)
        try await test.ledger.execute(s.setup())
        await expectRejection(test.ledger, Self.invite(&s, s.ids.next(), s.bob, "Bob"), code: "duplicateID", rule: "G5")
        await expectRejection(test.ledger, Self.invite(&s, s.ids.next(), Self.dana, "Dana", email: "not an address"), code: "invalidContact", rule: "H3")
        await expectRejection(test.ledger, Self.invite(&s, s.ids.next(), Self.dana, " "), code: "nameRequired", rule: "G6")
        let danas: InvitationID = s.ids.next()
        try await test.ledger.execute(Self.invite(&s, danas, Self.dana, "Dana", email: "dana@example.ch"))
        await expectRejection(test.ledger, Self.invite(&s, s.ids.next(), Self.dana, "Dana"), code: "alreadyInvited", rule: "H6")
        await expectRejection(test.ledger, Self.invite(&s, danas, Self.eve, "Eve"), code: "duplicateID", rule: "G5")
        let eves: InvitationID = s.ids.next()
        try await test.ledger.execute(Self.invite(&s, eves, Self.eve, "Eve", email: "eve@example.ch"))
        await expectRejection(test.ledger, s.command(.acceptInvitation(invitationID: danas), by: Self.eve), code: "notInvitee", rule: "H6")
        await expectRejection(test.ledger, s.command(.acceptInvitation(invitationID: danas), by: s.bob), code: "notInvitee", rule: "H6")
        let now = Self.now(s)
        let bobs = await test.ledger.invitations(at: now, visibleTo: .member(s.bob))
        #expect(Set(bobs.map(\.invitationID)) == [danas, eves] && bobs.allSatisfy { $0.email == nil })
        #expect(Set(await test.ledger.invitations(at: now, visibleTo: .member(s.alice)).compactMap(\.email)) == ["dana@example.ch", "eve@example.ch"])
        let evesView = await test.ledger.invitations(at: now, visibleTo: .member(Self.eve))
        #expect(evesView.map(\.invitationID) == [eves] && evesView.first?.email == "eve@example.ch")
        #expect(await test.ledger.invitations(at: now, visibleTo: .member(s.ids.next())).isEmpty)
    }

    @Test("US-005, H6, G6: with the host's cap members=2 (Flow's Phase 2 limit) a two-member household cannot invite (entityLimitReached); with members=3 a pending invitation holds the third place until it expires or is cancelled; addMember and accept count alike")
    func memberCap() async throws {
        var s = Scenario()
        let full = try await TestLedger.make("invitations-cap-2", limits: EntityLimits([.members: 2]))
        try await full.ledger.execute(s.setup())
        await expectRejection(full.ledger, Self.invite(&s, s.ids.next(), Self.dana, "Dana"), code: "entityLimitReached", rule: "G6")
        await expectRejection(full.ledger, s.command(.addMember(personID: Self.dana, name: "Dana")), code: "entityLimitReached", rule: "G6")
        // A contact is no member: the people kind is another cap.
        try await full.ledger.execute(s.command(.addPerson(personID: Self.eve, name: "Eve")))

        var t = Scenario()
        let three = try await TestLedger.make("invitations-cap-3", limits: EntityLimits([.members: 3]))
        try await three.ledger.execute(t.setup())
        let danas: InvitationID = t.ids.next()
        try await three.ledger.execute(Self.invite(&t, danas, Self.dana, "Dana"))
        await expectRejection(three.ledger, Self.invite(&t, t.ids.next(), Self.eve, "Eve"), code: "entityLimitReached", rule: "G6")
        await expectRejection(three.ledger, t.command(.addMember(personID: Self.eve, name: "Eve")), code: "entityLimitReached", rule: "G6")
        let cancel = t.command(.cancelInvitation(invitationID: danas))
        try await three.ledger.execute(cancel)
        let eves: InvitationID = t.ids.next()
        try await three.ledger.execute(Self.invite(&t, eves, Self.eve, "Eve"))
        // Undoing the cancel would bring back a pending invitation over the cap.
        await expectRejection(three.ledger, t.command(.undo(targetCommandID: cancel.commandID)), code: "entityLimitReached", rule: "G6")
        t.clock += 8 * Self.day
        try await three.ledger.execute(t.command(.addMember(personID: Self.dana, name: "Dana")))  // Eve's place freed by expiry
        await expectRejection(three.ledger, Self.invite(&t, t.ids.next(), s.ids.next(), "Fay"), code: "entityLimitReached", rule: "G6")
    }

    @Test("US-005, P1, P3: the invitee's name and e-mail are their personal text; once no invitation of theirs is pending, the admin can forget an invitee who never joined: their texts read redacted and their id is never used again")
    func forgettingAnInvitee() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("invitations-forget", durability: .synchronous)
        try await test.ledger.execute(s.setup())
        let id: InvitationID = s.ids.next()
        try await test.ledger.execute(Self.invite(&s, id, Self.dana, "Dana", email: "dana@example.ch"))
        await expectRejection(test.ledger, s.command(.forgetPerson(personID: Self.dana)), code: "forgetActiveMember", rule: "P3")
        try await test.ledger.execute(s.command(.cancelInvitation(invitationID: id)))
        try await test.ledger.execute(s.command(.forgetPerson(personID: Self.dana)))
        let row = await test.ledger.invitations(at: Self.now(s), visibleTo: .audit, all: true).first
        #expect(row?.name == nil && row?.email == nil && row?.status == .cancelled)
        await expectRejection(test.ledger, Self.invite(&s, s.ids.next(), Self.dana, "Dana"), code: "personForgotten", rule: "P3")
        await expectRejection(test.ledger, s.command(.forgetPerson(personID: Self.dana)), code: "personForgotten", rule: "P3")
        try await test.ledger.close()
        let reopened = try await test.reopen()
        #expect(await reopened.invitations(at: Self.now(s), visibleTo: .audit, all: true).first?.name == nil)
    }
}
