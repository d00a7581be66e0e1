import Foundation
import TallySyncWire
import PostgresNIO

extension HouseholdHistory {
    /// Appends a device's pushed commands to a household's history, in one PostgreSQL
    /// transaction (Docs/Sync.md, "Appends are serialised by the database"):
    ///
    /// 1. locks the household's row (`SELECT ... FOR UPDATE`): an append for the same household
    ///    in any server process waits until this one commits or rolls back;
    /// 2. reads the stored outcomes of the given command ids;
    /// 3. hands the commands without one (in the given order, each id once) with the head to
    ///    `execute`, which returns the new frames and one outcome per command;
    /// 4. checks that the frames continue the head and the outcomes lie in them, writes frames,
    ///    outcomes and the new head, and commits.
    ///
    /// A retried command is answered with its stored outcome and never reaches `execute` again.
    /// When `execute` throws, or a check fails, nothing is written. When every command has a
    /// stored outcome, `execute` is not called.
    ///
    /// - Parameters:
    ///   - household: The household appended to.
    ///   - device: The pushing device; it must be the household's and not revoked.
    ///   - commands: The pushed commands, in order (at most ``HistoryLimits/commandsPerAppendMax``).
    ///   - execute: The engine: executes the batch's commands on the head and returns what they
    ///     produced. It runs inside the transaction, holding the row lock: keep it short.
    /// - Returns: The outcome of every given command, in the given order (a duplicate id gets
    ///   the same outcome each time).
    /// - Throws: What `execute` throws, as it threw it; ``HouseholdHistoryError`` for an
    ///   unknown household, a device not allowed, frames that do not continue the head, outcomes
    ///   that do not match the commands or frames, a limit, or a database failure.
    public func append(
        household: UUID,
        device: UUID,
        commands: [SubmittedCommand],
        execute: (AppendBatch) async throws -> ExecutedBatch
    ) async throws -> [CommandOutcome] {
        guard commands.count <= limits.commandsPerAppendMax else {
            throw HouseholdHistoryError.limitExceeded(what: "commands in one append", count: commands.count, limit: limits.commandsPerAppendMax)
        }
        return try await transaction("append to household \(household)") { connection in
            let head = try await self.lockHead(household: household, device: device, connection: connection)
            var outcomes = try await self.storedOutcomes(household: household, commands: commands, connection: connection)
            var seen = Set<UUID>()
            let newCommands = commands.filter { outcomes[$0.commandID] == nil && seen.insert($0.commandID).inserted }
            if !newCommands.isEmpty {
                let reader = TransactionFrameReader(history: self, connection: connection)
                let batch = AppendBatch(householdID: household, deviceID: device, head: head, commands: newCommands, reader: reader)
                let executed: ExecutedBatch
                do {
                    defer { reader.close() }
                    executed = try await execute(batch)
                } catch {
                    throw ExecuteFailure(underlying: error)
                }
                let newHead = try self.checkExecuted(executed, commands: newCommands, head: head, household: household)
                try await self.write(executed, commands: newCommands, household: household, device: device, newHead: newHead, connection: connection)
                for (command, outcome) in zip(newCommands, executed.outcomes) {
                    outcomes[command.commandID] = outcome
                }
            }
            return try commands.map { command -> CommandOutcome in
                guard let outcome = outcomes[command.commandID] else {
                    throw HouseholdHistoryError.storedHistoryInvalid(household: household, reason: "no outcome for command \(command.commandID)")
                }
                return outcome
            }
        }
    }

    private func storedOutcomes(household: UUID, commands: [SubmittedCommand], connection: PostgresConnection) async throws -> [UUID: CommandOutcome] {
        let statement = HistoryStatements.StoredOutcomes(household: household, commands: commands.map(\.commandID))
        var outcomes: [UUID: CommandOutcome] = [:]
        for (commandID, json) in try await connection.rows(of: statement, logger: logger) {
            guard let stored = try? JSONDecoder().decode(StoredOutcome.self, from: Data(json.utf8)), let outcome = stored.outcome else {
                throw HouseholdHistoryError.storedHistoryInvalid(household: household, reason: "the outcome of command \(commandID) does not decode: \(json)")
            }
            outcomes[commandID] = outcome
        }
        return outcomes
    }

    private func write(
        _ executed: ExecutedBatch, commands: [SubmittedCommand], household: UUID, device: UUID,
        newHead: HistoryHead, connection: PostgresConnection
    ) async throws {
        if !executed.frames.isEmpty {
            _ = try await connection.rows(
                of: HistoryStatements.InsertFrames(
                    household: household,
                    firsts: try executed.frames.map { try bigint($0.firstSequenceNumber) },
                    lasts: try executed.frames.map { try bigint($0.lastSequenceNumber) },
                    records: executed.frames.map { ByteBuffer(bytes: $0.records) },
                    chains: executed.frames.map { ByteBuffer(bytes: $0.chain) }),
                logger: logger)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let outcomesJSON = try executed.outcomes.map { outcome in
            String(decoding: try encoder.encode(StoredOutcome(outcome)), as: UTF8.self)
        }
        _ = try await connection.rows(
            of: HistoryStatements.InsertOutcomes(household: household, device: device, commands: commands.map(\.commandID), outcomes: outcomesJSON),
            logger: logger)
        try await withdrawAccess(executed, household: household, connection: connection)
        if !executed.frames.isEmpty {
            _ = try await connection.rows(
                of: HistoryStatements.UpdateHead(
                    household: household, lastSequence: try bigint(newHead.sequenceNumber), lastChain: ByteBuffer(bytes: newHead.chain)),
                logger: logger)
        }
    }

    /// What forgetting, removing a member and cancelling an invitation take away on the server
    /// (``ExecutedBatch/forgottenPeople``, ``ExecutedBatch/removedMembers``,
    /// ``ExecutedBatch/cancelledInvitations``).
    private func withdrawAccess(_ executed: ExecutedBatch, household: UUID, connection: PostgresConnection) async throws {
        let forgotten = executed.forgottenPeople
        if !forgotten.isEmpty {
            try await connection.query(
                """
                INSERT INTO person_keys (household_id, person_id, sealed, fingerprint)
                SELECT \(household), person_id, NULL, NULL FROM unnest(\(forgotten)::uuid[]) AS forgotten(person_id)
                ON CONFLICT (household_id, person_id) DO UPDATE SET sealed = NULL, fingerprint = NULL
                """, logger: logger)
        }
        let people = forgotten + executed.removedMembers
        if !people.isEmpty {
            try await connection.query(
                "UPDATE devices SET revoked = true WHERE household_id = \(household) AND person_id = ANY(\(people))", logger: logger)
            try await connection.query(
                "DELETE FROM device_invitations WHERE household_id = \(household) AND accepted_by IS NULL AND person_id = ANY(\(people))",
                logger: logger)
        }
        let accepted = executed.acceptedInvitations
        if !accepted.isEmpty {
            try await updateDevicesJoined(with: accepted, household: household, set: .memberDevice, connection: connection)
        }
        let cancelled = executed.cancelledInvitations
        if !cancelled.isEmpty {
            // A device that joined with a code of the cancelled invitation never became a member.
            try await updateDevicesJoined(with: cancelled, household: household, set: .revoked, connection: connection)
            try await connection.query(
                "DELETE FROM device_invitations WHERE household_id = \(household) AND accepted_by IS NULL AND invitation_id = ANY(\(cancelled))",
                logger: logger)
        }
    }

    /// What becomes of the devices that joined with a code of some household invitations.
    private enum JoinedDeviceChange: String {
        /// The invitation was accepted: a member's device, not stopped at the expiry.
        case memberDevice = "invitee_until_ms = NULL"
        /// The invitation was cancelled: the invitee never became a member.
        case revoked = "revoked = true"
    }

    private func updateDevicesJoined(
        with invitations: [UUID], household: UUID, set change: JoinedDeviceChange, connection: PostgresConnection
    ) async throws {
        try await connection.query(
            """
            UPDATE devices SET \(unescaped: change.rawValue) WHERE household_id = \(household) AND device_id IN (
                SELECT accepted_by FROM device_invitations
                WHERE household_id = \(household) AND invitation_id = ANY(\(invitations)) AND accepted_by IS NOT NULL)
            """, logger: logger)
    }
}
