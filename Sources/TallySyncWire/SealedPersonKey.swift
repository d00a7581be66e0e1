import Foundation

/// A person's text key as a device shares it with the household's other devices (Docs/Sync.md,
/// "Keys between devices"): sealed under the household's secret, which the server never holds,
/// so the server stores and relays it without reading it.
public struct SealedPersonKey: Sendable, Hashable {
    /// Whose texts the key opens.
    public var personID: UUID
    /// The key sealed under the household's secret.
    public var sealed: [UInt8]
    /// The key's fingerprint (a hash of the key and the person's id): two devices that made
    /// two keys for one person are told apart by it, without the key.
    public var fingerprint: [UInt8]

    public init(personID: UUID, sealed: [UInt8], fingerprint: [UInt8]) {
        self.personID = personID
        self.sealed = sealed
        self.fingerprint = fingerprint
    }
}

/// A key as the server stores it, with its place in the household's list of keys: a device
/// asks for the keys after the last serial it holds.
public struct StoredPersonKey: Sendable, Hashable {
    /// Increasing in the order the household's keys were stored.
    public var serial: Int64
    /// Whose key it is.
    public var personID: UUID
    /// The key; nil once the person was forgotten (P3): a device records them as forgotten
    /// before it folds frames holding their texts.
    public var key: SealedPersonKey?

    public init(serial: Int64, personID: UUID, key: SealedPersonKey?) {
        self.serial = serial
        self.personID = personID
        self.key = key
    }
}
