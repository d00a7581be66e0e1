import BenchmarkSupport
import Foundation
import SystemPackage
import TallyJournal
import TallyModel
import TallyWorkload

/// `tally-compare --encryption-cost`: what encryption costs on append and replay (issue 7).
///
/// Two tables, each comparing variants of the same store in one run, batch by batch in turn
/// (the first variant rotates), so disk and CPU noise hit all variants alike:
/// - the journal with and without encryption at rest (`JournalOptions.encryption`), on the
///   generated workload (`--events`): durable and `.none` appends of 1000-event batches
///   (encoding included, as in the main table), read + decode, read without decode, bytes;
/// - the engine (`Ledger.execute`, `LedgerReplay.replay`) on `--sealing-commands`
///   `recordTransaction` commands (in fresh ledgers of `--sealing-ledger-commands`) without a note, with a note (one personal text sealed per
///   event on append and opened per event on replay), and with a note on a ledger encrypted
///   at rest.
@MainActor
struct EncryptionCost {
    let options: CompareOptions
    var journalTable = CostTable(variants: ["plain", "encrypted at rest"])
    var engineTable = CostTable(variants: ["no note", "note", "note + encrypted at rest"])
    /// Reads and replays are repeated this many times per variant; the tables show the median.
    static let readRounds = 3

    init(options: CompareOptions) {
        self.options = options
    }

    /// A fixed AES-256 key: the benchmark needs a key, not a secret.
    static let encryption: JournalEncryption = {
        do {
            return try JournalEncryption(keyID: 1, key: (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
        } catch {
            preconditionFailure("a 32-byte key with id 1 is valid: \(error)")
        }
    }()

    mutating func run() async throws {
        try FileManager.default.createDirectory(atPath: options.directory, withIntermediateDirectories: true)
        defer { if !options.keep { try? FileManager.default.removeItem(atPath: options.directory) } }
        try await measureJournal()
        try await measureEngine()
    }

    func path(_ name: String) -> String { options.directory + "/" + name }

    /// Journal appends (durable and `.none`) and reads, plain vs encrypted at rest.
    mutating func measureJournal() async throws {
        let variants: [JournalEncryption?] = [nil, Self.encryption]
        var durable: [Double] = []
        var cpuOnly: [Double] = []
        for (label, durability) in [("durable", DurabilityPolicy.synchronous), ("nosync", .none)] {
            Comparison.progress("appending \(options.events) events in batches of 1000, \(label), plain and encrypted")
            let journals = try variants.enumerated().map { index, encryption in
                var journalOptions = JournalOptions(durability: durability)
                journalOptions.encryption = encryption
                return try Journal.open(at: FilePath(path("journal-\(label)-\(index)")), options: journalOptions)
            }
            let seconds = try await Self.appendInTurns(HouseholdHistory(count: options.events, seed: options.seed), to: journals)
            for journal in journals { try journal.close() }
            let rates = seconds.map { Double(options.events) / $0 }
            if durability == .synchronous { durable = rates } else { cpuOnly = rates }
        }
        journalTable.add("Durable append, batches of 1000, encode included (events/s)", higherIsBetter: true, durable.map { $0 })
        journalTable.add("Append, batches of 1000, no fdatasync (events/s, CPU)", higherIsBetter: true, cpuOnly.map { $0 })

        Comparison.progress("reading back the durable journals, \(Self.readRounds) rounds each")
        var decoded = Array(repeating: [Double](), count: variants.count)
        var raw = Array(repeating: [Double](), count: variants.count)
        for round in 0..<Self.readRounds {
            for offset in variants.indices {
                let index = (round + offset) % variants.count
                let directory = path("journal-durable-\(index)")
                decoded[index].append(try Self.readRate(directory, encryption: variants[index], decode: true, expected: options.events))
                raw[index].append(try Self.readRate(directory, encryption: variants[index], decode: false, expected: options.events))
            }
        }
        journalTable.add("Full read + decode (events/s, median of \(Self.readRounds))", higherIsBetter: true, decoded.map(CostTable.median))
        journalTable.add("Full read, no decode (events/s, median of \(Self.readRounds))", higherIsBetter: true, raw.map(CostTable.median))
        journalTable.add("Bytes on disk per event", higherIsBetter: false, format: .bytes, variants.indices.map { index in
            Double(DiskUsage.bytes(at: path("journal-durable-\(index)"))) / Double(options.events)
        })
        journalTable.add("Encoded payload bytes per event (mean, uncompressed)", higherIsBetter: false, format: .bytes, try variants.indices.map { index in
            try Self.meanPayloadBytes(path("journal-durable-\(index)"), encryption: variants[index])
        })
    }

    /// The mean payload size of the records in the journal in `directory`.
    static func meanPayloadBytes(_ directory: String, encryption: JournalEncryption?) throws -> Double {
        var count = 0
        var bytes = 0
        try JournalReader.open(at: FilePath(directory), encryption: encryption).forEachRecord { record in
            bytes += record.payload.count
            count += 1
            return true
        }
        return Double(bytes) / Double(max(1, count))
    }

    /// Appends `history` in 1000-event batches to every journal in turn (encoding each batch
    /// inside the timed region, as `TallyPeer` does); returns the seconds spent per journal.
    static func appendInTurns(_ history: HouseholdHistory, to journals: [Journal]) async throws -> [Double] {
        var nanoseconds = Array(repeating: UInt64(0), count: journals.count)
        for (batchIndex, events) in history.batches(of: 1000).enumerated() {
            for offset in journals.indices {
                let index = (batchIndex + offset) % journals.count
                let start = Stopwatch.now()
                try await journals[index].append(events.map(EncodedHistory.record))
                nanoseconds[index] += Stopwatch.now() - start
            }
        }
        return nanoseconds.map { Double($0) / 1e9 }
    }

    /// Events per second of one full read of the journal in `directory`.
    static func readRate(_ directory: String, encryption: JournalEncryption?, decode: Bool, expected: Int) throws -> Double {
        var count = 0
        var checksum = 0
        let seconds = try Stopwatch.seconds {
            let reader = try JournalReader.open(at: FilePath(directory), encryption: encryption)
            try reader.forEachRecord { record in
                if decode {
                    checksum &+= Int(truncatingIfNeeded: try EncodedHistory.decode(record).recordedAt.millisecondsSinceEpoch)
                } else {
                    checksum &+= record.payload.count
                }
                count += 1
                return true
            }
        }
        precondition(count == expected && checksum != 0, "read \(count) of \(expected) events")
        return Double(count) / seconds
    }

    /// The report printed by `tally-compare --encryption-cost`.
    func report() -> String {
        """
        ### Encryption at rest: journal, \(NumberStyle.grouped(Double(options.events))) generated events, seed \(options.seed)

        \(journalTable.markdown())

        ### Personal-text sealing: engine, \(NumberStyle.grouped(Double(options.sealingCommands))) recordTransaction commands \
        in ledgers of \(NumberStyle.grouped(Double(options.sealingLedgerCommands))), durability .none

        \(engineTable.markdown())
        """
    }
}
