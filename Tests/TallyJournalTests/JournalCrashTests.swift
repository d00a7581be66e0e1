import SystemPackage
import TallyJournal
import TallyTestSupport
import Testing

/// Simulated power losses through the fault-injecting file system.
@Suite("Journal crash safety")
struct JournalCrashTests {
    /// Attempted batches by id; which ones were acknowledged.
    struct Ledgerbook {
        var attempted: [UInt64: [NewRecord]] = [:]
        var acknowledged: Set<UInt64> = []

        /// Checks the journal after a crash: every acknowledged batch is there, whole; every
        /// batch there is whole and was attempted; sequence numbers have no gaps.
        func check(_ records: [JournalRecord], seed: UInt64) {
            var seen: [UInt64: [JournalRecord]] = [:]
            for (index, record) in records.enumerated() {
                #expect(record.sequenceNumber == UInt64(index + 1), "seed \(seed): gap at \(index)")
                guard let identity = RecordFactory.identity(of: record.payload) else {
                    Issue.record("seed \(seed): record \(record.sequenceNumber) has a foreign payload")
                    continue
                }
                seen[identity.batch, default: []].append(record)
            }
            for (batch, found) in seen {
                guard let expected = attempted[batch] else {
                    Issue.record("seed \(seed): batch \(batch) was never attempted")
                    continue
                }
                #expect(found.count == expected.count, "seed \(seed): batch \(batch) is half there")
                #expect(zip(found, expected).allSatisfy { $0.matches($1) }, "seed \(seed): batch \(batch) differs")
            }
            for batch in acknowledged {
                #expect(seen[batch] != nil, "seed \(seed): acknowledged batch \(batch) was lost")
            }
        }
    }

    @Test("crashes at random operations (unsynced data dropped, torn or kept) never lose an acknowledged append nor show half a batch")
    func crashAtRandomOperations() async throws {
        for seed in UInt64(1)...60 {
            let fileSystem = FaultInjectingFileSystem(seed: seed)
            var random = SeededRandom(seed: seed)
            var book = Ledgerbook()
            var nextBatch: UInt64 = 0
            for _ in 0..<4 {
                fileSystem.crash(afterOperations: Int.random(in: 0...40, using: &random))
                do {
                    let journal = try Journal.open(at: journalPath, options: smallSegmentOptions(), fileSystem: fileSystem)
                    for _ in 0..<20 {
                        let records = RecordFactory.batch(
                            id: nextBatch, count: Int.random(in: 1...8, using: &random),
                            fillerBytes: Int.random(in: 0...200, using: &random), random: &random)
                        book.attempted[nextBatch] = records
                        try await journal.append(records)
                        book.acknowledged.insert(nextBatch)
                        nextBatch += 1
                    }
                    try journal.close()
                } catch {
                    // The crash surfaced as a typed JournalError (EBADF from the dead process's handles).
                    nextBatch += 1
                }
                if fileSystem.crashCount == 0 { fileSystem.crash() }
                let journal = try Journal.open(at: journalPath, options: smallSegmentOptions(), fileSystem: fileSystem)
                book.check(try journal.reader().records(), seed: seed)
                try journal.close()
            }
        }
    }

    @Test("concurrent appenders sharing group commits: after a crash every acknowledged batch survives whole")
    func concurrentAppendersThenCrash() async throws {
        for seed in UInt64(100)...115 {
            let fileSystem = FaultInjectingFileSystem(seed: seed)
            var random = SeededRandom(seed: seed)
            let journal = try Journal.open(at: journalPath, options: smallSegmentOptions(), fileSystem: fileSystem)
            var batches: [UInt64: [NewRecord]] = [:]
            for id in UInt64(0)..<64 {
                batches[id] = RecordFactory.batch(id: id, count: Int.random(in: 1...5, using: &random), fillerBytes: 50, random: &random)
            }
            fileSystem.crash(afterOperations: Int.random(in: 10...120, using: &random))
            let acknowledged = await withTaskGroup(of: UInt64?.self) { group in
                for (id, records) in batches {
                    group.addTask { (try? await journal.append(records)) != nil ? id : nil }
                }
                var done: Set<UInt64> = []
                for await id in group { if let id { done.insert(id) } }
                return done
            }
            if fileSystem.crashCount == 0 { fileSystem.crash() }
            let reopened = try Journal.open(at: journalPath, options: smallSegmentOptions(), fileSystem: fileSystem)
            Ledgerbook(attempted: batches, acknowledged: acknowledged).check(try reopened.reader().records(), seed: seed)
            #expect(try JournalVerifier.verify(at: journalPath, fileSystem: fileSystem).isClean)
        }
    }

    @Test("group commit: many concurrent appends share fdatasync calls and all land, in sequence")
    func concurrentAppendsAllLand() async throws {
        let fileSystem = FaultInjectingFileSystem()
        let journal = try Journal.open(at: journalPath, fileSystem: fileSystem)
        let receipts = await withTaskGroup(of: AppendReceipt?.self) { group in
            for id in UInt64(0)..<200 {
                group.addTask {
                    var random = SeededRandom(seed: id)
                    return try? await journal.append(RecordFactory.batch(id: id, count: 3, fillerBytes: 20, random: &random))
                }
            }
            var all: [AppendReceipt] = []
            for await receipt in group { if let receipt { all.append(receipt) } }
            return all
        }
        #expect(receipts.count == 200)
        let ranges = receipts.map { $0.firstSequenceNumber...$0.lastSequenceNumber }.sorted { $0.lowerBound < $1.lowerBound }
        #expect(ranges.first?.lowerBound == 1 && ranges.last?.upperBound == 600)
        #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound + 1 == $1.lowerBound })
        fileSystem.crash(.dropUnsynced)
        let reopened = try Journal.open(at: journalPath, fileSystem: fileSystem)
        #expect(reopened.lastSequenceNumber == 600, "every acknowledged append was synced")
    }
}
