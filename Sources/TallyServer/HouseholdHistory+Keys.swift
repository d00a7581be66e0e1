import Foundation
import TallySyncWire
import PostgresNIO

extension HouseholdHistory {
    /// Stores the keys a device shares with its household, each the first one stored for its
    /// person (a key is never replaced: two keys of one person would split their texts, P2).
    /// Under the household's row lock, so keys are stored in the order of their serials (a
    /// device that read past a serial never misses a key committed later with a lower one).
    ///
    /// The first share of a household stores `secretVerifier` (what tells the household's secret
    /// from another without revealing it); a share with another one is refused, so every key of
    /// a household is sealed under one secret, even when two devices set up apart share at once.
    ///
    /// - Returns: The people whose stored key is another one (another fingerprint): the
    ///   device's texts sealed for them would not open elsewhere. A forgotten person's key is
    ///   not stored again, and is not a conflict.
    /// - Throws: ``HouseholdHistoryError/householdSecretMismatch(household:)``;
    ///   ``HouseholdHistoryError/unknownHousehold(_:)``,
    ///   ``HouseholdHistoryError/deviceNotAllowed(device:household:)``,
    ///   ``HouseholdHistoryError/limitExceeded(what:count:limit:)`` for more than
    ///   ``HistoryLimits/keysPerStoreMax`` keys or a key over ``HistoryLimits/sealedKeyBytesMax``
    ///   bytes; ``HouseholdHistoryError/database(operation:detail:)``.
    public func storeKeys(_ keys: [SealedPersonKey], secretVerifier: [UInt8], household: UUID, device: UUID) async throws -> [UUID] {
        guard !keys.isEmpty else { return [] }
        guard (1...limits.sealedKeyBytesMax).contains(secretVerifier.count) else {
            throw HouseholdHistoryError.limitExceeded(what: "bytes of a secret verifier", count: secretVerifier.count, limit: limits.sealedKeyBytesMax)
        }
        guard keys.count <= limits.keysPerStoreMax else {
            throw HouseholdHistoryError.limitExceeded(what: "keys in one store", count: keys.count, limit: limits.keysPerStoreMax)
        }
        if let large = keys.first(where: { $0.sealed.count > limits.sealedKeyBytesMax || $0.fingerprint.count > limits.sealedKeyBytesMax }) {
            throw HouseholdHistoryError.limitExceeded(
                what: "bytes of the sealed key of \(large.personID)", count: max(large.sealed.count, large.fingerprint.count), limit: limits.sealedKeyBytesMax)
        }
        let people = keys.map(\.personID)
        let sealed = keys.map { ByteBuffer(bytes: $0.sealed) }
        let fingerprints = keys.map { ByteBuffer(bytes: $0.fingerprint) }
        return try await transaction("store keys of household \(household)") { connection in
            _ = try await self.lockHead(household: household, device: device, connection: connection)
            // The verifier the household holds, set by this share when it holds none: the row is
            // written once, not by every share (the select reads the row as it was before the update).
            let verifiers = try await connection.query(
                """
                WITH first AS (
                    UPDATE households SET secret_verifier = \(ByteBuffer(bytes: secretVerifier))
                    WHERE household_id = \(household) AND secret_verifier IS NULL RETURNING secret_verifier)
                SELECT secret_verifier FROM first
                UNION ALL SELECT secret_verifier FROM households WHERE household_id = \(household) AND secret_verifier IS NOT NULL
                """, logger: self.logger)
            var storedVerifier: [UInt8]?
            for try await value in verifiers.decode(ByteBuffer.self) { storedVerifier = Array(value.readableBytesView) }
            guard storedVerifier == secretVerifier else { throw HouseholdHistoryError.householdSecretMismatch(household: household) }
            try await connection.query(
                """
                INSERT INTO person_keys (household_id, person_id, sealed, fingerprint)
                SELECT \(household), person_id, sealed, fingerprint
                FROM unnest(\(people)::uuid[], \(sealed)::bytea[], \(fingerprints)::bytea[]) WITH ORDINALITY AS shared(person_id, sealed, fingerprint, position)
                ORDER BY position
                ON CONFLICT (household_id, person_id) DO NOTHING
                """, logger: self.logger)
            let rows = try await connection.query(
                "SELECT person_id, fingerprint FROM person_keys WHERE household_id = \(household) AND person_id = ANY(\(people))",
                logger: self.logger)
            var stored: [UUID: [UInt8]] = [:]
            for try await (person, fingerprint) in rows.decode((UUID, ByteBuffer?).self) {
                if let fingerprint { stored[person] = Array(fingerprint.readableBytesView) }
            }
            return keys.compactMap { key in stored[key.personID].map { $0 == key.fingerprint } == false ? key.personID : nil }
        }
    }

    /// The household's keys stored after `serial`, in the order they were stored, at most
    /// `limit` (and ``HistoryLimits/keysPerStoreMax``); a forgotten person's as a tombstone
    /// (no key).
    ///
    /// - Throws: ``HouseholdHistoryError/storedHistoryInvalid(household:reason:)`` for a row no
    ///   server writes; ``HouseholdHistoryError/database(operation:detail:)``.
    public func keys(household: UUID, after serial: Int64, limit: Int) async throws -> [StoredPersonKey] {
        let limit = min(max(limit, 0), limits.keysPerStoreMax)
        return try await read("read the keys of household \(household)") { connection in
            let rows = try await connection.query(
                """
                SELECT serial, person_id, sealed, fingerprint FROM person_keys
                WHERE household_id = \(household) AND serial > \(serial)
                ORDER BY serial LIMIT \(limit)
                """, logger: self.logger)
            var keys: [StoredPersonKey] = []
            for try await (serial, person, sealed, fingerprint) in rows.decode((Int64, UUID, ByteBuffer?, ByteBuffer?).self) {
                let key = sealed.flatMap { sealed in
                    fingerprint.map { SealedPersonKey(personID: person, sealed: Array(sealed.readableBytesView), fingerprint: Array($0.readableBytesView)) }
                }
                keys.append(StoredPersonKey(serial: serial, personID: person, key: key))
            }
            return keys
        }
    }
}
