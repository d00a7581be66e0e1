import Foundation
import TallySyncWire
import PostgresNIO

/// One page of a household's history as a pull reads it, in one statement (one snapshot).
public struct HistoryPage: Sendable, Hashable {
    /// The frames that end after the cursor, in order.
    public var frames: [HistoryFrame]
    /// The chain value after the frame that ends at the cursor: what a device whose cursor is
    /// there must hold. Nil when no frame ends there (cursor 0, inside a frame, or past the head).
    public var cursorChain: [UInt8]?
    /// The sequence number of the household's last committed record.
    public var head: UInt64
    /// The serial of the household's last stored key (0 for none): a device that read the keys
    /// up to it has nothing new to read.
    public var lastKeySerial: Int64
}

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
        try await page(household: household, after: sequenceNumber, limit: limit).frames
    }

    /// ``frames(household:after:limit:)`` with what a pull checks and answers beside them, read
    /// in one statement: the chain value at the cursor, the head, the last key serial.
    /// - Throws: ``HouseholdHistoryError/unknownHousehold(_:)``;
    ///   ``HouseholdHistoryError/database(operation:detail:)``.
    public func page(household: UUID, after sequenceNumber: UInt64, limit: Int) async throws -> HistoryPage {
        try await read("read the frames of household \(household)") { connection in
            try await self.readPage(household: household, after: sequenceNumber, limit: limit, connection: connection)
        }
    }

    func readPage(household: UUID, after sequenceNumber: UInt64, limit: Int, connection: PostgresConnection) async throws -> HistoryPage {
        let statement = HistoryStatements.Page(
            household: household, after: try bigint(sequenceNumber), count: Int64(max(0, min(limit, limits.framesPerPullMax))),
            budget: Int64(limits.pullBytesMax))
        var page: HistoryPage?
        for (head, cursorChain, keySerial, first, last, records, chain) in try await connection.rows(of: statement, logger: logger) {
            if page == nil {
                page = HistoryPage(
                    frames: [], cursorChain: cursorChain.map { Array($0.readableBytesView) },
                    head: try storedSequenceNumber(head, household: household), lastKeySerial: keySerial)
            }
            guard let first, let last, let records, let chain else { continue }
            page?.frames.append(
                HistoryFrame(
                    firstSequenceNumber: try storedSequenceNumber(first, household: household),
                    lastSequenceNumber: try storedSequenceNumber(last, household: household),
                    records: Array(records.readableBytesView),
                    chain: Array(chain.readableBytesView)))
        }
        guard let page else { throw HouseholdHistoryError.unknownHousehold(household) }
        return page
    }
}
