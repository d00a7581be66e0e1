// HOOK: rows that need the `Tally` engine and `TallyProjections` (being built in parallel).
// When `Ledger` exists, replace these placeholders with real measurements:
// - replay: `Ledger.replay` (or open without checkpoint) over the bulk journal, events/s;
//   target >= 2,000,000 events/s, and < 64 MB extra RSS for 10M events.
// - open with checkpoint: `Ledger.open(at:)` on a 1M-event journal with a fresh checkpoint,
//   wall-clock ms; target < 50 ms.
// The package must then depend on the `Tally` product (Benchmarks/Package.swift).

extension Comparison {
    /// Rows that wait for the engine; printed as not available, never estimated.
    static var engineRows: [Measurement] {
        [
            Measurement(label: "Replay into read models (events/s)", higherIsBetter: true, format: .count,
                        unavailable: "n/a (engine not built yet)"),
            Measurement(label: "Open 1M events with checkpoint (ms)", higherIsBetter: false, format: .milliseconds,
                        unavailable: "n/a (engine not built yet)"),
        ]
    }
}
