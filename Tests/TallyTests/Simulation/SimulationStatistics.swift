/// What simulation runs did, summed over seeds.
struct SimulationStatistics: Sendable, Equatable {
    var seeds = 0
    var steps = 0
    var commands = 0
    var submissions = 0
    var acknowledgedCommands = 0
    var rejectedSubmissions = 0
    /// Submissions whose `execute` failed with a storage error (outcome unknown to the client).
    var failedSubmissions = 0
    /// Power losses (armed countdowns that fired, during commands, checkpoints or opening, and
    /// explicit ones when a ledger was abandoned).
    var crashes = 0
    /// Process kills without a power loss (unsynced data stays in the page cache).
    var kills = 0
    var injectedFaults = 0
    var reopens = 0
    /// `Ledger.open` attempts that failed (typed) because a crash or fault hit the recovery.
    var failedOpens = 0
    /// Reopens that started from a checkpoint and replayed only the tail.
    var checkpointOpens = 0
    /// Failed submissions whose events survived the crash anyway.
    var inFlightSurvived = 0
    /// Events in the final journals.
    var events = 0
    /// Explicit repairs after an open refused a damaged journal end (Docs/Simulation.md).
    var repairs = 0

    mutating func add(_ other: SimulationStatistics) {
        seeds += other.seeds
        steps += other.steps
        commands += other.commands
        submissions += other.submissions
        acknowledgedCommands += other.acknowledgedCommands
        rejectedSubmissions += other.rejectedSubmissions
        failedSubmissions += other.failedSubmissions
        crashes += other.crashes
        kills += other.kills
        repairs += other.repairs
        injectedFaults += other.injectedFaults
        reopens += other.reopens
        failedOpens += other.failedOpens
        checkpointOpens += other.checkpointOpens
        inFlightSurvived += other.inFlightSurvived
        events += other.events
    }

    /// One line for the test log.
    var summary: String {
        "simulation: \(seeds) seeds, \(steps) steps, \(commands) commands (\(acknowledgedCommands) acknowledged, "
            + "\(rejectedSubmissions) submissions rejected, \(failedSubmissions) failed), \(crashes) crashes, \(kills) kills, "
            + "\(injectedFaults) I/O faults, \(reopens) reopens (\(checkpointOpens) from a checkpoint, \(failedOpens) failed opens), "
            + "\(inFlightSurvived) unacknowledged batches survived, \(repairs) explicit repairs, \(events) events"
    }
}
