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

    /// Opens the ledger again with `limits` as the host's entity caps (``LedgerOptions/entityLimits``).
    func reopen(limits: EntityLimits) async throws -> Ledger {
        var options = LedgerOptions(durability: .none)
        options.entityLimits = limits
        return try await Ledger.open(at: directory.appending("ledger"), options: options)
    }

    /// A fresh ledger whose host caps live entities (``LedgerOptions/entityLimits``).
    static func make(_ label: String, limits: EntityLimits) async throws -> TestLedger {
        let directory = try TemporaryDirectory("tally-engine-\(label)")
        var options = LedgerOptions(durability: .none)
        options.entityLimits = limits
        let ledger = try await Ledger.open(at: directory.appending("ledger"), options: options)
        return TestLedger(directory: directory, ledger: ledger)
    }
}
