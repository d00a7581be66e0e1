import Foundation

extension ScaleReport {
    /// Whether any size has issue-15 figures.
    var hasQueries: Bool {
        sizes.contains { run.results[$0]?[.tally]?[QueryKind.walletPage.p50Key] != nil }
    }

    /// Issue 15: p50 / p95 of every measurement, Tally and the peer side by side per size, and
    /// what the figures rest on (both subjects listed the same rows; how many rows a search
    /// matches; observed values that arrived before `execute` returned).
    func queryTable() -> [String] {
        var header = "| measure (ms, p50 / p95) |"
        var rule = "|---|"
        for size in sizes {
            header += " \(Self.sizeName(size)) Tally | \(Self.sizeName(size)) GRDB app |"
            rule += "---:|---:|"
        }
        var lines = [
            "### Queries, reports and observation (issue 15)", "",
            "Each measurement in a fresh child process per subject on the ledger built above: "
                + "\(run.options.queryWarmups) untimed queries, then \(run.options.queryRepetitions) timed ones with varied "
                + "parameters (`QueryPlan`), or fewer (n=) once the timed ones took \(run.options.querySecondsMax) s; 50-row "
                + "pages, newest first. Observation: \(run.options.observedCommands) commands, each waiting for its value.", "",
            header, rule,
        ]
        for kind in QueryKind.allCases {
            var line = "| \(kind.label) |"
            for size in sizes {
                line += " \(percentiles(size, .tally, kind)) | \(percentiles(size, .peer, kind)) |"
            }
            lines.append(line)
        }
        return lines + [""] + queryNotes()
    }

    /// "p50 / p95", with the number of samples when the time budget cut the measurement short.
    private func percentiles(_ size: Int, _ subject: SubjectKind, _ kind: QueryKind) -> String {
        let figures = run.results[size]?[subject]
        guard let p50 = figures?[kind.p50Key], let p95 = figures?[kind.p95Key] else { return "n/a" }
        let samples = figures?[kind.samplesKey].map { Int($0) }
        let cut = samples.map { kind != .balanceObservation && $0 < run.options.queryRepetitions } ?? false
        return "\(ScaleRow.milliseconds(p50)) / \(ScaleRow.milliseconds(p95))" + (cut ? " (n=\(samples ?? 0))" : "")
    }

    private func queryNotes() -> [String] {
        var notes: [String] = []
        let listing = QueryKind.allCases.filter { $0 != .balanceObservation }
        let mismatches = sizes.flatMap { size in
            listing.compactMap { kind -> String? in
                let tally = run.results[size]?[.tally]?[kind.digestKey], peer = run.results[size]?[.peer]?[kind.digestKey]
                return tally != nil && tally == peer ? nil : "\(kind.rawValue) at \(Self.sizeName(size))"
            }
        }
        notes.append(mismatches.isEmpty
            ? "- Both subjects listed the same rows in the same order for every page and report at every size (digests agree)."
            : "- **The subjects listed different rows** (digests differ): \(mismatches.joined(separator: ", ")).")
        let rows = listing.map { kind in
            "\(kind.rawValue) \(sizes.map { size in ScaleRow.rate(run.results[size]?[.tally]?[kind.rowsKey] ?? .nan) }.joined(separator: "/"))"
        }
        notes.append("- Mean rows per page (cells per report), at \(sizes.map(Self.sizeName).joined(separator: "/")): \(rows.joined(separator: ", ")).")
        for kind in [QueryKind.commonWordSearch, .rareWordSearch] {
            let matches = sizes.map { size in ScaleRow.count(run.results[size]?[.peer]?[kind.matchesKey] ?? .nan) }
            notes.append("- \(kind.label): a searched word matches \(matches.joined(separator: " / ")) transactions on average "
                + "(at \(sizes.map(Self.sizeName).joined(separator: " / "))); the newest 50 of them make the page.")
        }
        let observation = QueryKind.balanceObservation
        let early = sizes.map { size in
            SubjectKind.allCases.map { subject in
                "\(subject.title) \(ScaleRow.count(run.results[size]?[subject]?[observation.earlyKey] ?? .nan))"
            }.joined(separator: ", ") + " at \(Self.sizeName(size))"
        }
        notes.append("- Observed values that arrived before `execute` returned (counted as 0 ms), of \(run.options.observedCommands): "
            + early.joined(separator: "; ") + ".")
        return notes
    }

    /// The issue-15 targets against the largest size measured.
    func queryTargetTable() -> [String] {
        let largest = sizes.last ?? 0
        var rows = [
            "### Targets (issue 15, at \(Self.sizeName(largest)))", "",
            "| query | Tally p50 / p95 (ms) | GRDB app p50 / p95 (ms) | target | verdict |", "|---|---:|---:|---|---|",
        ]
        for kind in QueryKind.allCases {
            let target = kind.target
            let key = target.percentile == .p50 ? kind.p50Key : kind.p95Key
            let measured = run.results[largest]?[.tally]?[key]
            let verdict = measured.map { $0 <= target.milliseconds ? "MET" : "MISSED" } ?? "n/a"
            rows.append("| \(kind.label) | \(percentiles(largest, .tally, kind)) | \(percentiles(largest, .peer, kind)) | "
                + "\(target.percentile.rawValue) <= \(ScaleRow.rate(target.milliseconds)) ms | \(verdict) |")
        }
        if !sizes.isEmpty, largest < 1_000_000 {
            rows += ["", "The largest size measured is \(Self.sizeName(largest)), not 1M: the 1M targets are judged at \(Self.sizeName(largest))."]
        }
        return rows
    }
}
