import Foundation
import SystemPackage
import Testing
import TallyJournal
import TallyTestSupport
import TallyFuzzTargets

/// Writes the generated seeds of the journal target (compressed, keyed, encrypted, rotated and
/// torn journals) with the real writer. Runs only with `TALLY_RECORD_FUZZ_CORPUS=1`; the files
/// are checked in like any other seed.
@Suite("Journal fuzz seeds")
struct JournalSeedRecording {
    static let isRecording = ProcessInfo.processInfo.environment["TALLY_RECORD_FUZZ_CORPUS"] == "1"

    @Test("record the generated journal seeds", .enabled(if: isRecording))
    func recordGeneratedJournalSeeds() async throws {
        let corpus = FuzzCorpusTests.fuzzDirectory.appendingPathComponent("Corpus/journal-frames")
        let encryption = try JournalEncryption(keyID: 1, key: JournalImage.encryptionKey)
        var seeds: [(String, [UInt8])] = []

        var keyed = JournalOptions()
        keyed.chainKey = JournalImage.chainKey
        seeds.append(("generated-keyed-chain.segment", try await journalImage(keyed, appends: 2)))

        var encrypted = JournalOptions()
        encrypted.encryption = encryption
        seeds.append(("generated-encrypted.segment", try await journalImage(encrypted, appends: 2)))

        var rotated = JournalOptions()
        rotated.segmentBytesMax = 4096
        seeds.append(("generated-three-segments.segment", try await journalImage(rotated, appends: 5, incompressibleBytes: 600)))

        let compressed = try await journalImage(JournalOptions(), appends: 3)
        seeds.append(("generated-compressed.segment", compressed))
        seeds.append(("generated-torn-tail.segment", Array(compressed.dropLast(10))))

        for (name, bytes) in seeds {
            try Data(bytes).write(to: corpus.appendingPathComponent(name))
        }
    }

    /// Writes `appends` frames (the first of 40 compressible records, then small ones, or
    /// records of `incompressibleBytes` pseudo-random bytes when given) and returns the segment
    /// files back to back.
    private func journalImage(_ options: JournalOptions, appends: Int, incompressibleBytes: Int? = nil) async throws -> [UInt8] {
        var random = SeededRandom(seed: 7)
        let fileSystem = FaultInjectingFileSystem()
        let directory = FilePath("/journal")
        let journal = try Journal.open(at: directory, options: options, fileSystem: fileSystem)
        for append in 0..<appends {
            let count = incompressibleBytes != nil ? 3 : append == 0 ? 40 : 2 + append % 3
            var records: [NewRecord] = []
            for index in 0..<count {
                let payload: [UInt8] = if let incompressibleBytes {
                    random.bytes(incompressibleBytes)
                } else if append == 0 {
                    Array(repeating: 0x2A, count: 48)
                } else {
                    Array("record \(append).\(index)".utf8)
                }
                records.append(NewRecord(
                    recordedAtMilliseconds: 1_767_261_600_000 + Int64(append * 60_000 + index * 250),
                    typeTag: [100, 200, 400, 601][index % 4], schemaVersion: index % 7 == 0 ? 2 : 1, payload: payload))
            }
            _ = try await journal.append(records)
        }
        try journal.close()
        let names = try fileSystem.contentsOfDirectory(at: directory).filter { $0.hasSuffix(".segment") }.sorted()
        return names.flatMap { fileSystem.contents(of: directory.appending($0)) ?? [] }
    }
}
