import Foundation
import PostgresNIO

/// The statements every push and pull runs, prepared once per connection (PostgreSQL parses
/// and plans each once, not at every request; Docs/Sync.md, "Built: the server's history").
/// The rest of the history's SQL runs rarely (migrations, devices, invitations, keys) and stays
/// inline where it is used.
enum HistoryStatements {
    /// The device a token's hash belongs to, unless revoked or an invitee's past its expiry.
    struct Authenticate: PostgresPreparedStatement {
        static let sql = """
            SELECT device_id, household_id, person_id FROM devices
            WHERE token_sha256 = $1 AND NOT revoked AND (invitee_until_ms IS NULL OR invitee_until_ms > $2)
            """
        typealias Row = (UUID, UUID, UUID)
        var tokenHash: ByteBuffer
        var nowMilliseconds: Int64

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(tokenHash)
            bindings.append(nowMilliseconds)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// A pull's page (``HouseholdHistory/page(household:after:limit:)``): the household's row
    /// (none: unknown) with its head, the chain at the cursor and the last key serial, joined
    /// with the frames after the cursor in order while the records before each are under the
    /// byte budget (the first always, however large: a frame is at most frameRecordsBytesMax).
    /// No frame: one row whose frame columns are null.
    struct Page: PostgresPreparedStatement {
        static let sql = """
            SELECT h.last_sequence, h.cursor_chain, h.key_serial,
                   page.first_sequence, page.last_sequence, page.records, page.chain
            FROM (
                SELECT household_id, last_sequence,
                       (SELECT chain FROM frames WHERE household_id = $1 AND last_sequence = $2) AS cursor_chain,
                       (SELECT coalesce(max(serial), 0) FROM person_keys WHERE household_id = $1) AS key_serial
                FROM households WHERE household_id = $1 OFFSET 0
            ) h LEFT JOIN LATERAL (
                SELECT first_sequence, last_sequence, records, chain FROM (
                    SELECT first_sequence, last_sequence, records, chain,
                           sum(octet_length(records)) OVER (ORDER BY last_sequence) - octet_length(records) AS bytes_before
                    FROM frames WHERE household_id = $1 AND last_sequence > $2
                    ORDER BY last_sequence LIMIT $3
                ) pending WHERE bytes_before < $4
            ) page ON true
            ORDER BY page.last_sequence
            """
        typealias Row = (Int64, ByteBuffer?, Int64, Int64?, Int64?, ByteBuffer?, ByteBuffer?)
        var household: UUID
        var after: Int64
        var count: Int64
        var budget: Int64

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 4)
            bindings.append(household)
            bindings.append(after)
            bindings.append(count)
            bindings.append(budget)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// The household's head under its row lock.
    struct LockHead: PostgresPreparedStatement {
        static let sql = "SELECT last_sequence, last_chain FROM households WHERE household_id = $1 FOR UPDATE"
        typealias Row = (Int64, ByteBuffer)
        var household: UUID

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(household)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// A device's household and whether it is revoked. Read after the household's row lock, in
    /// a statement of its own: a statement's snapshot is taken before it waits for a lock, so a
    /// join in the locking statement would read a revocation committed while it waited as not
    /// there.
    struct DeviceAccess: PostgresPreparedStatement {
        static let sql = "SELECT household_id, revoked FROM devices WHERE device_id = $1"
        typealias Row = (UUID, Bool)
        var device: UUID

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(device)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// The stored outcomes of some command ids of a household.
    struct StoredOutcomes: PostgresPreparedStatement {
        static let sql = "SELECT command_id, outcome::text FROM commands WHERE household_id = $1 AND command_id = ANY($2::uuid[])"
        typealias Row = (UUID, String)
        var household: UUID
        var commands: [UUID]

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(household)
            bindings.append(commands)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// An append's frames, in one statement.
    struct InsertFrames: PostgresPreparedStatement {
        static let sql = """
            INSERT INTO frames (household_id, first_sequence, last_sequence, records, chain)
            SELECT $1, first_sequence, last_sequence, records, chain
            FROM unnest($2::bigint[], $3::bigint[], $4::bytea[], $5::bytea[]) AS batch(first_sequence, last_sequence, records, chain)
            """
        typealias Row = Void
        var household: UUID
        var firsts: [Int64]
        var lasts: [Int64]
        var records: [ByteBuffer]
        var chains: [ByteBuffer]

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 5)
            bindings.append(household)
            bindings.append(firsts)
            bindings.append(lasts)
            bindings.append(records)
            bindings.append(chains)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {}
    }

    /// An append's outcomes, one per command id, in one statement.
    struct InsertOutcomes: PostgresPreparedStatement {
        static let sql = """
            INSERT INTO commands (household_id, command_id, device_id, outcome)
            SELECT $1, command_id, $2, outcome::jsonb
            FROM unnest($3::uuid[], $4::text[]) AS batch(command_id, outcome)
            """
        typealias Row = Void
        var household: UUID
        var device: UUID
        var commands: [UUID]
        var outcomes: [String]

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 4)
            bindings.append(household)
            bindings.append(device)
            bindings.append(commands)
            bindings.append(outcomes)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {}
    }

    /// An append's new head (its commit notifies the waiting pulls: schema version 5).
    struct UpdateHead: PostgresPreparedStatement {
        static let sql = "UPDATE households SET last_sequence = $2, last_chain = $3 WHERE household_id = $1"
        typealias Row = Void
        var household: UUID
        var lastSequence: Int64
        var lastChain: ByteBuffer

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(household)
            bindings.append(lastSequence)
            bindings.append(lastChain)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {}
    }
}

extension PostgresConnection {
    /// Runs a prepared statement and reads all its rows.
    func rows<Statement: PostgresPreparedStatement>(of statement: Statement, logger: Logger) async throws -> [Statement.Row] {
        var rows: [Statement.Row] = []
        for try await row in try await execute(statement, logger: logger) { rows.append(row) }
        return rows
    }
}
