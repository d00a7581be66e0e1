/// A failed simulation check. Its description starts with `simulation seed <n> step <k>:` and
/// ends with the command that reproduces it.
struct SimulationFailure: Error, CustomStringConvertible {
    let seed: UInt64
    let step: Int
    let message: String
    /// The fixed client count of the run (`TALLY_SIMULATION_CLIENTS`), nil for 2...6 per step.
    let concurrentClients: Int?

    var description: String {
        let clients = concurrentClients.map { " TALLY_SIMULATION_CLIENTS=\($0)" } ?? ""
        return "simulation seed \(seed) step \(step): \(message)\n"
            + "  reproduce: TALLY_SIMULATION_SEED=\(seed)\(clients) swift test -c release -Xswiftc -enable-testing --filter LedgerSimulationTests"
    }
}
