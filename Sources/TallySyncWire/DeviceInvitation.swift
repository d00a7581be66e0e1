import Foundation

/// What an invitation code lets a new device do (Docs/Sync.md, "Joining a household"): join one
/// household as one person, once, until it expires.
public struct DeviceInvitation: Sendable, Hashable {
    /// The person the new device acts for.
    public var personID: UUID
    /// The household invitation (the ledger's `inviteMember`) it carries out, for a new member;
    /// nil for another device of a member.
    public var invitationID: UUID?
    /// Milliseconds since 1970 after which the code is refused.
    public var expiresAtMilliseconds: Int64

    public init(personID: UUID, invitationID: UUID?, expiresAtMilliseconds: Int64) {
        self.personID = personID
        self.invitationID = invitationID
        self.expiresAtMilliseconds = expiresAtMilliseconds
    }
}

/// A device that accepted an invitation: its registration and its bearer token (shown once).
public struct JoinedDevice: Sendable, Hashable {
    public var device: Device
    public var token: String
    /// The household invitation the device joined under (its person accepts it next), if any.
    public var invitationID: UUID?

    public init(device: Device, token: String, invitationID: UUID?) {
        self.device = device
        self.token = token
        self.invitationID = invitationID
    }
}
