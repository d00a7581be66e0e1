/// The admin invited someone to join the household as a member (H6, Flow US-005). The
/// invitation is pending until it is accepted, cancelled, or its `expiresAt` passes; accepting
/// it records ``InvitationAccepted`` and ``MemberAdded`` under the same person id.
///
/// Tag 653, schema version 1 (see ``EventTag/memberInvited`` and `Docs/Events.md`). Recorded
/// again unchanged by the undo of ``InvitationCancelled`` (pending again, same expiry).
@WireFields
public struct MemberInvited: Hashable, Sendable {
    /// The invitation.
    public let invitationID: InvitationID
    /// The person id the invitee joins under when they accept.
    public let personID: PersonID
    /// The invitee's name, personal text of the invitee (P1).
    public let name: PersonalText
    /// The address the host sends the invitation to, personal text of the invitee (P1).
    public let email: PersonalText?
    /// When it stops being acceptable: seven days after the invitation was recorded (H6).
    public let expiresAt: Timestamp

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(invitationID: InvitationID, personID: PersonID, name: PersonalText, email: PersonalText?, expiresAt: Timestamp) {
        self.invitationID = invitationID
        self.personID = personID
        self.name = name
        self.email = email
        self.expiresAt = expiresAt
    }
}
