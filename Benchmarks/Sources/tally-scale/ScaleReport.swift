import Foundation

/// The Markdown report of a run: the machine line, one table with Tally and the peer in
/// adjacent columns per size, the issue-15 query table, the apply row, and the issue-14 and
/// issue-15 targets with verdicts.
struct ScaleReport {
    let run: ScaleRun
    let machine: MachineDescription
    let seconds: Double

    var sizes: [Int] { run.options.sizes.filter { run.results[$0] != nil } }

    private func value(_ size: Int, _ subject: SubjectKind, _ key: String) -> Double? {
        run.results[size]?[subject]?[key]
    }

    func markdown() -> String {
        let people = peopleSection()
        var lines = [
            sizes.isEmpty
                ? "## tally-scale: " + [run.apply == nil ? nil : "the apply row", people.isEmpty ? nil : "addPerson against people"]
                    .compactMap { $0 }.joined(separator: " and ")
                : "## tally-scale: cost against history (\(sizes.map(Self.sizeName).joined(separator: ", ")) commands)",
            "",
            machine.line,
        ]
        if !sizes.isEmpty {
            lines += ["", workloadLine, ""] + table()
        }
        if hasQueries {
            lines += [""] + queryTable()
        }
        if let apply = run.apply {
            lines += [
                "",
                "`tally apply` of \(Self.grouped(Double(run.options.applyCommands))) commands, one per line, into a new ledger: "
                    + "**\(Self.grouped(apply.commandsPerSecond)) commands/s** (\(apply.how)); raw 4 KiB append + fdatasync p50 "
                    + "in the same directory right after: \(ScaleRow.milliseconds(apply.fdatasyncMilliseconds)) ms.",
            ]
        }
        if !people.isEmpty {
            lines += [""] + people
        }
        lines += ["", "### Targets (issue 28)", ""] + targetTable()
        if hasQueries {
            lines += [""] + queryTargetTable()
        }
        lines += ["", String(format: "Run took %.1f s.", seconds)]
        return lines.joined(separator: "\n")
    }

    private var workloadLine: String {
        "Each size: \(ScaleRun.setupCommands) setup commands (household, member, 4 wallets), then N `recordTransaction` "
            + "commands (one event each; business dates over 24 months, 10 expense and 4 income categories, a payee note on 65%, "
            + "a tag on 12%: `ScaleWorkload`) in batches of \(ScaleRun.batchCommands); every figure from a fresh child process. "
            + "Writes at N: \(run.options.singleCommands) single commands, \(run.options.batches) batches, "
            + "\(ScaleRun.concurrentTasks) tasks x \(run.options.concurrentCommandsPerTask) commands. Open: median of "
            + "\(run.options.openRuns) processes (peak RSS: the largest). Balances read by both agree at every size."
    }

    private func table() -> [String] {
        var header = "| measure |"
        var rule = "|---|"
        for size in sizes {
            header += " \(Self.sizeName(size)) Tally | \(Self.sizeName(size)) GRDB app |"
            rule += "---:|---:|"
        }
        var lines = [header, rule]
        for row in ScaleRow.all {
            var line = "| \(row.label) |"
            for size in sizes {
                let tally = row.tallyKey.flatMap { value(size, .tally, $0) }.map(row.format)
                let peer = row.peerKey.flatMap { value(size, .peer, $0) }.map(row.format)
                line += " \(tally ?? "n/a") | \(peer ?? "n/a") |"
            }
            lines.append(line)
        }
        return lines
    }

    static func sizeName(_ size: Int) -> String {
        if size >= 1_000_000, size % 1_000_000 == 0 { return "\(size / 1_000_000)M" }
        if size >= 1_000, size % 1_000 == 0 { return "\(size / 1_000)k" }
        return grouped(Double(size))
    }

    static func grouped(_ value: Double) -> String {
        guard value.isFinite else { return "-" }
        let digits = String(Int64(value.rounded()))
        var result = ""
        for (index, character) in digits.reversed().enumerated() {
            if index > 0, index % 3 == 0, character != "-" { result.append(",") }
            result.append(character)
        }
        return String(result.reversed())
    }
}

/// One row of the table: a label, the figure key of each subject, and its format.
struct ScaleRow: Sendable {
    let label: String
    let tallyKey: String?
    let peerKey: String?
    let format: @Sendable (Double) -> String

    static func count(_ value: Double) -> String { ScaleReport.grouped(value) }
    static func milliseconds(_ value: Double) -> String { String(format: "%.3f", value) }
    static func megabytes(_ value: Double) -> String { String(format: "%.1f", value) }
    static func bytes(_ value: Double) -> String { String(format: "%.1f MB", value / 1e6) }
    static func rate(_ value: Double) -> String { value < 100 ? String(format: "%.1f", value) : count(value) }

    static let all: [ScaleRow] = [
        ScaleRow(label: "Open + read all balances (ms)", tallyKey: "openMilliseconds", peerKey: "openMilliseconds", format: milliseconds),
        ScaleRow(label: "Open + read all balances: peak RSS of the process (MB)", tallyKey: "openPeakRSSMB", peerKey: "openPeakRSSMB", format: megabytes),
        ScaleRow(label: "Tally: read all balances from the read-side store, no engine (ms)", tallyKey: "storeOpenMilliseconds", peerKey: "openMilliseconds", format: milliseconds),
        ScaleRow(label: "Tally: read all balances from the store: peak RSS (MB)", tallyKey: "storeOpenPeakRSSMB", peerKey: "openPeakRSSMB", format: megabytes),
        ScaleRow(label: "Tally: events replayed at open (after the checkpoint)", tallyKey: "eventsReplayedAtOpen", peerKey: nil, format: count),
        ScaleRow(label: "RSS after N commands in one process (MB)", tallyKey: "rssAfterCommandsMB", peerKey: "rssAfterCommandsMB", format: megabytes),
        ScaleRow(label: "Building: N commands in batches of 1000 (commands/s)", tallyKey: "buildCommandsPerSecond", peerKey: "buildCommandsPerSecond", format: count),
        ScaleRow(label: "Single-command execute p50 (ms)", tallyKey: "singleP50Milliseconds", peerKey: "singleP50Milliseconds", format: milliseconds),
        ScaleRow(label: "Single-command execute p99 (ms)", tallyKey: "singleP99Milliseconds", peerKey: "singleP99Milliseconds", format: milliseconds),
        ScaleRow(label: "Raw 4 KiB append + fdatasync p50, same disk, same loop (ms)", tallyKey: "fdatasyncP50Milliseconds", peerKey: "fdatasyncP50Milliseconds", format: milliseconds),
        ScaleRow(label: "Batched execute, 1000 commands per batch (commands/s)", tallyKey: "batchedCommandsPerSecond", peerKey: "batchedCommandsPerSecond", format: count),
        ScaleRow(label: "Batched, until reads show the last batch (commands/s)", tallyKey: "batchedReadableCommandsPerSecond", peerKey: "batchedReadableCommandsPerSecond", format: count),
        ScaleRow(label: "64 concurrent tasks, one command per call (commands/s)", tallyKey: "concurrentCommandsPerSecond", peerKey: "concurrentCommandsPerSecond", format: count),
        ScaleRow(label: "Rebuild from the journal alone, `LedgerReplay.replay` (events/s)", tallyKey: "rebuildEventsPerSecond", peerKey: nil, format: count),
        ScaleRow(label: "Rebuild: peak RSS of the process (MB)", tallyKey: "rebuildPeakRSSMB", peerKey: nil, format: megabytes),
        ScaleRow(label: "Store rebuild, `Ledger.rebuildReadSide` / `tally rebuild` (events/s)", tallyKey: "storeRebuildEventsPerSecond", peerKey: nil, format: count),
        ScaleRow(label: "Store rebuild: peak RSS of the process, open included (MB)", tallyKey: "storeRebuildPeakRSSMB", peerKey: nil, format: megabytes),
        ScaleRow(label: "Verify-only (MB/s): `JournalVerifier.verify` vs `PRAGMA integrity_check`", tallyKey: "verifyMBPerSecond", peerKey: "verifyMBPerSecond", format: rate),
        ScaleRow(label: "`tally audit` CLI, full audit incl. replay and checkpoint comparison (MB of journal/s)", tallyKey: "cliAuditMBPerSecond", peerKey: nil, format: rate),
        ScaleRow(label: "Bytes: journal / SQLite database", tallyKey: "journalBytes", peerKey: "databaseBytes", format: bytes),
        ScaleRow(label: "Bytes: SQLite WAL (the peer's; Tally's is in its store row)", tallyKey: nil, peerKey: "walBytes", format: bytes),
        ScaleRow(label: "Bytes: the read-side store with the checkpoint and its history (read-side/, with its WAL)", tallyKey: "storeBytes", peerKey: nil, format: bytes),
        ScaleRow(label: "Bytes: rest of the ledger directory (key file)", tallyKey: "otherBytes", peerKey: nil, format: bytes),
    ]
}
