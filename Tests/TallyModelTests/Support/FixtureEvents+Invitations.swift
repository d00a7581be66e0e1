import TallyModel

extension FixtureEvents {
    /// `MemberInvited` (tag 653, version 1), `InvitationCancelled` (654, version 1) and
    /// `InvitationAccepted` (655, version 1), Flow US-005 (H6): an invitation with an e-mail
    /// that is cancelled, one without an e-mail that is accepted (with the `MemberAdded` that
    /// follows it), and one whose texts are redacted (its invitee forgotten).
    static let invitations: [Event] = [
        Event(commandID: id(8301), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_796_100_000_000),
              payload: .memberInvited(MemberInvited(
                invitationID: id(8401), personID: id(8501), name: PersonalText("Dana", owner: id(8501)),
                email: PersonalText("dana@example.ch", owner: id(8501)), expiresAt: Timestamp(millisecondsSinceEpoch: 1_796_704_800_000)))),
        Event(commandID: id(8302), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_796_100_001_000),
              payload: .invitationCancelled(InvitationCancelled(invitationID: id(8401)))),
        Event(commandID: id(8303), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_796_100_002_000),
              payload: .memberInvited(MemberInvited(
                invitationID: id(8402), personID: id(8502), name: PersonalText("Eli", owner: id(8502)),
                email: nil, expiresAt: Timestamp(millisecondsSinceEpoch: 1_796_704_802_000)))),
        Event(commandID: id(8304), actor: id(8502), recordedAt: Timestamp(millisecondsSinceEpoch: 1_796_200_000_000),
              payload: .invitationAccepted(InvitationAccepted(invitationID: id(8402)))),
        Event(commandID: id(8304), actor: id(8502), recordedAt: Timestamp(millisecondsSinceEpoch: 1_796_200_000_000),
              payload: .memberAdded(MemberAdded(personID: id(8502), name: PersonalText("Eli", owner: id(8502)), role: .member))),
        Event(commandID: id(8305), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_796_300_000_000),
              payload: .memberInvited(MemberInvited(
                invitationID: id(8403), personID: id(8503), name: .redacted(owner: id(8503)),
                email: .redacted(owner: id(8503)), expiresAt: Timestamp(millisecondsSinceEpoch: 1_796_904_800_000)))),
    ]
}
