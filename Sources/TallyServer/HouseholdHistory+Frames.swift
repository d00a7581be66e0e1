import Foundation
import PostgresNIO

extension HouseholdHistory {
    /// The committed frames that end after a sequence number, in order: what a device pulls
    /// after the last sequence number it has confirmed.
    ///
    /// - Parameters:
    ///   - household: The household.
    ///   - sequenceNumber: The device's cursor (0 for the whole history). A cursor inside a
    ///     frame returns that frame whole.
    ///   - limit: At most this many frames (and at most ``HistoryLimits/framesPerPullMax``,
    ///     and no more once ``HistoryLimits/pullBytesMax`` bytes of records came before: at
    ///     least one); pull again after the last one's sequence number for more.
    /// - Returns: The frames, empty when the cursor is at the head.
    /// - Throws: ``HouseholdHistoryError/unknownHousehold(_:)``;
    ///   ``HouseholdHistoryError/database(operation:detail:)``.
    public func frames(household: UUID, after sequenceNumber: UInt64, limit: Int) async throws -> [HistoryFrame] {
        try await transaction("read the frames of household \(household)") { connection in
            let frames = try await self.readFrames(household: household, after: sequenceNumber, limit: limit, connection: connection)
            if frames.isEmpty {
                // Tells an unknown household from a cursor at the head.
                _ = try await self.readHead(household: household, connection: connection, forUpdate: false)
            }
            return frames
        }
    }

    func readFrames(household: UUID, after sequenceNumber: UInt64, limit: Int, connection: PostgresConnection) async throws -> [HistoryFrame] {
        let after = try bigint(sequenceNumber)
        let count = Int64(max(0, min(limit, limits.framesPerPullMax)))
        let budget = Int64(limits.pullBytesMax)
        // The frames in order while the records before each are under the byte budget: the
        // first always, however large (a frame is at most frameRecordsBytesMax).
        let rows = try await connection.query(
            """
            SELECT first_sequence, last_sequence, records, chain FROM (
                SELECT first_sequence, last_sequence, records, chain,
                       sum(octet_length(records)) OVER (ORDER BY last_sequence) - octet_length(records) AS bytes_before
                FROM frames WHERE household_id = \(household) AND last_sequence > \(after)
                ORDER BY last_sequence LIMIT \(count)
            ) page WHERE bytes_before < \(budget) ORDER BY last_sequence
            """, logger: logger)
        var frames: [HistoryFrame] = []
        for try await (first, last, records, chain) in rows.decode((Int64, Int64, ByteBuffer, ByteBuffer).self) {
            frames.append(
                HistoryFrame(
                    firstSequenceNumber: try storedSequenceNumber(first, household: household),
                    lastSequenceNumber: try storedSequenceNumber(last, household: household),
                    records: Array(records.readableBytesView),
                    chain: Array(chain.readableBytesView)))
        }
        return frames
    }

    /// The chain value after the frame that ends at `sequenceNumber`: what a device whose cursor
    /// is there must hold (Docs/Sync.md). Nil when no frame ends there (a cursor inside a frame,
    /// or past the head).
    /// - Throws: ``HouseholdHistoryError/database(operation:detail:)``.
    public func chain(household: UUID, endingAt sequenceNumber: UInt64) async throws -> [UInt8]? {
        let last = try bigint(sequenceNumber)
        return try await transaction("read a chain value of household \(household)") { connection in
            let rows = try await connection.query(
                "SELECT chain FROM frames WHERE household_id = \(household) AND last_sequence = \(last)", logger: self.logger)
            var chain: [UInt8]?
            for try await value in rows.decode(ByteBuffer.self) { chain = Array(value.readableBytesView) }
            return chain
        }
    }
}
