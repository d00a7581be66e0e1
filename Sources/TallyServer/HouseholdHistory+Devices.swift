import Foundation
import TallySyncWire
import PostgresNIO

extension HouseholdHistory {
    /// Registers a new device of a household, acting for one person, and makes its token.
    ///
    /// The token is 32 random bytes as base64url; only their SHA-256 is stored, so the token
    /// is returned once and cannot be read back: hand it to the device now.
    ///
    /// - Parameters:
    ///   - household: The household the device joins.
    ///   - person: The person it acts for.
    /// - Returns: The device and its bearer token.
    /// - Throws: ``HouseholdHistoryError/unknownHousehold(_:)``;
    ///   ``HouseholdHistoryError/database(operation:detail:)``.
    public func registerDevice(household: UUID, person: UUID) async throws -> (device: Device, token: String) {
        let deviceID = UUID()
        let token = DeviceToken.generate()
        let tokenHash = ByteBuffer(bytes: DeviceToken.sha256(token))
        let registered = try await transaction("register a device of household \(household)") { connection in
            try await self.insertDevice(deviceID, household: household, person: person, tokenHash: tokenHash, connection: connection)
        }
        guard registered else { throw HouseholdHistoryError.unknownHousehold(household) }
        return (Device(deviceID: deviceID, householdID: household, personID: person), DeviceToken.text(token))
    }

    /// Inserts a device of `household` (when it exists) acting for `person`, with its token's hash;
    /// an invitee's device (`inviteeUntil`, milliseconds since 1970) until its invitation is accepted.
    /// - Returns: whether the household exists (the device was inserted).
    func insertDevice(
        _ deviceID: UUID, household: UUID, person: UUID, tokenHash: ByteBuffer, inviteeUntil: Int64? = nil, connection: PostgresConnection
    ) async throws -> Bool {
        let rows = try await connection.query(
            """
            INSERT INTO devices (device_id, household_id, person_id, token_sha256, revoked, invitee_until_ms)
            SELECT \(deviceID), household_id, \(person), \(tokenHash), false, \(inviteeUntil) FROM households WHERE household_id = \(household)
            RETURNING device_id
            """, logger: logger)
        var inserted = false
        for try await _ in rows.decode(UUID.self) { inserted = true }
        return inserted
    }

    /// The device a bearer token belongs to.
    ///
    /// - Parameters:
    ///   - token: The token as ``registerDevice(household:person:)`` returned it.
    ///   - nowMilliseconds: The server's clock: an invitee's device whose invitation was not
    ///     accepted stops at the invitation's expiry.
    /// - Returns: The device, or nil when the token is malformed, unknown, its device was
    ///   revoked, or it is an invitee's device past its invitation's expiry.
    /// - Throws: ``HouseholdHistoryError/database(operation:detail:)``.
    public func authenticate(token: String, nowMilliseconds: Int64) async throws -> Device? {
        guard let bytes = DeviceToken.bytes(token) else { return nil }
        let tokenHash = ByteBuffer(bytes: DeviceToken.sha256(bytes))
        return try await read("authenticate a device") { connection in
            let statement = HistoryStatements.Authenticate(tokenHash: tokenHash, nowMilliseconds: nowMilliseconds)
            return try await connection.rows(of: statement, logger: self.logger).last.map { deviceID, householdID, personID in
                Device(deviceID: deviceID, householdID: householdID, personID: personID)
            }
        }
    }

    /// Revokes a device: its token stops authenticating and its appends are refused at once.
    /// Its stored command outcomes stay. Revoking a revoked device does nothing.
    ///
    /// - Throws: ``HouseholdHistoryError/unknownDevice(_:)``;
    ///   ``HouseholdHistoryError/database(operation:detail:)``.
    public func revokeDevice(_ device: UUID) async throws {
        let found = try await transaction("revoke device \(device)") { connection in
            let rows = try await connection.query(
                "UPDATE devices SET revoked = true WHERE device_id = \(device) RETURNING device_id", logger: self.logger)
            var updated = false
            for try await _ in rows.decode(UUID.self) { updated = true }
            return updated
        }
        guard found else { throw HouseholdHistoryError.unknownDevice(device) }
    }
}
