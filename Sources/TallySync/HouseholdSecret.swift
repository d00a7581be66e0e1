import Foundation
import Tally
import TallyJournal
import TallyModel
import TallySyncWire

/// The secret a household's devices share and its server never holds (Docs/Sync.md, "Keys
/// between devices"): 32 random bytes, made by the household's first device, handed to a new
/// device inside its invitation (``SyncInvitation``). The people's text keys travel between
/// devices sealed under it, through the server, which stores them without reading them.
public struct HouseholdSecret: Sendable, Hashable {
    let bytes: [UInt8]

    /// A new random secret (the system's cryptographic generator).
    public init() { bytes = AESGCMBox.randomKey() }

    init?(bytes: [UInt8]) {
        guard bytes.count == AESGCMBox.keyBytes else { return nil }
        self.bytes = bytes
    }

    /// `key`, the text key of `person`, sealed for the household's other devices, with its
    /// fingerprint (which tells two keys of one person apart without them).
    func seal(_ key: [UInt8], of person: PersonID) -> SealedPersonKey? {
        guard let sealed = AESGCMBox.seal(key, key: bytes, context: Self.context(person)) else { return nil }
        return SealedPersonKey(personID: person.uuid, sealed: sealed, fingerprint: PersonalKeyRing.fingerprint(of: key, for: person))
    }

    /// The text key a device of the household sealed, checked against its fingerprint.
    /// - Throws: ``SyncError/householdSecretMismatch(_:)`` when it does not open (another
    ///   household's secret, or tampered with) or its fingerprint is not the key's.
    func open(_ sealed: SealedPersonKey) throws(SyncError) -> [UInt8] {
        let person = PersonID(sealed.personID)
        guard let key = AESGCMBox.open(sealed.sealed[...], key: bytes, context: Self.context(person)),
              key.count == AESGCMBox.keyBytes, PersonalKeyRing.fingerprint(of: key, for: person) == sealed.fingerprint
        else {
            throw .householdSecretMismatch("the key of \(person) the server holds does not open with this device's household secret: the device was set up for another household, or the key was altered")
        }
        return key
    }

    /// What the server keeps to tell this secret from another without learning it: an HMAC
    /// (SHA-256) of a fixed label under the secret. The first device that shares keys sets it;
    /// a device with another secret is refused (`householdSecretMismatch`).
    var verifier: [UInt8] {
        let label = Array("tally household secret verifier".utf8)
        return label.withUnsafeBytes { HashChain(key: bytes).next(after: .genesis, header: $0, payload: $0).bytes }
    }

    /// The person's id is authenticated with the key, so a sealed key cannot be moved to another person.
    private static func context(_ person: PersonID) -> [UInt8] {
        Array("tally shared personal key".utf8) + person.value.bytes
    }
}

/// What a new device needs to join a household (Docs/Sync.md, "Joining a household"): the
/// server's one-use code, and the household's secret, which never goes to the server. Hand its
/// ``text`` to the new device over a channel the server does not see (a QR code, a message).
public struct SyncInvitation: Sendable, Hashable {
    /// The server's code (base64url), which the new device sends to join.
    public var code: String
    /// The household's secret.
    public var householdSecret: HouseholdSecret

    public init(code: String, householdSecret: HouseholdSecret) {
        self.code = code
        self.householdSecret = householdSecret
    }

    static let prefix = "tally-invitation-1:"

    /// `tally-invitation-1:<code>:<secret>`, both base64url.
    public var text: String { Self.prefix + code + ":" + Base64URL.text(householdSecret.bytes) }

    /// Reads ``text``.
    /// - Throws: ``SyncError/invitationInvalid(_:)``.
    public init(text: String) throws(SyncError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix(Self.prefix) else {
            throw .invitationInvalid("an invitation starts with \(Self.prefix); this text does not (ask for a new invitation)")
        }
        let parts = trimmed.dropFirst(Self.prefix.count).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].utf8.count <= 64,
              let secretBytes = Base64URL.bytes(String(parts[1])), let secret = HouseholdSecret(bytes: secretBytes)
        else {
            throw .invitationInvalid("an invitation is \(Self.prefix)<code>:<secret>, the secret 32 bytes of base64url; this text is cut or altered")
        }
        self.init(code: String(parts[0]), householdSecret: secret)
    }
}
