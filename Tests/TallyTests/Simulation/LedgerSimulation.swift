import Synchronization
import SystemPackage
@testable import Tally
import TallyJournal
import TallyModel
import TallyProjections
import TallyTestSupport

/// A deterministic simulation of a ledger under concurrent clients, crashes and I/O faults
/// (issue 7 item 3; `Docs/Simulation.md`).
///
/// For one seed it opens a ledger on a fresh ``FaultInjectingFileSystem`` (synchronous
/// durability, a small checkpoint interval and segment size drawn from the seed) and runs
/// ``SimulationConfiguration/steps`` steps. Each step:
/// 1. maybe arms a fault: a crash after a random number of file-system operations (so it lands
///    mid-append, mid-sync, mid-rotation or mid-checkpoint), a failed write or sync, or a full disk;
/// 2. runs 2...6 concurrent clients (a task group), each submitting a few single commands or small
///    atomic batches from ``RandomCommandGenerator`` (valid and invalid ones);
/// 3. records every outcome in the ``SimulationShadow``; every error must be a typed
///    `LedgerError` (a rejection names its rule) and nothing may hang (``withDeadline``);
/// 4. when a crash fired or an append failed (or at random), abandons the instance: a power loss
///    (unsynced data dropped, torn or kept) or a process kill, `close()` on the dead instance
///    (typed errors only), then reopens from the same file system, retrying when a crash or fault
///    hits the recovery itself;
/// 5. checks everything (``check(_:reopened:)``): acknowledged events, journal audit, replay ==
///    live == checkpoint + tail == fold of `events()`, Domain invariants (Docs/Domain.md), frozen snapshots (B6).
///
/// **Determinism.** The seed fixes the command stream, the client plans, the fault and crash
/// schedule and the crash outcomes. The interleaving of concurrent clients comes from the Swift
/// runtime, so with several clients a seed reproduces the schedule but not always the exact
/// history; every check is interleaving-independent. With `concurrentClients: 1`
/// (`TALLY_SIMULATION_CLIENTS=1`) a run is fully deterministic, for bisecting.
struct LedgerSimulation {
    static let directory = FilePath("/simulation/ledger")

    let seed: UInt64
    let configuration: SimulationConfiguration
    let fileSystem: FaultInjectingFileSystem
    var generator: RandomCommandGenerator
    var schedule: SeededRandom
    var options: LedgerOptions
    var shadow = SimulationShadow()
    var statistics = SimulationStatistics()
    var frozenSnapshots: [PayPeriod: BudgetReport] = [:]
    var step = 0
    var instance: Instance?

    /// The open ledger and what belongs to its simulated process.
    struct Instance {
        let ledger: Ledger
        let process: FaultProcess
        let collector: EventCollector
        let observer: Task<Void, Never>
        /// The last sequence number when it was opened.
        let openedAt: UInt64
    }

    init(seed: UInt64, configuration: SimulationConfiguration = SimulationConfiguration()) {
        self.seed = seed
        self.configuration = configuration
        fileSystem = FaultInjectingFileSystem(seed: seed)
        generator = RandomCommandGenerator(seed: seed)
        schedule = SeededRandom(seed: seed ^ 0x5EED_5EED_5EED_5EED)
        options = LedgerOptions()  // synchronous: acknowledged means synced
        options.checkpointIntervalEvents = Int.random(in: 7...50, using: &schedule)
        options.segmentBytesMax = [4096, 8192, 32_768, 1 << 20][Int.random(in: 0..<4, using: &schedule)]
        options.changesBufferLimit = 1 << 20
    }

    /// Prints `message` when `TALLY_SIMULATION_TRACE` is set (for bisecting one seed).
    func trace(_ message: @autoclosure () -> String) {
        if configuration.trace { print("seed \(seed) step \(step): \(message())") }
    }

    func failure(_ message: String) -> SimulationFailure {
        SimulationFailure(seed: seed, step: step, message: message, concurrentClients: configuration.concurrentClients)
    }

    /// Runs the whole simulation; throws the first failed check.
    mutating func run() async throws(SimulationFailure) -> SimulationStatistics {
        statistics.seeds = 1
        do {
            try fileSystem.createDirectory(at: Self.directory.removingLastComponent())
        } catch {
            throw failure("cannot create the simulation directory: \(error)")
        }
        try await reopen(mayCrash: false)
        let setup = generator.scenario.setup()
        _ = try await runClients([[Submission(commands: setup)]])
        guard shadow.uncertain.isEmpty, shadow.rejectedCommandIDs.isEmpty else { throw failure("the household setup failed") }
        try await finishStep(abandon: false, crashed: false)
        for index in 1...configuration.steps {
            step = index
            try await runStep()
        }
        step += 1
        // The end: a power loss, a reopen, then a clean close and one more reopen from the
        // checkpoint that close wrote.
        try await abandon(crashed: false, powerLoss: true)
        try await reopen(mayCrash: false)
        try await check(reopened: true)
        fileSystem.clearFaults()
        guard let last = instance else { throw failure("no open ledger at the end") }
        let closed = await withDeadline(seconds: configuration.deadlineSeconds) { () -> LedgerError? in
            do throws(LedgerError) { try await last.ledger.close(); return nil } catch { return error }
        }
        guard let closed else { throw failure("close() hung") }
        if let error = closed { throw failure("a clean close failed: \(error)") }
        _ = await withDeadline(seconds: configuration.deadlineSeconds) { await last.observer.value }
        instance = nil
        try await reopen(mayCrash: false)
        try await check(reopened: true)
        statistics.events = shadow.events.count
        statistics.crashes = fileSystem.crashCount
        return statistics
    }

    /// One step: faults, concurrent clients, then either checks on the live ledger or an
    /// abandon + reopen + checks.
    mutating func runStep() async throws(SimulationFailure) {
        injectFaults()
        let clientCount = configuration.concurrentClients ?? Int.random(in: 2...6, using: &schedule)
        var plans: [[Submission]] = []
        for _ in 0..<clientCount {
            var plan: [Submission] = []
            for _ in 0..<Int.random(in: 1...3, using: &schedule) {
                let size = Int.random(in: 0..<10, using: &schedule) < 7 ? 1 : Int.random(in: 2...3, using: &schedule)
                plan.append(Submission(commands: (0..<size).map { _ in generator.next() }))
            }
            plans.append(plan)
        }
        let crashesBefore = fileSystem.crashCount
        let failed = try await runClients(plans)
        // Checkpoints are written in the background: the step ends when that write has (a
        // crash armed for this step may fire inside it).
        if let ledger = instance?.ledger { await ledger.checkpointWritten() }
        fileSystem.setCapacity(nil)
        let crashed = fileSystem.crashCount != crashesBefore
        let restart = Int.random(in: 0..<20, using: &schedule) == 0
        try await finishStep(abandon: crashed || failed || restart, crashed: crashed)
    }

    /// Runs the clients concurrently; records outcomes; returns whether any append failed.
    mutating func runClients(_ plans: [[Submission]]) async throws(SimulationFailure) -> Bool {
        guard let ledger = instance?.ledger else { throw failure("no open ledger") }
        let results = await withDeadline(seconds: configuration.deadlineSeconds) {
            await Self.execute(plans, on: ledger)
        }
        guard let results else {
            throw failure("clients did not finish within \(configuration.deadlineSeconds) s (hang)")
        }
        var anyFailed = false
        for (submission, outcome) in results {
            statistics.submissions += 1
            statistics.commands += submission.commands.count
            switch outcome {
            case .acknowledged:
                statistics.acknowledgedCommands += submission.commands.count
            case .rejected(let error):
                statistics.rejectedSubmissions += 1
                guard error.rule != nil, !error.message.isEmpty else {
                    throw failure("a rejection without a rule id or message: \(error)")
                }
            case .failed(let error):
                statistics.failedSubmissions += 1
                anyFailed = true
                switch error {
                case .storage, .closed: break
                default: throw failure("execute failed with an unexpected error: \(error)")
                }
            }
            trace("\(submission.commands.map { "\($0.action)".prefix(30) }) -> \(outcome)")
            shadow.record(submission, outcome)
        }
        return anyFailed
    }

    /// Each plan in its own child task; submissions of one client run in order.
    static func execute(_ plans: [[Submission]], on ledger: Ledger) async -> [(Submission, SubmissionOutcome)] {
        await withTaskGroup(of: [(Submission, SubmissionOutcome)].self) { group in
            for plan in plans {
                group.addTask {
                    var results: [(Submission, SubmissionOutcome)] = []
                    for submission in plan {
                        do throws(LedgerError) {
                            let positions = try await ledger.execute(submission.commands)
                            results.append((submission, .acknowledged(positions)))
                        } catch {
                            if case .rejected = error {
                                results.append((submission, .rejected(error)))
                            } else {
                                results.append((submission, .failed(error)))
                            }
                        }
                    }
                    return results
                }
            }
            var all: [(Submission, SubmissionOutcome)] = []
            for await results in group { all += results }
            return all
        }
    }
}

/// Collects the events a ledger publishes on `changes` (acknowledged events only).
final class EventCollector: Sendable {
    private let events = Mutex<[CommittedEvent]>([])

    func append(_ event: CommittedEvent) { events.withLock { $0.append(event) } }

    var all: [CommittedEvent] { events.withLock { $0 } }

    var lastSequenceNumber: UInt64 { events.withLock { $0.last?.sequenceNumber ?? 0 } }
}

/// How a simulation runs.
struct SimulationConfiguration: Sendable {
    /// Steps per seed.
    var steps = 30
    /// A fixed number of concurrent clients; nil draws 2...6 per step. 1 is fully deterministic.
    var concurrentClients: Int?
    /// How long one step, open or close may take before it counts as a hang.
    var deadlineSeconds: Double = 60
    /// Print what every step does.
    var trace = false
}
