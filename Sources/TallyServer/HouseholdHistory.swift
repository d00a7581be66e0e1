import Foundation
import TallySyncWire
import PostgresNIO

/// A server's store of households' histories in PostgreSQL (Docs/Sync.md, "Built: the server's
/// history"): opaque frames of records, the outcome of every pushed command, and the devices
/// allowed to push, with only a hash of their tokens.
///
/// The storage knows nothing of the engine: ``append(household:device:commands:execute:)``
/// hands the commands not executed before to a closure (the engine) and stores what it returns,
/// in one transaction under the household's row lock, so that two server processes never
/// append to one household at once and a retried command is answered, never executed again.
///
/// The caller owns the `PostgresClient` and runs it (`client.run()` in a task) for as long as
/// the history is used; several `HouseholdHistory` values, in one process or many, may share a
/// database.
public final class HouseholdHistory: Sendable {
    /// The client every query goes through.
    public let client: PostgresClient
    /// The bounds kept on what is stored and returned.
    public let limits: HistoryLimits
    let logger: Logger

    /// Creates a history over a PostgreSQL client.
    ///
    /// - Parameters:
    ///   - client: A client the caller runs (`client.run()`) while the history is used.
    ///   - limits: The bounds kept on appends and pulls.
    ///   - logger: Where queries and transactions log.
    public init(client: PostgresClient, limits: HistoryLimits = HistoryLimits(), logger: Logger = Logger(label: "tally.server.history")) {
        self.client = client
        self.limits = limits
        self.logger = logger
    }

    /// Creates the tables when the database has none, brings an older version's up to this
    /// build's (``HistorySchema/steps``), and refuses a newer one. Safe to call from several processes at once (an advisory lock
    /// serialises them) and on every start.
    ///
    /// - Throws: ``HouseholdHistoryError/schemaTooNew(found:supported:)`` when a newer build
    ///   created the tables; ``HouseholdHistoryError/database(operation:detail:)``.
    public func migrate() async throws {
        try await transaction("migrate the schema") { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(HistorySchema.migrationLockKey))", logger: self.logger)
            try await connection.query(PostgresQuery(unsafeSQL: HistorySchema.createVersionTable), logger: self.logger)
            var found: Int?
            for try await version in try await connection.query("SELECT version FROM tally_schema", logger: self.logger).decode(Int32.self) {
                found = Int(version)
            }
            if let found, found > HistorySchema.version {
                throw HouseholdHistoryError.schemaTooNew(found: found, supported: HistorySchema.version)
            }
            for version in stride(from: (found ?? 0) + 1, through: HistorySchema.version, by: 1) {
                for statement in HistorySchema.steps[version] ?? [] {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: self.logger)
                }
            }
        }
    }

    /// Creates a household with an empty history: sequence number 0 and the genesis chain.
    ///
    /// - Parameters:
    ///   - id: The new household's id.
    ///   - genesisChain: The chain value before the first record (the engine's genesis value).
    /// - Throws: ``HouseholdHistoryError/householdExists(_:)`` when the id is taken;
    ///   ``HouseholdHistoryError/malformedFrame(household:firstSequenceNumber:reason:)`` for an
    ///   empty or too long chain; ``HouseholdHistoryError/database(operation:detail:)``.
    public func createHousehold(_ id: UUID, genesisChain: [UInt8]) async throws {
        try checkChain(genesisChain, household: id, firstSequenceNumber: 0)
        let created = try await transaction("create household \(id)") { connection in
            let rows = try await connection.query(
                """
                INSERT INTO households (household_id, last_sequence, last_chain)
                VALUES (\(id), 0, \(ByteBuffer(bytes: genesisChain)))
                ON CONFLICT (household_id) DO NOTHING RETURNING household_id
                """, logger: self.logger)
            var inserted = false
            for try await _ in rows.decode(UUID.self) { inserted = true }
            return inserted
        }
        guard created else { throw HouseholdHistoryError.householdExists(id) }
    }

    /// The end of a household's committed history.
    ///
    /// - Throws: ``HouseholdHistoryError/unknownHousehold(_:)``;
    ///   ``HouseholdHistoryError/database(operation:detail:)``.
    public func head(household: UUID) async throws -> HistoryHead {
        try await read("read the head of household \(household)") { connection in
            try await self.readHead(household: household, connection: connection)
        }
    }

    /// The household's head.
    func readHead(household: UUID, connection: PostgresConnection) async throws -> HistoryHead {
        let rows = try await connection.query(
            "SELECT last_sequence, last_chain FROM households WHERE household_id = \(household)", logger: logger)
        var head: HistoryHead?
        for try await (lastSequence, lastChain) in rows.decode((Int64, ByteBuffer).self) {
            head = try storedHead(lastSequence, lastChain, household: household)
        }
        guard let head else { throw HouseholdHistoryError.unknownHousehold(household) }
        return head
    }

    /// The household's head, locked until the transaction ends (its row lock: Docs/Sync.md,
    /// "Appends are serialised by the database"), then whether `device` (when given) is the
    /// household's and not revoked, read after the lock so a revocation committed while this
    /// transaction waited for it is seen.
    /// - Throws: ``HouseholdHistoryError/unknownHousehold(_:)``,
    ///   ``HouseholdHistoryError/unknownDevice(_:)``,
    ///   ``HouseholdHistoryError/deviceNotAllowed(device:household:)``.
    func lockHead(household: UUID, device: UUID?, connection: PostgresConnection) async throws -> HistoryHead {
        guard let (lastSequence, lastChain) = try await connection.rows(of: HistoryStatements.LockHead(household: household), logger: logger).last else {
            throw HouseholdHistoryError.unknownHousehold(household)
        }
        let head = try storedHead(lastSequence, lastChain, household: household)
        if let device {
            guard let (deviceHousehold, revoked) = try await connection.rows(of: HistoryStatements.DeviceAccess(device: device), logger: logger).last else {
                throw HouseholdHistoryError.unknownDevice(device)
            }
            guard deviceHousehold == household, !revoked else {
                throw HouseholdHistoryError.deviceNotAllowed(device: device, household: household)
            }
        }
        return head
    }

    private func storedHead(_ lastSequence: Int64, _ lastChain: ByteBuffer, household: UUID) throws -> HistoryHead {
        HistoryHead(sequenceNumber: try storedSequenceNumber(lastSequence, household: household), chain: Array(lastChain.readableBytesView))
    }

    func checkChain(_ chain: [UInt8], household: UUID, firstSequenceNumber: UInt64) throws {
        guard !chain.isEmpty, chain.count <= limits.chainBytesMax else {
            throw HouseholdHistoryError.malformedFrame(
                household: household, firstSequenceNumber: firstSequenceNumber,
                reason: "its chain has \(chain.count) bytes; a chain has 1 to \(limits.chainBytesMax)")
        }
    }
}
