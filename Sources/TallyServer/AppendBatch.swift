import Foundation
import TallySyncWire
import PostgresNIO
import Synchronization

/// What ``HouseholdHistory/append(household:device:commands:execute:)`` hands to the engine's
/// `execute` closure, under the household's row lock: the head to build on and the commands
/// never executed before.
public struct AppendBatch: Sendable {
    /// The household appended to.
    public let householdID: UUID
    /// The device that pushed the commands.
    public let deviceID: UUID
    /// The end of the committed history, locked until the append commits or rolls back: the
    /// new frames start at `head.sequenceNumber + 1` and chain on from `head.chain`.
    public let head: HistoryHead
    /// The commands to execute, in the order pushed, each once: those with a stored outcome are
    /// left out (they are answered as stored).
    public let commands: [SubmittedCommand]
    let reader: TransactionFrameReader

    /// Reads committed frames inside the append's transaction: what other server processes
    /// appended since a cache of the caller's ends (Docs/Sync.md, "Validation state per
    /// household"). Valid only while `execute` runs.
    ///
    /// - Parameters:
    ///   - sequenceNumber: Frames that end after this sequence number are returned.
    ///   - limit: At most this many frames (and at most ``HistoryLimits/framesPerPullMax``).
    /// - Throws: ``HouseholdHistoryError/database(operation:detail:)``, also when called after
    ///   `execute` returned.
    public func committedFrames(after sequenceNumber: UInt64, limit: Int) async throws -> [HistoryFrame] {
        try await reader.frames(household: householdID, after: sequenceNumber, limit: limit)
    }
}

/// The append transaction's connection, lent to `execute` for reads while it runs and taken
/// back when it returns, so a batch kept beyond `execute` cannot query a connection that went
/// back to the pool.
final class TransactionFrameReader: Sendable {
    private let history: HouseholdHistory
    private let connection: Mutex<PostgresConnection?>

    init(history: HouseholdHistory, connection: PostgresConnection) {
        self.history = history
        self.connection = Mutex(connection)
    }

    func close() {
        connection.withLock { $0 = nil }
    }

    func frames(household: UUID, after sequenceNumber: UInt64, limit: Int) async throws -> [HistoryFrame] {
        guard let connection = connection.withLock({ $0 }) else {
            throw HouseholdHistoryError.database(
                operation: "read committed frames", detail: "the append's transaction is over; read inside execute")
        }
        do {
            return try await history.readPage(household: household, after: sequenceNumber, limit: limit, connection: connection).frames
        } catch {
            throw HouseholdHistory.historyError(error, operation: "read committed frames of household \(household)")
        }
    }
}
