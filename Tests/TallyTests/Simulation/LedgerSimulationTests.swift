import Foundation
import Testing

/// The deterministic simulation (`Docs/Simulation.md`): a fixed budget of seeds in CI; more
/// with `TALLY_SIMULATION_SEEDS=<count>`, one seed with `TALLY_SIMULATION_SEED=<n>`, a fixed
/// client count (1 = fully deterministic) with `TALLY_SIMULATION_CLIENTS=<n>`:
///
///     TALLY_SIMULATION_SEEDS=2000 swift test -c release -Xswiftc -enable-testing --filter LedgerSimulationTests
@Suite("Ledger simulation")
struct LedgerSimulationTests {
    /// Seeds run by default (sized for about half a minute in release on the CI machine).
    static let defaultSeedCount = 120

    static var environment: [String: String] { ProcessInfo.processInfo.environment }

    static var seeds: [UInt64] {
        if let one = environment["TALLY_SIMULATION_SEED"].flatMap(UInt64.init) { return [one] }
        let count = environment["TALLY_SIMULATION_SEEDS"].flatMap(Int.init) ?? defaultSeedCount
        return (1...UInt64(max(count, 1))).map { $0 }
    }

    static var configuration: SimulationConfiguration {
        var configuration = SimulationConfiguration()
        configuration.concurrentClients = environment["TALLY_SIMULATION_CLIENTS"].flatMap(Int.init)
        if let steps = environment["TALLY_SIMULATION_STEPS"].flatMap(Int.init) { configuration.steps = steps }
        configuration.trace = environment["TALLY_SIMULATION_TRACE"] != nil
        return configuration
    }

    @Test("crashes, faults and concurrent clients never lose an acknowledged event or break an invariant")
    func simulationBudget() async {
        let start = ContinuousClock.now
        var total = SimulationStatistics()
        var failures = 0
        for seed in Self.seeds {
            var simulation = LedgerSimulation(seed: seed, configuration: Self.configuration)
            do {
                total.add(try await simulation.run())
            } catch {
                failures += 1
                Issue.record(Comment(rawValue: error.description))
                total.add(simulation.statistics)
            }
        }
        let elapsed = ContinuousClock.now - start
        print("\(total.summary), \(failures) failed seeds, \(elapsed.formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 1))))")
        #expect(total.crashes > 0 && total.acknowledgedCommands > 0 && total.rejectedSubmissions > 0)
    }

    @Test("with one client a seed replays to the same history and statistics")
    func singleClientRunIsDeterministic() async throws {
        var configuration = SimulationConfiguration()
        configuration.concurrentClients = 1
        configuration.steps = 15
        var first = LedgerSimulation(seed: 4242, configuration: configuration)
        var second = LedgerSimulation(seed: 4242, configuration: configuration)
        let one = try await first.run()
        let two = try await second.run()
        #expect(one == two)
        #expect(first.shadow.events == second.shadow.events)
    }
}
