import Foundation

extension ScaleReport {
    /// Issue 28, item 4: single `addPerson` commands against the people already in the ledger,
    /// with default options and without the read side, and the target (the cost does not grow
    /// with the people).
    func peopleSection() -> [String] {
        let counts = run.options.peopleBefore.filter { run.people[$0] != nil }
        guard !counts.isEmpty else { return [] }
        let configurations = [("default options", ""), ("no read side", ScaleRun.noReadSidePrefix)]
        func value(_ count: Int, _ prefix: String, _ key: String) -> Double? { run.people[count]?[prefix + key] }
        let added = Self.grouped(Double(run.options.peopleAdded))
        var lines = [
            "### addPerson against the people already in the ledger (issue 28, item 4)",
            "",
            "\(added) single `addPerson` commands, one `execute` each (`.synchronous`; each seals a new person's name, so each "
                + "writes a new personal key before its append, P2), into a new ledger holding N people (added in batches of "
                + "\(ScaleRun.batchCommands), untimed), with default options and without the read side "
                + "(`keepsReadSide = false`: the engine and its key file alone); raw 4 KiB append + fdatasync p50 in the same "
                + "directory right after.",
            "",
            "| people before | ledger | \(added) addPerson (s) | addPerson p50 (ms) | addPerson p99 (ms) | raw fdatasync p50 (ms) | key file after (bytes) |",
            "|---:|---|---:|---:|---:|---:|---:|",
        ]
        for count in counts {
            for (label, prefix) in configurations {
                let cells = [
                    value(count, prefix, "peopleAddSeconds").map { String(format: "%.2f", $0) },
                    value(count, prefix, "peopleAddP50Milliseconds").map(ScaleRow.milliseconds),
                    value(count, prefix, "peopleAddP99Milliseconds").map(ScaleRow.milliseconds),
                    value(count, prefix, "peopleFdatasyncP50Milliseconds").map(ScaleRow.milliseconds),
                    value(count, prefix, "keyFileBytes").map(ScaleRow.count),
                ]
                lines.append("| \(Self.sizeName(count)) | \(label) | " + cells.map { $0 ?? "n/a" }.joined(separator: " | ") + " |")
            }
        }
        guard let fewest = counts.min(), let most = counts.max(), fewest != most else { return lines }
        lines.append("")
        for (label, prefix) in configurations {
            guard let small = value(fewest, prefix, "peopleAddP50Milliseconds"), let large = value(most, prefix, "peopleAddP50Milliseconds") else { continue }
            let ratio = large / small
            lines.append("Target (\(label)): addPerson p50 with \(Self.sizeName(most)) people <= 1.5x with \(Self.sizeName(fewest)): "
                + String(format: "%.2fx", ratio) + " (\(ratio <= 1.5 ? "MET" : "MISSED")).")
            lines.append("")
        }
        return Array(lines.dropLast())
    }
}
