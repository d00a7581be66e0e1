import SystemPackage
import TallyJournal
import TallyTestSupport
import Testing

@Suite("Journal disk errors")
struct JournalDiskErrorTests {
    @Test("ENOSPC on write is diskFull; nothing of the batch is kept and the journal goes on")
    func diskFullOnWrite() async throws {
        let fileSystem = FaultInjectingFileSystem()
        var random = SeededRandom(seed: 1)
        let journal = try Journal.open(at: journalPath, fileSystem: fileSystem)
        let before = try await appendRandomBatches(to: journal, batches: 5, random: &random)
        fileSystem.failNextWrite(.noSpace)
        await #expect(throws: JournalError.diskFull(path: "/ledger/journal/00000000000000000001.segment")) {
            try await journal.append(RecordFactory.batch(id: 99, count: 3, fillerBytes: 10, random: &random))
        }
        let after = try await appendRandomBatches(to: journal, batches: 2, random: &random, firstBatchID: 200)
        try journal.close()
        let records = try readAll(journalPath, fileSystem: fileSystem)
        #expect(records.count == before.count + after.count)
        #expect(zip(records, before + after).allSatisfy { $0.matches($1) })
    }

    @Test("a partial write that runs out of space is cut back: the file holds only whole frames")
    func partialWriteIsCutBack() async throws {
        let fileSystem = FaultInjectingFileSystem()
        var random = SeededRandom(seed: 2)
        let journal = try Journal.open(at: journalPath, fileSystem: fileSystem)
        let before = try await appendRandomBatches(to: journal, batches: 3, random: &random)
        let segment = journalPath.appending(try segmentNames(fileSystem)[0])
        let size = try #require(fileSystem.contents(of: segment)).count
        fileSystem.setCapacity(size + 150)
        await #expect(throws: JournalError.self) {
            try await journal.append(RecordFactory.batch(id: 50, count: 20, fillerBytes: 100, random: &random))
        }
        #expect(fileSystem.contents(of: segment)?.count == size)
        fileSystem.setCapacity(nil)
        try await journal.append(RecordFactory.batch(id: 51, count: 1, fillerBytes: 1, random: &random))
        try journal.close()
        #expect(try JournalVerifier.verify(at: journalPath, fileSystem: fileSystem).isClean)
        #expect(try readAll(journalPath, fileSystem: fileSystem).count == before.count + 1)
    }

    @Test("EIO on fdatasync fails the append and every later one; reopening keeps every acknowledged record")
    func syncFailureFailsTheJournal() async throws {
        let fileSystem = FaultInjectingFileSystem()
        var random = SeededRandom(seed: 3)
        let journal = try Journal.open(at: journalPath, fileSystem: fileSystem)
        let acknowledged = try await appendRandomBatches(to: journal, batches: 4, random: &random)
        fileSystem.failNextSync(.ioError)
        await #expect { try await journal.append(RecordFactory.batch(id: 7, count: 1, fillerBytes: 0, random: &random)) } throws: { error in
            (error as? JournalError)?.code == "journalFailed"
        }
        await #expect { try await journal.append(RecordFactory.batch(id: 8, count: 1, fillerBytes: 0, random: &random)) } throws: { error in
            (error as? JournalError)?.code == "journalFailed"
        }
        #expect(throws: JournalError.self) { try journal.close() }
        fileSystem.crash(.dropUnsynced)
        let records = try readAll(journalPath, fileSystem: fileSystem)
        #expect(records.count >= acknowledged.count)
        #expect(zip(records, acknowledged).allSatisfy { $0.matches($1) })
        let reopened = try Journal.open(at: journalPath, fileSystem: fileSystem)
        try await reopened.append(RecordFactory.batch(id: 9, count: 1, fillerBytes: 0, random: &random))
    }

    @Test("EIO on write is ioFailure naming the operation and file")
    func ioErrorOnWrite() async throws {
        let fileSystem = FaultInjectingFileSystem()
        var random = SeededRandom(seed: 4)
        let journal = try Journal.open(at: journalPath, fileSystem: fileSystem)
        fileSystem.failNextWrite(.ioError)
        await #expect(throws: JournalError.ioFailure(operation: "write", path: "/ledger/journal/00000000000000000001.segment", errno: Errno.ioError.rawValue)) {
            try await journal.append(RecordFactory.batch(id: 1, count: 1, fillerBytes: 0, random: &random))
        }
        try await journal.append(RecordFactory.batch(id: 2, count: 1, fillerBytes: 0, random: &random))
        #expect(journal.lastSequenceNumber == 1)
    }
}
