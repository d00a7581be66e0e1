import Foundation
import PostgresNIO
import TallyServer
import TallySyncWire
import Testing

/// The throwaway PostgreSQL that `Scripts/postgres run` starts: each test gets its own database on it, so
/// tests run in parallel and leave nothing behind.
enum TestPostgres {
    static let socketVariable = "TALLY_TEST_POSTGRES_SOCKET"

    struct NotConfigured: Error, CustomStringConvertible {
        var description: String {
            "\(socketVariable) is not set: the TallyServer tests need a PostgreSQL server. Run them with "
                + "Scripts/postgres run (it starts a throwaway cluster and sets \(socketVariable)), e.g. "
                + "`Scripts/postgres run swift test -c release -Xswiftc -enable-testing --filter TallyServerTests`"
        }
    }

    static func socketPath() throws -> String {
        guard let path = ProcessInfo.processInfo.environment[socketVariable], !path.isEmpty else {
            throw NotConfigured()
        }
        return path
    }

    static func configuration(database: String) throws -> PostgresClient.Configuration {
        var configuration = PostgresClient.Configuration(
            unixSocketPath: try socketPath(), username: "tally", password: nil, database: database)
        configuration.options.maximumConnections = 3
        return configuration
    }

    /// Runs `body` with a running client on `database`, cancelling the client's run after.
    static func withClient<Result: Sendable>(
        database: String, _ body: (PostgresClient) async throws -> Result
    ) async throws -> Result {
        // Errors only: a query may ask for a connection before the task below has entered
        // run(), which PostgresNIO warns about and then serves (the request waits for run()).
        var logger = Logger(label: "tally.test.postgres")
        logger.logLevel = .error
        let client = PostgresClient(configuration: try configuration(database: database), backgroundLogger: logger)
        let running = Task { await client.run() }
        do {
            let result = try await body(client)
            running.cancel()
            await running.value
            return result
        } catch {
            running.cancel()
            await running.value
            throw error
        }
    }

    /// Runs `body` with the name of a new empty database, dropped after.
    static func withDatabase(_ body: (String) async throws -> Void) async throws {
        let name = "tally_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await withClient(database: "postgres") { admin in
            _ = try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
        }
        do {
            try await body(name)
        } catch {
            try? await drop(name)
            throw error
        }
        try await drop(name)
    }

    private static func drop(_ name: String) async throws {
        try await withClient(database: "postgres") { admin in
            _ = try await admin.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"))
        }
    }

    /// Runs `body` with a migrated history on its own client on `database`.
    static func withHistory<Result: Sendable>(database: String, _ body: (HouseholdHistory) async throws -> Result) async throws -> Result {
        try await withClient(database: database) { client in
            let history = HouseholdHistory(client: client)
            try await history.migrate()
            return try await body(history)
        }
    }

    /// A new database with one migrated history on it.
    static func withHistory(_ body: (HouseholdHistory) async throws -> Void) async throws {
        try await withDatabase { database in
            try await withHistory(database: database, body)
        }
    }

    /// One value of a column query, e.g. `SELECT count(*) FROM frames`.
    static func count(_ query: PostgresQuery, in history: HouseholdHistory) async throws -> Int64 {
        var value: Int64 = -1
        for try await count in try await history.client.query(query).decode(Int64.self) {
            value = count
        }
        return value
    }
}
