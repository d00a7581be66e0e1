import Foundation
import TallySyncWire

/// How a device reaches its household's server (Docs/Sync.md): push commands, pull frames.
/// `tally serve`'s HTTP endpoints are one transport; `SyncServer.transport(for:)` (TallySyncServer) calls a
/// server in the same process (tests, the simulation).
/// One page of a pull: frames, and with them the keys stored since the device's last.
public struct PulledPage: Sendable, Hashable {
    /// The frames after the device's cursor, in order.
    public var frames: [HistoryFrame]
    /// With frames: the household's keys stored after the serial the device gave, in order
    /// (tombstones for forgotten people); empty without frames.
    public var keys: [StoredPersonKey]
    /// Whether more keys are stored after the last of ``keys`` (read them with
    /// ``SyncTransport/keys(after:)``).
    public var moreKeys: Bool
    /// The sequence number of the household's last committed record when the page was read
    /// (nil from a server that does not say): a device whose frames reach it has nothing more
    /// to pull.
    public var head: UInt64?

    public init(frames: [HistoryFrame], keys: [StoredPersonKey] = [], moreKeys: Bool = false, head: UInt64? = nil) {
        self.frames = frames
        self.keys = keys
        self.moreKeys = moreKeys
        self.head = head
    }
}

public protocol SyncTransport: Sendable {
    /// Pushes commands (each a ``PushedCommand`` body) and returns one outcome per command.
    func push(_ commands: [SubmittedCommand]) async throws -> [CommandOutcome]
    /// The household's frames that end after `sequenceNumber`, where the device's record chain
    /// is `chain` (the server refuses a cursor that is not on its history), at most `limit`;
    /// when there are none, waits up to `waitMilliseconds` for some (long poll; 0 answers at once).
    /// With frames, the household's keys stored after `keySerial` (read after the frames, so
    /// they hold every key the frames' texts need; Docs/Sync.md, "Keys between devices").
    func pull(after sequenceNumber: UInt64, chain: [UInt8], limit: Int, waitMilliseconds: Int, keysAfter keySerial: Int64) async throws -> PulledPage
    /// Shares text keys with the household (each sealed under its secret; Docs/Sync.md, "Keys
    /// between devices") with the secret's verifier (``HouseholdSecret``); returns the people
    /// for whom the server holds another key.
    func shareKeys(_ keys: [SealedPersonKey], secretVerifier: [UInt8]) async throws -> [UUID]
    /// The household's keys stored after `serial`, at most ``SyncBounds/keysPerPageMax``.
    func keys(after serial: Int64) async throws -> [StoredPersonKey]
    /// An invitation code for a new device acting for `person` (nil: this device's person;
    /// Docs/Sync.md, "Joining a household").
    func invite(for person: UUID?) async throws -> (invitation: DeviceInvitation, code: String)
}

/// The transport of a device that reaches no server (`tally sync --offline`, an app before its
/// household's server is set up): every push and pull throws ``SyncError/transport(_:)``, so
/// commands stay in the outbox (``SyncDevice/submit(_:)``) until a real transport pushes them.
public struct SyncOfflineTransport: SyncTransport {
    public init() {}

    public func push(_ commands: [SubmittedCommand]) async throws -> [CommandOutcome] {
        throw SyncError.transport("offline: no server to push to")
    }

    public func pull(after sequenceNumber: UInt64, chain: [UInt8], limit: Int, waitMilliseconds: Int, keysAfter keySerial: Int64) async throws -> PulledPage {
        throw SyncError.transport("offline: no server to pull from")
    }

    public func shareKeys(_ keys: [SealedPersonKey], secretVerifier: [UInt8]) async throws -> [UUID] {
        throw SyncError.transport("offline: no server to share keys with")
    }

    public func keys(after serial: Int64) async throws -> [StoredPersonKey] {
        throw SyncError.transport("offline: no server to read keys from")
    }

    public func invite(for person: UUID?) async throws -> (invitation: DeviceInvitation, code: String) {
        throw SyncError.transport("offline: no server to make an invitation")
    }
}
