// tally-sync-bench (issue 32, Docs/Performance.md "Sync"): households of two devices (Alice's
// phone pushes expenses, Bob's phone waits in a long poll) through `tally serve` on loopback
// HTTP and PostgreSQL, against the same commands written straight into PostgreSQL by one client.
//
//   Scripts/postgres start /tmp/bench-pg
//   swift run -c release tally-sync-bench --postgres-socket /tmp/bench-pg/.s.PGSQL.5432 \
//       [--households 100] [--commands 20] [--rate 50] [--offline 1000] [--scratch DIR] [--repository ..] [--serve TALLY] [--servers 1]
//
// With `--serve PATH` (a built `tally`, e.g. ../.build/release/tally) the server runs as its own
// `tally serve` process, the devices in this one: the CPU each side spends per command is then
// reported apart (server, devices, PostgreSQL), from /proc. With `--servers N` there are N
// servers on the one database (N processes with `--serve`): a household's Alice pushes
// through server i mod N and Bob waits on server i+1 mod N, so every push reaches the other
// device through another server process, woken by PostgreSQL's commit notification.
//
// Phases:
// - setup: each household is created on the server, Alice's device pushes the demo household's
//   first twelve commands (Sources/TallyCLI/Demo/household.jsonl), Bob's device joins from an
//   invitation hers makes and pulls;
// - loaded: every household at once, Alice executing `--commands` expenses one after the other
//   (`SyncDevice.execute`: outbox, push, pull) while Bob's device long-polls: accepted commands/s,
//   push latency (execute's round trip) and push-to-observer latency (from the start of Alice's
//   push to the return of Bob's pull that appended its record);
// - paced: every household at once again, each Alice sending her next expense on a schedule, so
//   that all of them together offer `--rate` commands/s (a household's app sends when its user
//   acts, not as fast as the server answers): latencies at a load the machine carries;
// - one at a time: the same for ten households in turn, one command in flight;
// - offline: one Alice submits `--offline` expenses without syncing (a phone on a plane): the
//   time of each submit (validated on top of the outbox, sealed, recorded durably), of a read of
//   her first page of transactions (50 rows, the outbox shown on top), and of the sync that
//   pushes them all;
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
import TallySyncHTTPServer
import TallySyncServer
import TallySyncWire

struct Options {
    var socket = ""
    var households = 100
    var commands = 20
    var scratch = NSTemporaryDirectory() + "tally-sync-bench-\(getpid())"
    var repository = ".."
    var serve: String?
    var rate = 50
    var offline = 1_000
    var servers = 1

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
            case "--serve": serve = value
            case "--rate": rate = try Self.count(value, name)
            case "--offline": offline = try Self.count(value, name)
            case "--servers": servers = try Self.count(value, name)
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

/// When Alice sends her commands: the first at `start`, then one every `every`.
struct Pace: Sendable {
    var start: ContinuousClock.Instant
    var every: Duration
}

/// Alice executes `commands` expenses (as fast as they are answered, or on `pace`) while Bob's
/// device long-polls; returns the latencies.
func run(_ household: Household, commands: [Command], pace: Pace? = nil) async throws -> Samples {
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
    for (index, command) in commands.enumerated() {
        if let pace { try await Task.sleep(until: pace.start + pace.every * index, clock: .continuous) }
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
    var servers: [RunningServer] = []
    do {
        for index in 0..<options.servers { servers.append(try await startServer(options, history: history, index: index)) }
        try await measure(options, servers: servers, history: history, client: client, setup: setup, expenses: expenses, template: template)
    } catch {
        for server in servers { await server.stop() }
        throw error
    }
    running.cancel()
    try? FileManager.default.removeItem(atPath: options.scratch)
}

func measure(
    _ options: Options, servers: [RunningServer], history: HouseholdHistory, client: PostgresClient, setup: [Command], expenses: [Command],
    template: String
) async throws {
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
                    try await history.createHousehold(id)
                    let (_, aliceToken) = try await history.registerDevice(household: id, person: alice)
                    let folder = options.scratch + "/household-\(index)"
                    // Alice on one server, Bob on the next (the same one when there is one).
                    let url = servers[index % servers.count].url, bobURL = servers[(index + 1) % servers.count].url
                    let aliceLedger = try await Ledger.open(at: FilePath(folder + "/alice"))
                    let aliceDevice = try await SyncDevice(ledger: aliceLedger, transport: HTTPSyncTransport(server: url, token: aliceToken, client: http))
                    for command in setup { try await aliceDevice.submit(command) }
                    try await aliceDevice.sync()
                    // Bob's phone joins from Alice's invitation (Docs/Sync.md, "Joining a household").
                    let (invitation, _) = try await aliceDevice.invite(for: PersonID(bob))
                    let joined = try await HTTPSyncTransport.join(server: bobURL, invitation: invitation, client: http)
                    let bobDevice = try await SyncDevice(
                        ledger: try await Ledger.open(at: FilePath(folder + "/bob")),
                        transport: HTTPSyncTransport(server: bobURL, token: joined.token, client: http), householdSecret: invitation.householdSecret)
                    try await bobDevice.pull()
                    return Household(id: id, alice: aliceDevice, bob: bobDevice)
                }
            }
            for try await household in group { households.append(household) }
        }
    }
    let setupSeconds = Double(Stopwatch.now() - setupStart) / 1e9

    // Loaded: every household at once.
    let loadedCPU = CPUSample(servers: servers)
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
    let loadedCost = CPUSample(servers: servers).since(loadedCPU, commands: loaded.accepted)

    // Paced: every household at once, together offering `--rate` commands/s, with new expenses.
    let paced = try (0..<options.commands).map { try expense(template, round: options.commands + $0) }
    let every = Duration.seconds(Double(options.households) / Double(options.rate))
    let pacedCPU = CPUSample(servers: servers)
    let pacedWallStart = Stopwatch.now()
    let pacedStart = ContinuousClock.now + .milliseconds(100)
    let steady = try await withThrowingTaskGroup(of: Samples.self) { group in
        for (index, household) in households.enumerated() {
            // The households' schedules spread evenly over one interval.
            let pace = Pace(start: pacedStart + every * (Double(index) / Double(households.count)), every: every)
            group.addTask { try await run(household, commands: paced, pace: pace) }
        }
        var all: [Samples] = []
        for try await samples in group { all.append(samples) }
        return merged(all)
    }
    let pacedSeconds = Double(steady.finished - pacedWallStart) / 1e9 - 0.1  // until the last command was accepted
    let pacedCost = CPUSample(servers: servers).since(pacedCPU, commands: steady.accepted)

    // One at a time: ten households in turn, with new expenses.
    let later = try (0..<options.commands).map { try expense(template, round: 2 * options.commands + $0) }
    var alone: [Samples] = []
    let aloneCPU = CPUSample(servers: servers)
    for household in households.prefix(10) { alone.append(try await run(household, commands: later)) }
    let unloaded = merged(alone)
    let unloadedCost = CPUSample(servers: servers).since(aloneCPU, commands: unloaded.accepted)

    // Offline: one device's outbox grows, then goes out in one sync.
    let offline = try (0..<options.offline).map { try expense(template, round: 3 * options.commands + $0) }
    let phone = households[0].alice
    let page = TransactionQuery(visibleTo: .member(PersonID(alice)))
    func listRead() async throws -> LatencySamples {
        var reads = LatencySamples()
        for _ in 0..<20 {
            let start = Stopwatch.now()
            _ = try await phone.ledger.transactions(page)
            reads.record(since: start)
        }
        return reads
    }
    let readConfirmed = try await listRead()
    var submits = LatencySamples()
    for command in offline {
        let start = Stopwatch.now()
        try await phone.submit(command)
        submits.record(since: start)
    }
    var firstSubmits = LatencySamples()
    firstSubmits.nanoseconds = Array(submits.nanoseconds.prefix(100))
    var lastSubmits = LatencySamples()
    lastSubmits.nanoseconds = Array(submits.nanoseconds.suffix(100))
    let readPending = try await listRead()
    let syncStart = Stopwatch.now()
    try await phone.sync()
    let syncSeconds = Double(Stopwatch.now() - syncStart) / 1e9

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
    tally-sync-bench: \(options.households) households x 2 devices, \(options.commands) expenses per household, \(servers.count == 1 ? "one server" : "\(servers.count) servers (each household's devices on two of them)") on loopback HTTP and PostgreSQL (unix socket)
    setup: \(String(format: "%.1f", setupSeconds)) s (12 commands per household pushed as one request, Bob's device pulls them)

    | | tally serve: loaded (\(options.households) households at once, as fast as answered) | tally serve: paced (\(options.households) households at once, \(options.rate) commands/s offered) | tally serve: one at a time (10 households in turn) | PostgreSQL, one client (INSERT per command) |
    |---|---|---|---|---|
    | accepted commands/s | \(String(format: "%.0f", Double(loaded.accepted) / loadedSeconds)) | \(String(format: "%.0f", Double(steady.accepted) / pacedSeconds)) | \(String(format: "%.0f", Double(unloaded.accepted) / unloaded.push.totalSeconds)) | \(String(format: "%.0f", Double(bodies.count * households.count) / directSeconds)) |
    | push latency p50 / p99 (ms) | \(milliseconds(loaded.push)) | \(milliseconds(steady.push)) | \(milliseconds(unloaded.push)) | \(milliseconds(direct)) |
    | push to the other device's pull p50 / p99 (ms) | \(milliseconds(loaded.observed)) | \(milliseconds(steady.observed)) | \(milliseconds(unloaded.observed)) | - |
    | commands measured | \(loaded.accepted) | \(steady.accepted) | \(unloaded.accepted) | \(direct.nanoseconds.count) |
    | CPU per accepted command (ms): server / devices / PostgreSQL | \(loadedCost) | \(pacedCost) | \(unloadedCost) | - |

    | an offline device, \(options.offline) expenses made before a sync | first 100 submits | last 100 submits | all submits | list read (50 rows), outbox empty | list read, \(options.offline) pending | the sync that pushes them |
    |---|---|---|---|---|---|---|
    | p50 / p99 (ms) | \(milliseconds(firstSubmits)) | \(milliseconds(lastSubmits)) | \(milliseconds(submits)) | \(milliseconds(readConfirmed)) | \(milliseconds(readPending)) | \(String(format: "%.1f", syncSeconds)) s |

    disk: server caches \(cacheBytes / 1_048_576) MiB, devices \(deviceBytes / 1_048_576) MiB
    """)

    for household in households {
        try await household.alice.close()
        try await household.bob.close()
    }
    try await http.shutdown()
    for server in servers { await server.stop() }
}

/// The server the devices sync through: in this process, or a `tally serve` process of its own.
struct RunningServer: Sendable {
    let url: String
    /// The `tally serve` process, when the server runs apart.
    let process: Process?
    let stopInProcess: @Sendable () async -> Void

    func stop() async {
        if let process {
            process.interrupt()
            process.waitUntilExit()
        } else {
            await stopInProcess()
        }
    }
}

/// Server `index`, its cache in `cache/<index>` of the scratch folder.
func startServer(_ options: Options, history: HouseholdHistory, index: Int) async throws -> RunningServer {
    let cache = options.scratch + "/cache/\(index)"
    try FileManager.default.createDirectory(atPath: options.scratch + "/cache", withIntermediateDirectories: true)
    guard let tally = options.serve else {
        let server = SyncServer(history: history, cacheDirectory: FilePath(cache))
        let (ports, port) = AsyncStream<Int>.makeStream()
        let application = SyncHTTPServer.application(server, host: "127.0.0.1", port: 0) { bound in port.yield(bound) }
        let serving = Task { try await application.run() }
        guard let bound = await ports.first(where: { _ in true }) else { throw BenchError("the server did not start") }
        return RunningServer(url: "http://127.0.0.1:\(bound)", process: nil) {
            await server.close()
            serving.cancel()
            _ = try? await serving.value
        }
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tally)
    process.arguments = [
        "serve", "run", "--postgres-socket", options.socket, "--cache", cache, "--port", "0",
    ]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    // `tally serve` prints "tally serve: listening on http://127.0.0.1:PORT" on stderr (after
    // Hummingbird's own log line).
    let marker = "tally serve: listening on "
    var text = ""
    while true {
        if let range = text.range(of: marker), let end = text[range.upperBound...].firstIndex(of: "\n") {
            // Its log goes on being read (and dropped), so that a full pipe never stops it.
            Thread.detachNewThread {
                while !errors.fileHandleForReading.availableData.isEmpty {}
            }
            return RunningServer(url: String(text[range.upperBound..<end]), process: process) {}
        }
        let data = errors.fileHandleForReading.availableData
        guard !data.isEmpty else {
            process.interrupt()
            throw BenchError("tally serve exited before it listened: \(text)")
        }
        text += String(decoding: data, as: UTF8.self)
    }
}

/// CPU seconds spent so far by the servers (when they run apart, all of them together), this
/// process (the devices, and the servers when they run here) and PostgreSQL.
struct CPUSample {
    let server: Double?
    let devices: Double
    let postgres: Double

    init(servers running: [RunningServer]) {
        let processes = running.compactMap(\.process)
        server = processes.isEmpty ? nil : processes.reduce(0) { $0 + (ProcessCPU.seconds(of: $1.processIdentifier) ?? 0) }
        devices = ProcessCPU.seconds(of: getpid()) ?? 0
        postgres = ProcessCPU.seconds(ofEveryProcessNamed: "postgres")
    }

    /// "server / devices / PostgreSQL" milliseconds per command since `start` (the server's
    /// share is in the devices' when it runs in this process).
    func since(_ start: CPUSample, commands: Int) -> String {
        let count = Double(max(commands, 1))
        let server = self.server.flatMap { now in start.server.map { String(format: "%.1f", (now - $0) * 1000 / count) } } ?? "(in devices)"
        return "\(server) / " + String(format: "%.1f / %.1f", (devices - start.devices) * 1000 / count, (postgres - start.postgres) * 1000 / count)
    }
}
