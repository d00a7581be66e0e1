import BenchmarkSupport
import Foundation
import SystemPackage
import TallyJournal
import TallyModel
import TallyWorkload

/// Tally's journal: default `.synchronous` durability (fdatasync, group commit), one
/// `NewRecord` per event encoded with `EventCodec`.
@MainActor
final class TallyPeer: StoragePeer {
    let name = "Tally"
    let directory: String
    private var journal: Journal?

    init(directory: String, durability: DurabilityPolicy = .synchronous) throws {
        self.directory = directory
        journal = try Journal.open(at: FilePath(directory), options: JournalOptions(durability: durability))
    }

    func append(_ batch: PreparedBatch) async throws {
        guard let journal else { preconditionFailure("append after finishWriting") }
        try await journal.append(batch.events.map(EncodedHistory.record))
    }

    func finishWriting() throws {
        try journal?.close()
        journal = nil
    }

    func diskBytes() -> Int64 { DiskUsage.bytes(at: directory) }

    func scanAndDecode() throws -> Int {
        try Self.scan(directory, decode: true)
    }

    /// Reads the journal in `directory`, decoding every event when `decode`.
    nonisolated static func scan(_ directory: String, decode: Bool) throws -> Int {
        let reader = try JournalReader.open(at: FilePath(directory))
        var count = 0
        var checksum = 0
        try reader.forEachRecord { record in
            if decode {
                let event = try EncodedHistory.decode(record)
                checksum &+= Int(truncatingIfNeeded: event.recordedAt.millisecondsSinceEpoch)
            } else {
                checksum &+= record.payload.count
            }
            count += 1
            return true
        }
        precondition(checksum != 0 || count == 0)
        return count
    }

    func verify() throws -> Int64? {
        let report = try JournalVerifier.verify(at: FilePath(directory))
        precondition(report.isClean, "journal verification found problems: \(report.problems)")
        return report.bytesVerified
    }
}
