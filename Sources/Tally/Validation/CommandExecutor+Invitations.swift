import TallyModel

/// Invitations to join the household (H6, Flow US-005): the admin invites and cancels, the
/// invitee accepts within 7 days of the invitation, judged against each command's
/// `recordedAt` (the fold has no clock, G3). Accepting makes the invitee a member by
/// `addMember`'s rules (``memberAdded(_:name:)``); a host's member cap is the entity limit
/// `members`, in which pending invitations hold a place.
extension CommandExecutor {
    /// How long an invitation stays acceptable after the command that records it: 7 days (H6).
    static let invitationValidityMilliseconds: Int64 = 7 * 86_400_000

    func validateInvitation(_ command: Command) throws(LedgerError) -> [EventPayload] {
        switch command.action {
        case .inviteMember(let id, let person, let name, let email):
            try requireAdmin(command.actor, "invite members")
            guard state.invitations[id] == nil else {
                throw .violation(.duplicateID, "invitation id \(id) is used already; every invitation needs a new id")
            }
            try requireNewPerson(person)
            try requireName(name, of: "invitee")
            if let email { try requireEmail(email) }
            if let pending = state.invitations.values.first(where: { $0.invitation.personID == person && $0.isPending(at: command.recordedAt) }) {
                throw .violation(.alreadyInvited, "person id \(person) has the pending invitation \(pending.invitation.invitationID) until \(pending.invitation.expiresAt); cancel it before inviting again")
            }
            let (expiry, overflow) = command.recordedAt.millisecondsSinceEpoch.addingReportingOverflow(Self.invitationValidityMilliseconds)
            guard !overflow else { throw .violation(.invalidValue, "recordedAt \(command.recordedAt) is too late for an invitation to expire 7 days after it") }
            return [.memberInvited(MemberInvited(
                invitationID: id, personID: person, name: try entered(name, by: person),
                email: try entered(email, by: person), expiresAt: Timestamp(millisecondsSinceEpoch: expiry)))]
        case .cancelInvitation(let id):
            try requireAdmin(command.actor, "cancel invitations")
            _ = try pendingInvitation(id, at: command.recordedAt)
            return [.invitationCancelled(InvitationCancelled(invitationID: id))]
        default:
            return []
        }
    }

    /// The invitee accepts (H6): checked before the actor has to be a member, since they are
    /// not one yet; the member they become passes `addMember`'s rules.
    func acceptInvitation(_ id: InvitationID, command: Command) throws(LedgerError) -> [EventPayload] {
        let record = try pendingInvitation(id, at: command.recordedAt)
        guard record.invitation.personID == command.actor else {
            throw .violation(.notInvitee, "invitation \(id) is for person \(record.invitation.personID); only they can accept it, as the command's actor")
        }
        // The invitation's name becomes the member's as it is (sealed on a sync server, P1); a
        // redacted one is no name.
        let name = record.invitation.name
        return [.invitationAccepted(InvitationAccepted(invitationID: id)),
                try memberAdded(command.actor, name: name.isRedacted ? "" : name.description, keeping: name)]
    }

    /// Whether `requester` may add a device acting for `person` at `time`, and until when the
    /// code that lets it join holds (Docs/Sync.md, "Joining a household"): the invitee of a
    /// pending household invitation, asked by the admin (H6: only the admin invites), until
    /// the invitation expires (the device then accepts it); an active member, asked by
    /// themselves or by the admin, for 7 days.
    /// - Returns: the household invitation the device carries out, if any, and the expiry.
    func deviceInvitation(for person: PersonID, by requester: PersonID, at time: Timestamp) throws(LedgerError) -> (invitation: InvitationID?, expiresAt: Timestamp) {
        if let pending = state.invitations.values.first(where: { $0.invitation.personID == person && $0.outcome == nil && $0.isPending(at: time) }) {
            try requireAdmin(requester, "invite a new member's device")
            return (pending.invitation.invitationID, pending.invitation.expiresAt)
        }
        try requireActiveMember(person, role: "the person of the new device")
        if person != requester { try requireAdmin(requester, "add a device for another member") }
        let (expiry, overflow) = time.millisecondsSinceEpoch.addingReportingOverflow(Self.invitationValidityMilliseconds)
        guard !overflow else { throw .violation(.invalidValue, "\(time) is too late for a code to expire 7 days after it") }
        return (nil, Timestamp(millisecondsSinceEpoch: expiry))
    }

    /// The invitation `id`, pending at `time`.
    /// - Throws: `unknownInvitation`, or `invitationNotPending` saying whether it was accepted,
    ///   cancelled or expired, and when it expires or expired.
    private func pendingInvitation(_ id: InvitationID, at time: Timestamp) throws(LedgerError) -> InvitationRecord {
        guard let record = state.invitations[id] else {
            throw .violation(.unknownInvitation, "no invitation has id \(id)")
        }
        switch record.outcome {
        case .accepted: throw .violation(.invitationNotPending, "invitation \(id) was accepted already")
        case .cancelled: throw .violation(.invitationNotPending, "invitation \(id) was cancelled; the admin can send a new one")
        case nil:
            guard record.isPending(at: time) else {
                throw .violation(.invitationNotPending, "invitation \(id) expired at \(record.invitation.expiresAt) (7 days after it was sent); the admin can send a new one")
            }
            return record
        }
    }
}
