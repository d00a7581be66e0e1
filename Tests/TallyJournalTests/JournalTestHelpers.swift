import SystemPackage
import TallyJournal
import TallyTestSupport

let journalPath = FilePath("/ledger/journal")

func smallSegmentOptions(_ durability: DurabilityPolicy = .synchronous) -> JournalOptions {
    var options = JournalOptions(durability: durability)
    options.segmentBytesMax = 4096
    return options
}

/// Appends `batches` random batches and returns every record in sequence order.
@discardableResult
func appendRandomBatches(
    to journal: Journal, batches: Int, maxRecords: Int = 12, maxFiller: Int = 120, random: inout SeededRandom,
    firstBatchID: UInt64 = 0
) async throws -> [NewRecord] {
    var written: [NewRecord] = []
    for batch in 0..<batches {
        let count = Int.random(in: 1...maxRecords, using: &random)
        let filler = Int.random(in: 0...maxFiller, using: &random)
        let records = RecordFactory.batch(id: firstBatchID + UInt64(batch), count: count, fillerBytes: filler, random: &random)
        try await journal.append(records)
        written += records
    }
    return written
}

func readAll(_ directory: FilePath, fileSystem: any FileSystem) throws -> [JournalRecord] {
    try JournalReader.open(at: directory, fileSystem: fileSystem).records()
}

func segmentNames(_ fileSystem: any FileSystem, _ directory: FilePath = journalPath) throws -> [String] {
    try fileSystem.contentsOfDirectory(at: directory).filter { $0.hasSuffix(".segment") }.sorted()
}
