import ArgumentParser
import Foundation
import PostgresNIO
import SystemPackage
import TallyServer
import TallySync
import TallySyncHTTP
import TallySyncHTTPServer
import TallySyncServer
import TallySyncWire

/// `tally serve`: the sync server of a household's devices (Docs/Sync.md), on PostgreSQL.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the sync server for households' devices, on PostgreSQL (Docs/Sync.md).",
        subcommands: [Run.self, Household.self, Device.self],
        defaultSubcommand: Run.self)

    /// `tally serve run`: serves the sync endpoints until SIGINT or SIGTERM.
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Serve push, pull, keys and invitations over HTTP (POST /v1/push, GET /v1/frames, /v1/keys, /v1/invitations, POST /v1/join) until interrupted.")

        @OptionGroup var postgres: PostgresOptions

        @Option(help: ArgumentHelp("Where the server keeps a ledger cache per household (rebuilt from PostgreSQL when missing).", valueName: "DIR"))
        var cache: String

        @Option(help: "The address to listen on.")
        var host = "127.0.0.1"

        @Option(help: "The port to listen on (0: any free port, printed).")
        var port = 8080

        func run() async throws {
            try await postgres.withHistory { history in
                let server = SyncServer(history: history, cacheDirectory: FilePath(cache))
                let application = SyncHTTPServer.application(server, host: host, port: port) { bound in
                    Terminal.error("tally serve: listening on http://\(host):\(bound)")
                }
                do {
                    try await application.runService()
                } catch {
                    await server.close()
                    throw CLIError("the server stopped: \(error)")
                }
                await server.close()
            }
        }
    }

    /// `tally serve household`: creates a household's history and prints its id.
    struct Household: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a household on the server; prints its id (its first pushed command is createHousehold).")

        @OptionGroup var postgres: PostgresOptions

        func run() async throws {
            try await postgres.withHistory { history in
                let household = UUID()
                try await history.createHousehold(household)
                var results = ResultLines()
                results.line(household.uuidString.lowercased())
                try results.requireDelivered(outcome: "household \(household.uuidString.lowercased()) was created")
            }
        }
    }

    /// `tally serve device`: registers a household's first device and prints its token once
    /// (later devices join from an invitation, which carries the household's secret).
    struct Device: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register the household's first device, of a person; prints its bearer token (shown once: only its SHA-256 is stored). Later devices join from an invitation (`tally sync invite`, `tally sync join`).")

        @OptionGroup var postgres: PostgresOptions

        @Option(help: "The household's id (from `tally serve household`).")
        var household: String

        @Option(help: "The person the device acts for (the actor of every command it pushes).")
        var person: String

        func run() async throws {
            guard let household = UUID(uuidString: household) else {
                throw ValidationError("--household must be a household's id (a UUID), not \(self.household)")
            }
            guard let person = UUID(uuidString: person) else {
                throw ValidationError("--person must be a person's id (a UUID), not \(self.person)")
            }
            try await postgres.withHistory { history in
                let (device, token) = try await history.registerDevice(household: household, person: person)
                var results = ResultLines()
                results.line(token)
                try results.requireDelivered(outcome: "device \(device.deviceID.uuidString.lowercased()) was registered, but its token is shown only once: register the device again")
            }
        }
    }
}

/// Where the server's PostgreSQL database is.
struct PostgresOptions: ParsableArguments {
    @Option(name: .customLong("postgres-socket"), help: ArgumentHelp("The server's unix socket, e.g. DIR/.s.PGSQL.5432 (Scripts/postgres start DIR).", valueName: "PATH"))
    var socket: String?

    @Option(name: .customLong("postgres-host"), help: "The server's host, when not over a unix socket.")
    var host: String?

    @Option(name: .customLong("postgres-port"), help: "The server's TCP port.")
    var port = 5432

    @Option(name: .customLong("postgres-user"), help: "The database user (its password from PGPASSWORD).")
    var user = "tally"

    @Option(name: .customLong("postgres-database"), help: "The database holding the households' histories.")
    var database = "postgres"

    func validate() throws {
        guard (socket == nil) != (host == nil) else {
            throw ValidationError("give the database as --postgres-socket PATH or --postgres-host HOST, one of them")
        }
    }

    /// Runs `body` with the migrated history on a running client.
    func withHistory(_ body: (HouseholdHistory) async throws -> Void) async throws {
        let password = ProcessInfo.processInfo.environment["PGPASSWORD"]
        let configuration: PostgresClient.Configuration
        if let socket {
            configuration = PostgresClient.Configuration(unixSocketPath: socket, username: user, password: password, database: database)
        } else {
            configuration = PostgresClient.Configuration(
                host: host ?? "localhost", port: port, username: user, password: password, database: database, tls: .disable)
        }
        var logger = Logger(label: "tally.serve.postgres")
        logger.logLevel = .error
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        let running = Task { await client.run() }
        defer { running.cancel() }
        let history = HouseholdHistory(client: client)
        do {
            try await history.migrate()
        } catch {
            throw CLIError("the database cannot be used: \(error)")
        }
        try await body(history)
    }
}
