// tally-sync-bench (issue 32, Docs/Performance.md "Sync"): households of two devices (Alice's
// phone pushes expenses, Bob's phone waits in a long poll) through one `tally serve` on
// loopback HTTP and PostgreSQL, against the same commands written straight into PostgreSQL by
// one client.
//
//   Scripts/postgres start /tmp/bench-pg
//   swift run -c release tally-sync-bench --postgres-socket /tmp/bench-pg/.s.PGSQL.5432 \
//       [--households 100] [--commands 20] [--scratch DIR] [--repository ..]
//
// Phases:
// - setup: each household is created on the server, Alice's device pushes the demo household's
//   first twelve commands (Sources/TallyCLI/Demo/household.jsonl), Bob's device joins from an
//   invitation hers makes and pulls;
// - loaded: every household at once, Alice executing `--commands` expenses one after the other
//   (`SyncDevice.execute`: outbox, push, pull) while Bob's device long-polls: accepted commands/s,
//   push latency (execute's round trip) and push-to-observer latency (from the start of Alice's
//   push to the return of Bob's pull that appended its record);
// - one at a time: the same for ten households in turn, one command in flight;
// - peer: the same number of commands (their JSON lines) inserted by one PostgreSQL client, each
//   in its own transaction, into a table keyed by household and sequence number.
import AsyncHTTPClient
import BenchmarkSupport
import Foundation
import PostgresNIO
import Synchronization
import SystemPackage
import Tally
import TallyModel
import TallyServer
import TallySync
import TallySyncHTTP

struct Options {
    var socket = ""
    var households = 100
    var commands = 20
    var scratch = NSTemporaryDirectory() + "tally-sync-bench-\(getpid())"
    var repository = ".."

    init(_ arguments: [String]) throws {
        var rest = arguments.dropFirst()
        while let name = rest.popFirst() {
            guard let value = rest.popFirst() else { throw BenchError("\(name) needs a value") }
            switch name {
            case "--postgres-socket": socket = value
            case "--households": households = try Self.count(value, name)
            case "--commands": commands = try Self.count(value, name)
            case "--scratch": scratch = value
            case "--repository": repository = value
            default: throw BenchError("unknown option \(name)")
            }
        }
        guard !socket.isEmpty else { throw BenchError("--postgres-socket PATH is required (Scripts/postgres start DIR makes one)") }
    }

    static func count(_ text: String, _ name: String) throws -> Int {
        guard let value = Int(text), value > 0 else { throw BenchError("\(name) must be a positive count, not \(text)") }
        return value
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The demo's Alice and Bob (Sources/TallyCLI/Demo/household.jsonl).
let alice = UUID(uuid: (0, 0, 0, 2, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 1))
let bob = UUID(uuid: (0, 0, 0, 2, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 2))

/// One household: its server id and its two devices.
struct Household: Sendable {
    let id: UUID
    let alice: SyncDevice
    let bob: SyncDevice
}

/// What one household's run measured.
struct Samples: Sendable {
    var push = LatencySamples()
    var observed = LatencySamples()
    var accepted = 0
    /// When the household's last command was accepted (``Stopwatch/now()``).
    var finished: UInt64 = 0
}

/// Alice's `round`-th expense: the README's example expense, hers, with its own ids.
func expense(_ template: String, round: Int) throws -> Command {
    let suffix = String(format: "%012x", 0x1_0000 + round)
    let line = template
        .replacingOccurrences(of: "\"actor\": \"00000002-0000-4000-8000-000000000002\"", with: "\"actor\": \"\(alice.uuidString.lowercased())\"")
        .replacingOccurrences(of: "\"payer\": \"00000002-0000-4000-8000-000000000002\"", with: "\"payer\": \"\(alice.uuidString.lowercased())\"")
        .replacingOccurrences(of: "0000000c-0000-4000-8000-00000000f001", with: "0000000c-0000-4000-8000-\(suffix)")
        .replacingOccurrences(of: "00000005-0000-4000-8000-00000000f001", with: "00000005-0000-4000-8000-\(suffix)")
    return try CommandParser.parse(line: line)
}

/// Alice executes `commands` expenses while Bob's device long-polls; returns the latencies.
func run(_ household: Household, commands: [Command]) async throws -> Samples {
    let target = Atomic<UInt64>(0)
    let observer = Task { () -> [(sequenceNumber: UInt64, at: UInt64)] in
        var arrivals: [(sequenceNumber: UInt64, at: UInt64)] = []
        while true {
            let goal = target.load(ordering: .acquiring)
            if goal > 0, await household.bob.confirmedSequenceNumber >= goal { return arrivals }
            if try await household.bob.pull(waitMilliseconds: 2_000) > 0 {
                arrivals.append((await household.bob.confirmedSequenceNumber, Stopwatch.now()))
            }
        }
    }
    var samples = Samples()
    var sent: [(start: UInt64, last: UInt64)] = []
    for command in commands {
        let start = Stopwatch.now()
        let range = try await household.alice.execute(command)
        samples.push.record(since: start)
        sent.append((start, range.upperBound))
        samples.accepted += 1
    }
    samples.finished = Stopwatch.now()
    target.store(sent.last?.last ?? 1, ordering: .releasing)
    let arrivals = try await observer.value
    for (start, last) in sent {
        if let arrival = arrivals.first(where: { $0.sequenceNumber >= last }) {
            samples.observed.nanoseconds.append(arrival.at > start ? arrival.at - start : 0)
        }
    }
    return samples
}

func merged(_ all: [Samples]) -> Samples {
    var total = Samples()
    for samples in all {
        total.push.nanoseconds += samples.push.nanoseconds
        total.observed.nanoseconds += samples.observed.nanoseconds
        total.accepted += samples.accepted
        total.finished = max(total.finished, samples.finished)
    }
    return total
}

func milliseconds(_ samples: LatencySamples) -> String {
    String(format: "%.1f / %.1f", samples.percentileMilliseconds(0.5), samples.percentileMilliseconds(0.99))
}

let options: Options
do {
    options = try Options(CommandLine.arguments)
} catch {
    FileHandle.standardError.write(Data("tally-sync-bench: \(error)\n".utf8))
    exit(2)
}
do {
    try await benchmark(options)
} catch {
    FileHandle.standardError.write(Data("tally-sync-bench: \(error)\n".utf8))
    exit(1)
}

func benchmark(_ options: Options) async throws {
    let repository = URL(fileURLWithPath: options.repository)
    let demo = try String(contentsOf: repository.appendingPathComponent("Sources/TallyCLI/Demo/household.jsonl"), encoding: .utf8)
    let setupLines = demo.split(separator: "\n").filter { $0.contains("\"actor\": \"\(alice.uuidString.lowercased())\"") }.prefix(12)
    let setup = try setupLines.map { try CommandParser.parse(line: String($0)) }
    let template = try String(contentsOf: repository.appendingPathComponent("Examples/Sync/bob-expense.jsonl"), encoding: .utf8)
        .trimmingCharacters(in: .whitespacesAndNewlines)
    let expenses = try (0..<options.commands).map { try expense(template, round: $0) }

    try? FileManager.default.removeItem(atPath: options.scratch)
    try FileManager.default.createDirectory(atPath: options.scratch, withIntermediateDirectories: true)
    let client = PostgresClient(configuration: .init(unixSocketPath: options.socket, username: "tally", password: nil, database: "postgres"))
    let running = Task { await client.run() }
    let history = HouseholdHistory(client: client)
    try await history.migrate()
    let server = SyncServer(history: history, cacheDirectory: FilePath(options.scratch + "/cache"))
    let (ports, port) = AsyncStream<Int>.makeStream()
    let application = SyncHTTPServer.application(server, host: "127.0.0.1", port: 0) { bound in port.yield(bound) }
    let serving = Task { try await application.run() }
    guard let bound = await ports.first(where: { _ in true }) else { throw BenchError("the server did not start") }
    let url = "http://127.0.0.1:\(bound)"
    // Every device of a household is its own app with its own connections: one client for all
    // of them here, with room for each device's connection (Bob's long polls hold theirs).
    var configuration = HTTPClient.Configuration.singletonConfiguration
    configuration.connectionPool.retryConnectionEstablishment = false
    configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 4 * options.households + 8
    let http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)

    // Setup, ten households at a time.
    let setupStart = Stopwatch.now()
    var households: [Household] = []
    for first in stride(from: 0, to: options.households, by: 10) {
        try await withThrowingTaskGroup(of: Household.self) { group in
            for index in first..<min(first + 10, options.households) {
                group.addTask {
                    let id = UUID()
                    try await server.createHousehold(id)
                    let (_, aliceToken) = try await history.registerDevice(household: id, person: alice)
                    let folder = options.scratch + "/household-\(index)"
                    let aliceLedger = try await Ledger.open(at: FilePath(folder + "/alice"))
                    let aliceDevice = try await SyncDevice(ledger: aliceLedger, transport: HTTPSyncTransport(server: url, token: aliceToken, client: http))
                    for command in setup { try await aliceDevice.submit(command) }
                    try await aliceDevice.sync()
                    // Bob's phone joins from Alice's invitation (Docs/Sync.md, "Joining a household").
                    let (invitation, _) = try await aliceDevice.invite(for: PersonID(bob))
                    let joined = try await HTTPSyncTransport.join(server: url, invitation: invitation, client: http)
                    let bobDevice = try await SyncDevice(
                        ledger: try await Ledger.open(at: FilePath(folder + "/bob")),
                        transport: HTTPSyncTransport(server: url, token: joined.token, client: http), householdSecret: invitation.householdSecret)
                    try await bobDevice.pull()
                    return Household(id: id, alice: aliceDevice, bob: bobDevice)
                }
            }
            for try await household in group { households.append(household) }
        }
    }
    let setupSeconds = Double(Stopwatch.now() - setupStart) / 1e9

    // Loaded: every household at once.
    let loadedStart = Stopwatch.now()
    let loaded = try await withThrowingTaskGroup(of: Samples.self) { group in
        for household in households {
            group.addTask { try await run(household, commands: expenses) }
        }
        var all: [Samples] = []
        for try await samples in group { all.append(samples) }
        return merged(all)
    }
    let loadedSeconds = Double(loaded.finished - loadedStart) / 1e9  // until the last command was accepted

    // One at a time: ten households in turn, with new expenses.
    let later = try (0..<options.commands).map { try expense(template, round: options.commands + $0) }
    var alone: [Samples] = []
    for household in households.prefix(10) { alone.append(try await run(household, commands: later)) }
    let unloaded = merged(alone)

    // The peer: one client, one transaction per command.
    let bodies = expenses.map(\.jsonLine)
    try await client.query("DROP TABLE IF EXISTS sync_bench_direct")
    try await client.query("CREATE TABLE sync_bench_direct (household uuid NOT NULL, seq bigint NOT NULL, body text NOT NULL, PRIMARY KEY (household, seq))")
    var direct = LatencySamples()
    let directStart = Stopwatch.now()
    try await client.withConnection { connection in
        for household in households {
            for (index, body) in bodies.enumerated() {
                let start = Stopwatch.now()
                try await connection.query("INSERT INTO sync_bench_direct (household, seq, body) VALUES (\(household.id), \(Int64(index + 1)), \(body))", logger: Logger(label: "bench"))
                direct.record(since: start)
            }
        }
    }
    let directSeconds = Double(Stopwatch.now() - directStart) / 1e9

    let cacheBytes = DiskUsage.bytes(at: options.scratch + "/cache")
    let deviceBytes = DiskUsage.bytes(at: options.scratch) - cacheBytes
    print("""
    tally-sync-bench: \(options.households) households x 2 devices, \(options.commands) expenses per household, one server on loopback HTTP and PostgreSQL (unix socket)
    setup: \(String(format: "%.1f", setupSeconds)) s (12 commands per household pushed as one request, Bob's device pulls them)

    | | tally serve: loaded (\(options.households) households at once) | tally serve: one at a time (10 households in turn) | PostgreSQL, one client (INSERT per command) |
    |---|---|---|---|
    | accepted commands/s | \(String(format: "%.0f", Double(loaded.accepted) / loadedSeconds)) | \(String(format: "%.0f", Double(unloaded.accepted) / unloaded.push.totalSeconds)) | \(String(format: "%.0f", Double(bodies.count * households.count) / directSeconds)) |
    | push latency p50 / p99 (ms) | \(milliseconds(loaded.push)) | \(milliseconds(unloaded.push)) | \(milliseconds(direct)) |
    | push to the other device's pull p50 / p99 (ms) | \(milliseconds(loaded.observed)) | \(milliseconds(unloaded.observed)) | - |
    | commands measured | \(loaded.accepted) | \(unloaded.accepted) | \(direct.nanoseconds.count) |

    disk: server caches \(cacheBytes / 1_048_576) MiB, devices \(deviceBytes / 1_048_576) MiB
    """)

    for household in households {
        try await household.alice.close()
        try await household.bob.close()
    }
    try await http.shutdown()
    await server.close()
    serving.cancel()
    _ = try? await serving.value
    running.cancel()
    try? FileManager.default.removeItem(atPath: options.scratch)
}
