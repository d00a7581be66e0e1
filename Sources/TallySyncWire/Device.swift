import Foundation

/// A device allowed to push and pull one household's history, as a token authenticates it.
///
/// A device acts for one person of one household: every command it pushes must carry that
/// person as its actor (checked by the caller before validation, Docs/Sync.md, "Devices and
/// tokens").
public struct Device: Sendable, Hashable {
    /// The device's id.
    public var deviceID: UUID
    /// The household it belongs to.
    public var householdID: UUID
    /// The person it acts for.
    public var personID: UUID

    /// Creates a device.
    public init(deviceID: UUID, householdID: UUID, personID: UUID) {
        self.deviceID = deviceID
        self.householdID = householdID
        self.personID = personID
    }
}
