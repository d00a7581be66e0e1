import Tally
import TallyJournal
import TallyTestSupport

/// A ledger in a fresh temporary directory, without fsync (tests only).
struct TestLedger {
    let directory: TemporaryDirectory
    let ledger: Ledger

    /// - Parameter durability: `.none` (no fsync) by default; the read-side store commits only
    /// what is durable, so tests of queries ask for `.synchronous`.
    static func make(_ label: String = "ledger", durability: DurabilityPolicy = .none) async throws -> TestLedger {
        let directory = try TemporaryDirectory("tally-engine-\(label)")
        let ledger = try await Ledger.open(at: directory.appending("ledger"), options: LedgerOptions(durability: durability))
        return TestLedger(directory: directory, ledger: ledger)
    }

    func reopen() async throws -> Ledger {
        try await Ledger.open(at: directory.appending("ledger"), options: LedgerOptions(durability: .none))
    }
}
