import BenchmarkSupport
import Foundation

// tally-compare: Tally's journal vs SQLite (GRDB, WAL, synchronous FULL; JSON and binary
// payloads) vs a JSON Lines file, on the same generated household events, in one run.
// Run from Benchmarks/: swift run -c release tally-compare [--events N]; see --help.

@MainActor
func runComparison() async {
let options = CompareOptions.parse(Array(CommandLine.arguments.dropFirst()))
if options.encryptionCost { return await runEncryptionCost(options) }
var comparison = Comparison(options: options)
do {
    let start = Stopwatch.now()
    try await comparison.run()
    print("""
        ## tally-compare: \(NumberStyle.grouped(Double(options.events))) events (batches of 1000), \
        \(NumberStyle.grouped(Double(options.singleEvents))) single events, \
        \(NumberStyle.grouped(Double(options.concurrentEvents))) concurrent events, seed \(options.seed)

        \(comparison.table.markdown())

        ### Targets

        \(comparison.targetReport())

        Run took \(String(format: "%.1f", Double(Stopwatch.now() - start) / 1e9)) s.
        """)
} catch {
    FileHandle.standardError.write(Data("tally-compare: failed: \(error)\n".utf8))
    exit(1)
}
}

/// `--encryption-cost`: the encryption tables alone.
@MainActor
func runEncryptionCost(_ options: CompareOptions) async {
    var cost = EncryptionCost(options: options)
    do {
        let start = Stopwatch.now()
        try await cost.run()
        print("""
            ## tally-compare --encryption-cost

            \(cost.report())

            Run took \(String(format: "%.1f", Double(Stopwatch.now() - start) / 1e9)) s.
            """)
    } catch {
        FileHandle.standardError.write(Data("tally-compare: failed: \(error)\n".utf8))
        exit(1)
    }
}

await runComparison()
