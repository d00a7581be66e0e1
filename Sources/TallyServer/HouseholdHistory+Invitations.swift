import Foundation
import TallySyncWire
import PostgresNIO

extension HouseholdHistory {
    /// Makes an invitation code for a new device of a household (Docs/Sync.md, "Joining a
    /// household"). Under the household's row lock, `decide` is handed the head (with its
    /// reader of committed frames, as an append's engine is) and says whom the code is for and
    /// until when, or throws: the engine checks the household's rules on its state at the head.
    ///
    /// The code is 32 random bytes as base64url, returned once; only its SHA-256 is stored.
    ///
    /// - Throws: What `decide` throws, as it threw it; ``HouseholdHistoryError/unknownHousehold(_:)``,
    ///   ``HouseholdHistoryError/deviceNotAllowed(device:household:)``,
    ///   ``HouseholdHistoryError/database(operation:detail:)``.
    public func createDeviceInvitation(
        household: UUID, device: UUID, decide: (AppendBatch) async throws -> DeviceInvitation
    ) async throws -> (invitation: DeviceInvitation, code: String) {
        let code = DeviceToken.generate()
        let codeHash = ByteBuffer(bytes: DeviceToken.sha256(code))
        let invitation = try await transaction("invite a device to household \(household)") { connection in
            let head = try await self.lockHead(household: household, device: device, connection: connection)
            let reader = TransactionFrameReader(history: self, connection: connection)
            let invitation: DeviceInvitation
            do {
                defer { reader.close() }
                invitation = try await decide(AppendBatch(householdID: household, deviceID: device, head: head, commands: [], reader: reader))
            } catch {
                throw ExecuteFailure(underlying: error)
            }
            try await connection.query(
                """
                INSERT INTO device_invitations (code_sha256, household_id, person_id, invitation_id, invited_by, expires_at_ms)
                VALUES (\(codeHash), \(household), \(invitation.personID), \(invitation.invitationID), \(device), \(invitation.expiresAtMilliseconds))
                """, logger: self.logger)
            return invitation
        }
        return (invitation, DeviceToken.text(code))
    }

    /// Accepts an invitation code: registers a new device of the code's household and person
    /// and uses the code up, in one transaction.
    ///
    /// - Parameter nowMilliseconds: The server's clock (milliseconds since 1970): a code is
    ///   refused from its expiry on.
    /// - Throws: ``HouseholdHistoryError/invitationRefused(reason:)`` for a code that is
    ///   malformed, unknown, used, expired, or withdrawn (its household invitation cancelled,
    ///   its person removed or forgotten); ``HouseholdHistoryError/database(operation:detail:)``.
    public func acceptDeviceInvitation(code: String, nowMilliseconds: Int64) async throws -> JoinedDevice {
        guard let bytes = DeviceToken.bytes(code) else {
            throw HouseholdHistoryError.invitationRefused(reason: "the code is not an invitation code (43 characters of base64url)")
        }
        let codeHash = ByteBuffer(bytes: DeviceToken.sha256(bytes))
        let deviceID = UUID()
        let token = DeviceToken.generate()
        let tokenHash = ByteBuffer(bytes: DeviceToken.sha256(token))
        return try await transaction("accept an invitation code") { connection in
            // The household's row lock first, as an append takes it: a join never runs beside an
            // append that withdraws its code or revokes its person's devices.
            var household: UUID?
            for try await found in try await connection.query(
                "SELECT household_id FROM device_invitations WHERE code_sha256 = \(codeHash)", logger: self.logger
            ).decode(UUID.self) { household = found }
            if let household { _ = try await self.lockHead(household: household, device: nil, connection: connection) }
            let rows = try await connection.query(
                """
                SELECT household_id, person_id, invitation_id, expires_at_ms, accepted_by IS NOT NULL
                FROM device_invitations WHERE code_sha256 = \(codeHash) FOR UPDATE
                """, logger: self.logger)
            var found: (UUID, UUID, UUID?, Int64, Bool)?
            for try await row in rows.decode((UUID, UUID, UUID?, Int64, Bool).self) { found = row }
            guard let (household, person, invitation, expiry, used) = found else {
                throw HouseholdHistoryError.invitationRefused(
                    reason: "no invitation has this code (it was never made, or it was withdrawn: its household invitation cancelled, its person removed or forgotten); ask for a new one")
            }
            guard !used else {
                throw HouseholdHistoryError.invitationRefused(reason: "this invitation code was used by another device already; ask for a new one")
            }
            guard nowMilliseconds < expiry else {
                throw HouseholdHistoryError.invitationRefused(reason: "this invitation code expired at \(expiry) ms since 1970; ask for a new one")
            }
            _ = try await self.insertDevice(
                deviceID, household: household, person: person, tokenHash: tokenHash, inviteeUntil: invitation == nil ? nil : expiry, connection: connection)
            try await connection.query(
                "UPDATE device_invitations SET accepted_by = \(deviceID) WHERE code_sha256 = \(codeHash)", logger: self.logger)
            return JoinedDevice(
                device: Device(deviceID: deviceID, householdID: household, personID: person), token: DeviceToken.text(token),
                invitationID: invitation)
        }
    }
}
