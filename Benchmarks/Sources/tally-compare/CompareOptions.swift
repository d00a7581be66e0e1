import Foundation

/// Command-line options of `tally-compare`.
struct CompareOptions {
    /// Events appended in batches of 1000 and then read back and verified, per peer.
    var events = 200_000
    /// Events appended one by one (durably) per peer, for latency and batch-of-1 throughput.
    var singleEvents = 2_000
    /// Events appended by 64 concurrent tasks, one event per append, to Tally.
    var concurrentEvents = 12_800
    /// Events of the journal that the streaming-read memory test reads (default: `events`).
    var memoryEvents: Int?
    /// Events in the ledger of the engine rows (replay, open with checkpoint); default 1,000,000.
    var engineEvents = 1_000_000
    /// Run only the encryption-cost tables (at rest and personal-text sealing) instead of the
    /// comparison of stores.
    var encryptionCost = false
    /// `recordTransaction` commands per ledger in the sealing rows of `--encryption-cost`.
    var sealingCommands = 20_000
    /// Commands per ledger in the sealing rows (fresh ledgers keep the engine's per-command state
    /// copy small; see `EncryptionCost.measureEngine`).
    var sealingLedgerCommands = 1_000
    /// Where the stores are created; removed afterwards unless `keep`.
    var directory = NSTemporaryDirectory() + "tally-compare-\(getpid())"
    var keep = false
    var seed: UInt64 = 0x7A11_2026

    static let usage = """
        usage: tally-compare [--events N] [--single-events N] [--concurrent-events N]
                             [--memory-events N] [--engine-events N] [--directory PATH] [--keep] [--seed N]
               tally-compare --encryption-cost [--events N] [--sealing-commands N]
                             [--sealing-ledger-commands N] [--directory PATH] [--keep] [--seed N]
        """

    /// Parses `arguments` (without the program name); prints usage and exits on a bad one.
    static func parse(_ arguments: [String]) -> CompareOptions {
        var options = CompareOptions()
        var remaining = arguments[...]
        func number(_ flag: String) -> Int {
            guard let text = remaining.popFirst(), let value = Int(text.replacingOccurrences(of: "_", with: "")), value > 0 else {
                fail("\(flag) needs a positive number")
            }
            return value
        }
        while let flag = remaining.popFirst() {
            switch flag {
            case "--events": options.events = number(flag)
            case "--single-events": options.singleEvents = number(flag)
            case "--concurrent-events": options.concurrentEvents = max(64, number(flag) / 64 * 64)
            case "--memory-events": options.memoryEvents = number(flag)
            case "--engine-events": options.engineEvents = number(flag)
            case "--seed": options.seed = UInt64(number(flag))
            case "--encryption-cost": options.encryptionCost = true
            case "--sealing-commands": options.sealingCommands = number(flag)
            case "--sealing-ledger-commands": options.sealingLedgerCommands = number(flag)
            case "--directory":
                guard let path = remaining.popFirst() else { fail("--directory needs a path") }
                options.directory = path
            case "--keep": options.keep = true
            case "--help", "-h":
                print(usage)
                exit(0)
            default: fail("unknown option \(flag)")
            }
        }
        return options
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("tally-compare: \(message)\n\(usage)\n".utf8))
        exit(2)
    }
}
