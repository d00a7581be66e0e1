import BenchmarkSupport
import Foundation
import SystemPackage
import Tally
import TallyJournal
import TallyModel

extension EncryptionCost {
    /// One ledger of the sealing rows.
    struct EngineVariant {
        let withNotes: Bool
        let encryption: JournalEncryption?
    }

    static let engineVariants = [
        EngineVariant(withNotes: false, encryption: nil),
        EngineVariant(withNotes: true, encryption: nil),
        EngineVariant(withNotes: true, encryption: EncryptionCost.encryption),
    ]

    /// `Ledger.execute` of `recordTransaction` batches (durability `.none`, no checkpoints, so
    /// the figure is validation + sealing + encoding + journal CPU), then `LedgerReplay.replay`
    /// of each ledger, for every variant.
    ///
    /// The commands go to fresh ledgers of `--sealing-ledger-commands` each (default 1000, one
    /// batch): `CommandExecutor.execute` copies the whole validation state for every command,
    /// so execute slows down linearly with the ledger's size (2,000 commands: ~2.9k events/s;
    /// 8,000: ~0.5k) and in a big ledger the copy would hide the sealing cost entirely.
    mutating func measureEngine() async throws {
        let variants = Self.engineVariants
        let perLedger = options.sealingLedgerCommands
        let ledgerCount = max(1, options.sealingCommands / perLedger)
        Comparison.progress("executing \(ledgerCount) x \(perLedger) recordTransaction commands per variant (no note, note, note + at rest)")
        var nanoseconds = Array(repeating: UInt64(0), count: variants.count)
        var appended = Array(repeating: 0, count: variants.count)
        var ledgerEvents = Array(repeating: UInt64(0), count: ledgerCount)
        for ledgerIndex in 0..<ledgerCount {
            var workloads = variants.map { SealingWorkload(seed: options.seed &+ UInt64(ledgerIndex), withNotes: $0.withNotes) }
            var ledgers: [Ledger] = []
            for (index, variant) in variants.enumerated() {
                var ledgerOptions = LedgerOptions(durability: .none)
                ledgerOptions.checkpointIntervalEvents = 0
                ledgerOptions.encryption = variant.encryption
                let ledger = try await Ledger.open(at: ledgerPath(variant: index, ledger: ledgerIndex), options: ledgerOptions)
                _ = try await ledger.execute(workloads[index].setup())
                ledgers.append(ledger)
            }
            var remaining = perLedger
            var batchIndex = ledgerIndex
            while remaining > 0 {
                let size = min(SealingWorkload.batchSize, remaining)
                let batches = workloads.indices.map { workloads[$0].nextBatch(size) }
                for offset in variants.indices {
                    let index = (batchIndex + offset) % variants.count
                    let start = Stopwatch.now()
                    let positions = try await ledgers[index].execute(batches[index])
                    nanoseconds[index] += Stopwatch.now() - start
                    appended[index] += positions.count
                }
                remaining -= size
                batchIndex += 1
            }
            ledgerEvents[ledgerIndex] = await ledgers[0].lastSequenceNumber
            for ledger in ledgers { try await ledger.close() }
        }
        precondition(Set(appended).count == 1, "the variants appended different numbers of events: \(appended)")
        engineTable.add(
            "Ledger.execute, batches of \(min(SealingWorkload.batchSize, perLedger)) recordTransaction, ledgers of \(NumberStyle.grouped(Double(perLedger))) (events/s)",
            higherIsBetter: true, variants.indices.map { Double(appended[$0]) / (Double(nanoseconds[$0]) / 1e9) })

        Comparison.progress("replaying every ledger, \(Self.readRounds) rounds")
        let events = ledgerEvents.reduce(0, +)
        var replayRates = Array(repeating: [Double](), count: variants.count)
        for round in 0..<Self.readRounds {
            for offset in variants.indices {
                let index = (round + offset) % variants.count
                var seconds = 0.0
                for ledgerIndex in 0..<ledgerCount {
                    var replayed: ReplayResult?
                    seconds += try Stopwatch.seconds {
                        replayed = try LedgerReplay.replay(at: ledgerPath(variant: index, ledger: ledgerIndex), encryption: variants[index].encryption)
                    }
                    precondition(
                        replayed?.lastSequenceNumber == ledgerEvents[ledgerIndex] && replayed?.unreadablePersonalTexts == 0,
                        "replay incomplete")
                }
                replayRates[index].append(Double(events) / seconds)
            }
        }
        engineTable.add(
            "LedgerReplay.replay, \(NumberStyle.grouped(Double(events))) events in \(ledgerCount) ledgers (events/s, median of \(Self.readRounds))",
            higherIsBetter: true, replayRates.map(CostTable.median))
        engineTable.add("Journal bytes on disk per event", higherIsBetter: false, format: .bytes, variants.indices.map { index in
            let bytes = (0..<ledgerCount).reduce(Int64(0)) { total, ledgerIndex in
                total + DiskUsage.bytes(at: LedgerDirectory(ledgerPath(variant: index, ledger: ledgerIndex)).journal.string)
            }
            return Double(bytes) / Double(events)
        })
    }

    func ledgerPath(variant: Int, ledger: Int) -> FilePath {
        FilePath(path("ledger-\(variant)-\(ledger)"))
    }
}
