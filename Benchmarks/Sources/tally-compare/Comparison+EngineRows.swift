import BenchmarkSupport
import Foundation
import SystemPackage
import Tally
import TallyJournal
import TallyWorkload

extension Comparison {
    /// Engine rows on a ledger of `--engine-events` generated events (default 1,000,000): replay from the journal
    /// alone into every read model (events/s and peak extra memory), and open with a checkpoint.
    mutating func measureEngine() async throws -> [Measurement] {
        let count = options.engineEvents
        let ledger = FilePath(path("engine-ledger"))
        Self.progress("building a \(count)-event ledger for the replay and open rows")
        let journal = try Journal.open(at: LedgerDirectory(ledger).journal, options: JournalOptions(durability: .none))
        for events in HouseholdHistory(count: count, seed: options.seed).batches(of: 1000) {
            try await journal.append(events.map(EncodedHistory.record))
        }
        try journal.close()

        Self.progress("replaying \(count) events into every read model")
        _ = ProcessMemory.resetPeak()
        let before = ProcessMemory.bytes("VmRSS") ?? 0
        var replayed: UInt64 = 0
        let replaySeconds = try Stopwatch.seconds { replayed = try LedgerReplay.replay(at: ledger).lastSequenceNumber }
        precondition(replayed == UInt64(count), "replayed \(replayed) of \(count) events")
        let peak = ProcessMemory.bytes("VmHWM") ?? 0

        Self.progress("opening the ledger (full replay, then a checkpoint at close)")
        var ledgerOptions = LedgerOptions(durability: .none)
        ledgerOptions.checkpointIntervalEvents = 0
        let first = try await Ledger.open(at: ledger, options: ledgerOptions)
        try await first.checkpoint()
        try await first.close()
        Self.progress("opening the ledger from its checkpoint")
        let start = Stopwatch.now()
        let reopened = try await Ledger.open(at: ledger, options: ledgerOptions)
        let openMilliseconds = Double(Stopwatch.now() - start) / 1e6
        precondition(reopened.openReport.checkpointSequenceNumber == UInt64(count), "open must use the checkpoint")
        try await reopened.close()
        try? FileManager.default.removeItem(atPath: ledger.string)

        figures["engineEvents"] = Double(count)
        figures["replayPerSecond"] = Double(count) / replaySeconds
        figures["replayPeakMB"] = Double(peak - before) / 1e6
        figures["openMilliseconds"] = openMilliseconds
        var replay = Measurement(label: "Replay \(NumberStyle.grouped(Double(count))) events into all read models (events/s)", higherIsBetter: true, format: .count)
        replay.values["Tally"] = Double(count) / replaySeconds
        var memory = Measurement(label: "Replay of \(NumberStyle.grouped(Double(count))) events: peak extra RSS incl. read models (MB)", higherIsBetter: false, format: .megabytes)
        memory.values["Tally"] = Double(peak - before) / 1e6
        var open = Measurement(label: "Open \(NumberStyle.grouped(Double(count))) events with checkpoint (ms)", higherIsBetter: false, format: .milliseconds)
        open.values["Tally"] = openMilliseconds
        return [replay, memory, open]
    }
}
