/// A member left or was removed; shared history stays (H4).
///
/// Tag 103, schema version 1 (see ``EventTag/memberRemoved`` and `Docs/Events.md`).
@WireFields
public struct MemberRemoved: Hashable, Sendable {
    /// The member removed.
    public let personID: PersonID
    /// Whether unsettled debt was acknowledged by the command (H4).
    public let acknowledgedUnsettled: Bool
    /// The debt that was open at removal, if any, as shown to the user.
    public let unsettledAmount: Money?

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(personID: PersonID, acknowledgedUnsettled: Bool, unsettledAmount: Money?) {
        self.personID = personID
        self.acknowledgedUnsettled = acknowledgedUnsettled
        self.unsettledAmount = unsettledAmount
    }
}
