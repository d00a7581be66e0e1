import Foundation
import PostgresNIO

/// An append that moved a household's head, as every server process on the database hears it
/// (``HouseholdHistory/listenForCommits(listening:heard:)``).
public struct HistoryCommit: Sendable, Hashable {
    /// The household appended to.
    public var household: UUID
    /// The sequence number of its last committed record after the append.
    public var head: UInt64

    /// The commit a notification's payload names ("<household id> <head>", as the schema's
    /// trigger writes it); nil for any other payload.
    init?(payload: String) {
        let parts = payload.split(separator: " ")
        guard parts.count == 2, let household = UUID(uuidString: String(parts[0])), let head = UInt64(parts[1]) else { return nil }
        self.household = household
        self.head = head
    }
}

extension HouseholdHistory {
    /// Hears every append any server process commits to this database, from when `listening`
    /// is called until the task is cancelled or the connection fails (PostgreSQL's LISTEN on
    /// the channel a trigger of the households table notifies at each commit that moves a
    /// head: ``HistorySchema/commitChannel``). Holds one connection of the pool while it runs.
    /// A commit made while no one listened is not heard: read the history after `listening`.
    /// - Throws: ``HouseholdHistoryError/database(operation:detail:)`` when the connection fails.
    public func listenForCommits(
        listening: @Sendable () async -> Void, heard: @Sendable (HistoryCommit) async -> Void
    ) async throws {
        do {
            try await client.withConnection { connection in
                try await connection.listen(on: HistorySchema.commitChannel) { notifications in
                    await listening()
                    for try await notification in notifications {
                        guard let commit = HistoryCommit(payload: notification.payload) else { continue }
                        await heard(commit)
                    }
                }
            }
        } catch {
            throw Self.historyError(error, operation: "listen for commits")
        }
    }
}
