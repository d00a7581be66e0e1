import Foundation

/// Command-line options of `tally-scale`.
struct ScaleOptions {
    /// Ledger sizes in transactions (each one event, after 6 setup commands).
    var sizes = [10_000, 100_000]
    /// Single durable commands per subject for the p50/p99 rows.
    var singleCommands = 300
    /// Batches of 1000 commands per subject for the batched row.
    var batches = 10
    /// Commands each of the 64 concurrent tasks executes (one per call).
    var concurrentCommandsPerTask = 20
    /// Child processes per subject for "open + read balances" (the median time is reported).
    var openRuns = 3
    /// Lines of the `tally apply` file (0: skip the row).
    var applyCommands = 200_000
    /// Issue 15: timed queries per measurement and subject (0: skip the queries and the
    /// observation), after `queryWarmups` untimed ones.
    var queryRepetitions = 200
    var queryWarmups = 10
    /// Issue 15: timed seconds after which one query measurement stops early (0: never).
    var querySecondsMax = 60
    /// Issue 15: commands whose balance the observer waits for, per subject.
    var observedCommands = 200
    /// Issue 28, item 4: the people a new ledger holds before the timed `addPerson` commands,
    /// one measurement each, and how many are timed (0: skip).
    var peopleBefore = [10, 10_000]
    var peopleAdded = 500
    /// The `tally` CLI binary; default: `tally` next to this executable when it was built.
    var cliPath: String?
    /// Also write the Markdown report here.
    var outputPath: String?
    var directory = NSTemporaryDirectory() + "tally-scale-\(getpid())"
    var keep = false
    var seed: UInt64 = 0x7A11_0014

    static let usage = """
        usage: tally-scale [--sizes 10k,100k,1M] [--single-commands N] [--batches N]
                           [--concurrent-commands-per-task N] [--open-runs N] [--apply-commands N]
                           [--query-repetitions N] [--query-warmups N] [--query-seconds-max N]
                           [--observed-commands N] [--people-before 10,10k] [--people-added N]
                           [--tally PATH] [--output FILE] [--directory PATH] [--keep] [--seed N]
        Sizes take k and M suffixes; --sizes none runs only the apply row; --query-repetitions 0 skips the
        issue-15 queries and the observation; --people-added 0 skips the addPerson rows (issue 28).
        Build the CLI first for the audit and apply rows:
        swift build -c release --product tally
        """

    static func parse(_ arguments: [String]) -> ScaleOptions {
        var options = ScaleOptions()
        var remaining = arguments[...]
        func value(_ flag: String) -> String {
            guard let text = remaining.popFirst() else { fail("\(flag) needs a value") }
            return text
        }
        func number(_ flag: String, allowZero: Bool = false) -> Int {
            guard let count = Self.count(value(flag)), count > 0 || (allowZero && count == 0) else {
                fail("\(flag) needs a \(allowZero ? "non-negative" : "positive") number")
            }
            return count
        }
        while let flag = remaining.popFirst() {
            switch flag {
            case "--sizes" where remaining.first == "none":
                _ = remaining.popFirst()
                options.sizes = []
            case "--sizes":
                let sizes = value(flag).split(separator: ",").map { Self.count(String($0)) }
                guard !sizes.isEmpty, sizes.allSatisfy({ ($0 ?? 0) > 0 }) else { fail("--sizes needs counts like 10k,100k,1M") }
                options.sizes = sizes.compactMap { $0 }
            case "--single-commands": options.singleCommands = number(flag)
            case "--batches": options.batches = number(flag)
            case "--concurrent-commands-per-task": options.concurrentCommandsPerTask = number(flag)
            case "--open-runs": options.openRuns = number(flag)
            case "--apply-commands": options.applyCommands = number(flag, allowZero: true)
            case "--query-repetitions": options.queryRepetitions = number(flag, allowZero: true)
            case "--query-warmups": options.queryWarmups = number(flag, allowZero: true)
            case "--query-seconds-max": options.querySecondsMax = number(flag, allowZero: true)
            case "--observed-commands": options.observedCommands = number(flag)
            case "--people-before":
                let counts = value(flag).split(separator: ",").map { Self.count(String($0)) }
                guard !counts.isEmpty, counts.allSatisfy({ ($0 ?? 0) >= 2 }) else { fail("--people-before needs counts of at least 2 like 10,10k") }
                options.peopleBefore = counts.compactMap { $0 }
            case "--people-added": options.peopleAdded = number(flag, allowZero: true)
            case "--seed": options.seed = UInt64(number(flag))
            case "--tally": options.cliPath = value(flag)
            case "--output": options.outputPath = value(flag)
            case "--directory": options.directory = value(flag)
            case "--keep": options.keep = true
            case "--help", "-h":
                print(usage)
                exit(0)
            default: fail("unknown option \(flag)")
            }
        }
        return options
    }

    /// "10k" = 10,000, "1M" = 1,000,000, "2_000" = 2,000; nil when not a count.
    static func count(_ text: String) -> Int? {
        let plain = text.replacingOccurrences(of: "_", with: "")
        let multipliers: [Character: Int] = ["k": 1_000, "K": 1_000, "m": 1_000_000, "M": 1_000_000]
        if let last = plain.last, let multiplier = multipliers[last] {
            return Int(plain.dropLast()).map { $0 * multiplier }
        }
        return Int(plain)
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("tally-scale: \(message)\n\(usage)\n".utf8))
        exit(2)
    }
}
