import BenchmarkSupport
import Foundation
import Tally

extension ScaleChild {
    /// One issue-15 query measurement on the built ledger: `warmups` queries of the plan untimed
    /// (the first queries of a fresh process read their pages from disk), then `repetitions`
    /// timed ones with varied parameters, or fewer once the timed queries took
    /// `QueryMeasurement.budgetSeconds` (and at least `samplesMin` ran), so a query that takes
    /// seconds at 1M does not hold the run for an hour. Reports p50, p95, the samples, the mean
    /// rows (cells) and the digest of what the first `QueryMeasurement.digestQueries` listed.
    static func query(_ request: ChildRequest) async throws -> Figures {
        guard let kind = request.query else { throw ScaleError.child("a query child needs a query") }
        let subject = try await request.subject.open(in: request.directory)
        var plan = QueryPlan(seed: request.seed, kind: kind)
        var measurement = QueryMeasurement(budgetSeconds: request.budgetSeconds, warmups: request.warmups)
        switch kind {
        case .hundredthPage:
            try await measureDeepPages(subject, plan: plan, request: request, into: &measurement)
        case .categoryMonthReport:
            for repetition in 0..<(request.warmups + request.repetitions) where !measurement.isOverBudget {
                let months = plan.nextReportMonths()
                let start = Stopwatch.now()
                let report = try await subject.categoryMonthReport(months)
                measurement.record(since: start, rows: report.cells, digest: report.digest, timed: repetition >= request.warmups)
            }
        case .secondPage:
            for repetition in 0..<(request.warmups + request.repetitions) where !measurement.isOverBudget {
                let query = plan.nextQuery(kind)
                let first = try await subject.page(query, after: nil)
                guard let cursor = first.next else { throw ScaleError.damaged("\(kind): \(query) has one page only") }
                let start = Stopwatch.now()
                let page = try await subject.page(query, after: cursor)
                measurement.record(since: start, rows: page.rowCount, digest: page.digest, timed: repetition >= request.warmups)
            }
        case .walletPage, .categoryPage, .monthPage, .combinedPage, .commonWordSearch, .rareWordSearch:
            for repetition in 0..<(request.warmups + request.repetitions) where !measurement.isOverBudget {
                let query = plan.nextQuery(kind)
                let start = Stopwatch.now()
                let page = try await subject.page(query, after: nil)
                measurement.record(since: start, rows: page.rowCount, digest: page.digest, timed: repetition >= request.warmups)
            }
        case .balanceObservation:
            throw ScaleError.child("the observation runs in its own child role")
        }
        var figures = measurement.figures(kind)
        if let peer = subject as? GRDBAppPeer, kind == .commonWordSearch || kind == .rareWordSearch {
            let words = kind == .commonWordSearch ? ScaleVocabulary.commonWords : ScaleVocabulary.rareWords
            figures[kind.matchesKey] = try await peer.meanMatches(of: words)
        }
        try await subject.close()
        return figures
    }

    /// Page 100 (or the last page) of each of the plan's deep lists: the cursors are found
    /// first by walking the pages, then the page after each is timed in turn.
    private static func measureDeepPages(
        _ subject: any QuerySubject, plan: QueryPlan, request: ChildRequest, into measurement: inout QueryMeasurement
    ) async throws {
        var cursors: [(query: ListQuery, cursor: String)] = []
        for query in plan.deepLists {
            var cursor: String?
            var page = try await subject.page(query, after: nil)
            for _ in 1..<Self.deepPageNumber {
                guard let next = page.next else { break }
                let following = try await subject.page(query, after: next)
                guard following.rowCount > 0 else { break }
                (cursor, page) = (next, following)
            }
            if let cursor { cursors.append((query, cursor)) }
        }
        guard !cursors.isEmpty else { throw ScaleError.damaged("no list has a second page") }
        for repetition in 0..<(request.warmups + request.repetitions) where !measurement.isOverBudget {
            let (query, cursor) = cursors[repetition % cursors.count]
            let start = Stopwatch.now()
            let page = try await subject.page(query, after: cursor)
            measurement.record(since: start, rows: page.rowCount, digest: page.digest, timed: repetition >= request.warmups)
        }
    }

    /// The page measured by `hundredthPage`.
    static let deepPageNumber = 100

    /// From `execute` returning to the balance observer receiving the new balances, over
    /// `repetitions` commands executed one after the other (each waits for its value, so none
    /// is coalesced). The observer is a task waiting on the subject's observation that stamps
    /// each value on arrival; a value that arrives before `execute` returns counts as 0 ms.
    static func observation(_ request: ChildRequest) async throws -> Figures {
        let kind = QueryKind.balanceObservation
        let subject = try await request.subject.open(in: request.directory)
        var workload = ScaleWorkload(seed: request.seed, phase: .observe, commandIndex: request.commands)
        let probe = try await subject.observeBalances()
        var arrivals = probe.arrivals.makeAsyncIterator()
        guard var expected = try await arrivals.next()?.balanceSum else { throw ScaleError.child("the observation ended before its first value") }
        var latency = LatencySamples()
        var arrivedBeforeReturn = 0
        for _ in 0..<request.repetitions {
            let command = workload.nextTransaction()
            expected += try Self.balanceChange(of: command)
            try await subject.execute(command)
            let returned = Stopwatch.now()
            while true {
                guard let arrival = try await arrivals.next() else { throw ScaleError.child("the observation ended") }
                guard arrival.balanceSum == expected else { continue }
                if arrival.arrivedAt <= returned { arrivedBeforeReturn += 1 }
                latency.nanoseconds.append(arrival.arrivedAt > returned ? arrival.arrivedAt - returned : 0)
                break
            }
        }
        probe.cancel()
        try await subject.close()
        return [
            kind.p50Key: latency.percentileMilliseconds(0.5),
            kind.p95Key: latency.percentileMilliseconds(0.95),
            kind.earlyKey: Double(arrivedBeforeReturn),
        ]
    }

    /// What `command` (a recorded transaction) adds to the sum of the balances.
    private static func balanceChange(of command: Command) throws -> Int64 {
        guard case .recordTransaction(_, let entry) = command.action else { throw ScaleError.damaged("not a transaction: \(command.action)") }
        return entry.kind == .income ? entry.amount.minorUnits : -entry.amount.minorUnits
    }
}

/// Latencies, rows and the digest of one query measurement.
struct QueryMeasurement {
    /// Timed seconds after which a measurement stops early (0: never).
    let budgetSeconds: Double
    /// Queries the digest covers: as many as every subject runs, budget or not.
    let digestQueries: Int
    private var latency = LatencySamples()
    private var rows = 0
    private var queries = 0
    private var digest: Int64 = 0

    /// A measurement stops early only after this many timed queries.
    static let samplesMin = 20

    init(budgetSeconds: Double, warmups: Int) {
        self.budgetSeconds = budgetSeconds
        digestQueries = warmups + Self.samplesMin
    }

    /// Whether the timed queries have used the budget (and at least `samplesMin` ran).
    var isOverBudget: Bool {
        budgetSeconds > 0 && latency.nanoseconds.count >= Self.samplesMin && latency.totalSeconds >= budgetSeconds
    }

    /// Adds one query that started at `start`; warm-up queries (`timed` false) are checked
    /// (their digest counts) but not timed. The digest covers the first `digestQueries`.
    mutating func record(since start: UInt64, rows count: Int, digest listed: Int64, timed: Bool) {
        let elapsed = Stopwatch.now() - start
        if queries < digestQueries { digest = digest &* 31 &+ listed }
        queries += 1
        guard timed else { return }
        latency.nanoseconds.append(elapsed)
        rows += count
    }

    func figures(_ kind: QueryKind) -> Figures {
        [
            kind.p50Key: latency.percentileMilliseconds(0.5),
            kind.p95Key: latency.percentileMilliseconds(0.95),
            kind.samplesKey: Double(latency.nanoseconds.count),
            kind.rowsKey: latency.nanoseconds.isEmpty ? 0 : Double(rows) / Double(latency.nanoseconds.count),
            // 52 bits: a Double holds them exactly.
            kind.digestKey: Double(UInt64(bitPattern: digest) & ((1 << 52) - 1)),
        ]
    }
}
