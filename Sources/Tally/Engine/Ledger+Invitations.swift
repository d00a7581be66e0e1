import TallyModel

/// An invitation to join the household as a member as a household screen or the invitee
/// shows it (H6, Flow US-005).
public struct InvitationRow: Sendable, Hashable {
    /// Where an invitation stands at the time asked.
    public enum Status: String, Sendable, Hashable {
        /// Neither accepted nor cancelled, and not yet expired: the invitee can accept it.
        case pending
        /// Its 7 days passed without an answer.
        case expired
        /// The admin cancelled it.
        case cancelled
        /// The invitee accepted it and is a member.
        case accepted
    }

    /// The invitation.
    public let invitationID: InvitationID
    /// The person id the invitee joins under.
    public let personID: PersonID
    /// The invitee's name; `nil` once the invitee is forgotten (P3) or while sealed (its key
    /// not held here).
    public let name: String?
    /// The address it was sent to: shown to the admin, the invitee and the audit read only
    /// (personal text of the invitee, G7); `nil` otherwise, when none was given, or forgotten.
    public let email: String?
    /// When it stops being acceptable.
    public let expiresAt: Timestamp
    /// Where it stands at the time asked.
    public let status: Status
}

extension LedgerState {
    /// The invitations `viewer` sees at `time`, pending only unless `all`, by expiry then id
    /// (H6): every member sees the household's invitations (names, like the people list); a
    /// viewer who is not a member, the invitee, sees those addressed to their person id.
    package func invitations(at time: Timestamp, visibleTo viewer: Viewer, all: Bool = false) -> [InvitationRow] {
        let person = viewer.person
        let isMember = person.map { id in people[id].map { $0.isMember && !$0.isRemoved } ?? false } ?? true
        let seesEmails = person == nil || person == household?.admin
        return invitations.values.compactMap { record -> InvitationRow? in
            let invitation = record.invitation
            guard isMember || invitation.personID == person else { return nil }
            let status: InvitationRow.Status = switch record.outcome {
            case .accepted: .accepted
            case .cancelled: .cancelled
            case nil: record.isPending(at: time) ? .pending : .expired
            }
            guard all || status == .pending else { return nil }
            return InvitationRow(
                invitationID: invitation.invitationID, personID: invitation.personID, name: invitation.name.text,
                email: seesEmails || invitation.personID == person ? invitation.email?.text : nil,
                expiresAt: invitation.expiresAt, status: status)
        }.sorted { ($0.expiresAt, $0.invitationID) < ($1.expiresAt, $1.invitationID) }
    }
}

extension Ledger {
    /// The invitations `viewer` sees, pending at `time` (or all of them, with their status,
    /// when `all`), as of the last acknowledged batch (H6, Flow US-005). The ledger has no
    /// clock (G3): the host passes the time pending is judged at, as a command's `recordedAt`.
    public func invitations(at time: Timestamp, visibleTo viewer: Viewer, all: Bool = false) -> [InvitationRow] {
        queryState.invitations(at: time, visibleTo: viewer, all: all)
    }
}
