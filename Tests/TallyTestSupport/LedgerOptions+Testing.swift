import Tally
import TallyJournal

extension LedgerOptions {
    /// Options for a test that checkpoints only when it calls `Ledger.checkpoint()` (no
    /// checkpoint by event count), so what is checkpointed is what the test chose.
    /// - Parameter durability: `.synchronous` (every acknowledged batch synced) by default.
    public static func checkpointsOnRequest(durability: DurabilityPolicy = .synchronous) -> LedgerOptions {
        var options = LedgerOptions(durability: durability)
        options.checkpointIntervalEvents = 0
        return options
    }
}
