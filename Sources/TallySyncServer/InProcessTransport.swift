import Foundation
import TallyServer
import TallySync
import TallySyncWire

extension SyncServer {
    /// A transport to this server for `device`, in this process.
    public nonisolated func transport(for device: Device) -> some SyncTransport {
        InProcessTransport(server: self, device: device)
    }
}

struct InProcessTransport: SyncTransport {
    let server: SyncServer
    let device: Device

    func push(_ commands: [SubmittedCommand]) async throws -> [CommandOutcome] {
        try await server.push(commands, from: device)
    }

    func pull(after sequenceNumber: UInt64, chain: [UInt8], limit: Int, waitMilliseconds: Int, keysAfter keySerial: Int64) async throws -> PulledPage {
        try await server.pull(household: device.householdID, after: sequenceNumber, chain: chain, limit: limit, waitMilliseconds: waitMilliseconds, keysAfter: keySerial)
    }

    func shareKeys(_ keys: [SealedPersonKey], secretVerifier: [UInt8]) async throws -> [UUID] {
        do {
            return try await server.shareKeys(keys, secretVerifier: secretVerifier, from: device)
        } catch HouseholdHistoryError.householdSecretMismatch(let household) {
            throw SyncError.householdSecretMismatch("household \(household) shares its keys under another secret than this device's")
        }
    }

    func keys(after serial: Int64) async throws -> [StoredPersonKey] {
        try await server.keys(household: device.householdID, after: serial)
    }

    func invite(for person: UUID?) async throws -> (invitation: DeviceInvitation, code: String) {
        try await server.invite(for: person, from: device)
    }
}
