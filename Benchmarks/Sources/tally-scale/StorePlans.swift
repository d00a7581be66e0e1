import BenchmarkSupport
import Foundation
import GRDB
import TallySQLiteEncryption
import TallyStore

/// `tally-scale explain LEDGER_DIR`: where the issue-15 queries spend their time in the
/// read-side store. Copies the store of a ledger built by `tally-scale --keep` (an unencrypted
/// ledger: its pages are sealed with the public `LedgerStore.integrityKey`), and for each
/// query prints SQLite's `EXPLAIN QUERY PLAN` and the time of the bare SQL (median and p95 of
/// `runs`, every row fetched), then the same for the proposed indexes and rewrites, which are
/// created on the copy only.
///
/// The SQL is copied from `Sources/TallyStore/LedgerStore+Queries.swift` (schema 4, commit
/// cd044d7); compare the two after a change to the store.
struct StorePlans {
    let pool: DatabasePool
    let plan: QueryPlan
    let runs: Int

    /// One query to explain and time.
    struct Probe {
        let name: String
        let sql: String
        let arguments: StatementArguments
    }

    static func run(_ arguments: [String]) throws {
        guard let ledger = arguments.first else { throw ScaleError.child("usage: tally-scale explain LEDGER_DIR [--seed N] [--runs N]") }
        var seed = ScaleOptions().seed
        var runs = 20
        var remaining = arguments.dropFirst()
        while let flag = remaining.popFirst() {
            guard let value = remaining.popFirst().flatMap({ ScaleOptions.count($0) }) else { throw ScaleError.child("\(flag) needs a number") }
            switch flag {
            case "--seed": seed = UInt64(value)
            case "--runs": runs = max(1, value)
            default: throw ScaleError.child("unknown option \(flag)")
            }
        }
        let copy = try copyStore(of: ledger)
        defer { try? FileManager.default.removeItem(atPath: (copy as NSString).deletingLastPathComponent) }
        let plans = StorePlans(
            pool: try EncryptedSQLite.openPool(atPath: copy, key: LedgerStore.integrityKey),
            plan: QueryPlan(seed: seed, kind: .walletPage), runs: runs)
        try plans.explainAll()
        try plans.pool.close()
    }

    /// Copies `read-side/read-side.sqlite` and its WAL to a fresh directory beside the ledger.
    private static func copyStore(of ledger: String) throws -> String {
        let source = ledger + "/read-side/" + LedgerStore.fileName
        let directory = (ledger as NSString).deletingLastPathComponent + "/explain-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let target = directory + "/" + LedgerStore.fileName
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: source + suffix) {
            try FileManager.default.copyItem(atPath: source + suffix, toPath: target + suffix)
        }
        return target
    }

    private func explainAll() throws {
        for probe in try storeProbes() { try explain(probe) }
        for (index, probes) in try proposals() {
            print("\n#### Proposal: \(index)\n")
            if let ddl = index.ddl {
                let seconds = try Stopwatch.seconds { try pool.writeWithoutTransaction { try $0.execute(sql: ddl) } }
                print("`\(ddl)` (built in \(String(format: "%.1f", seconds)) s on the copy)\n")
            }
            for probe in probes { try explain(probe) }
        }
    }

    /// Prints the plan and the timing of `probe`.
    private func explain(_ probe: Probe) throws {
        let plan = try pool.read { database in
            // EXPLAIN reads no table, so it would not notice an index created since this
            // connection last read the schema: read it first.
            _ = try Int.fetchOne(database, sql: "SELECT COUNT(*) FROM sqlite_master")
            return try Row.fetchAll(database, sql: "EXPLAIN QUERY PLAN " + probe.sql, arguments: probe.arguments).map { row -> String in
                row["detail"] ?? "?"
            }
        }
        var latency = LatencySamples()
        var rows = 0
        for _ in 0..<runs {
            let start = Stopwatch.now()
            rows = try pool.read { database in try Row.fetchAll(database, sql: probe.sql, arguments: probe.arguments).count }
            latency.record(since: start)
        }
        print("**\(probe.name)**: \(rows) rows, median \(ScaleRow.milliseconds(latency.percentileMilliseconds(0.5))) ms, "
            + "p95 \(ScaleRow.milliseconds(latency.percentileMilliseconds(0.95))) ms\n")
        print("```\n" + plan.joined(separator: "\n") + "\n```\n")
    }
}
