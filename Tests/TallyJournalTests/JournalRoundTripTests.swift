import SystemPackage
import TallyJournal
import TallyTestSupport
import Testing

@Suite("Journal round trip")
struct JournalRoundTripTests {
    @Test("random batches (empty, compressible, incompressible payloads) read back identical across segment rotations, from any start")
    func roundTripAcrossRotations() async throws {
        let fileSystem = FaultInjectingFileSystem()
        var random = SeededRandom(seed: 2026)
        let journal = try Journal.open(at: journalPath, options: smallSegmentOptions(), fileSystem: fileSystem)
        let written = try await appendRandomBatches(to: journal, batches: 80, maxRecords: 30, maxFiller: 300, random: &random)
        #expect(journal.lastSequenceNumber == UInt64(written.count))
        #expect(try segmentNames(fileSystem).count > 3, "the test must cross several rotations")

        let reader = try journal.reader()
        let all = try reader.records()
        #expect(all.count == written.count)
        for (index, record) in all.enumerated() {
            #expect(record.sequenceNumber == UInt64(index + 1))
            #expect(record.matches(written[index]))
        }
        for _ in 0..<60 {
            let start = UInt64.random(in: 1...UInt64(written.count), using: &random)
            let end = UInt64.random(in: start...UInt64(written.count), using: &random)
            let slice = try reader.records(from: start, through: end)
            #expect(slice.map(\.sequenceNumber) == Array(start...end))
            #expect(zip(slice, written[Int(start - 1)..<Int(end)]).allSatisfy { $0.matches($1) })
        }
        try journal.close()

        let reopened = try Journal.open(at: journalPath, options: smallSegmentOptions(), fileSystem: fileSystem)
        #expect(reopened.recoveryReport.isClean)
        #expect(reopened.lastSequenceNumber == UInt64(written.count))
        #expect(try reopened.reader().records() == all)
        try reopened.close()
        #expect(try JournalVerifier.verify(at: journalPath, fileSystem: fileSystem).isClean)
    }

    @Test("the same round trip on the real file system, with fdatasync")
    func roundTripOnDisk() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var random = SeededRandom(seed: 99)
        let path = directory.appending("journal")
        let journal = try Journal.open(at: path, options: smallSegmentOptions())
        let written = try await appendRandomBatches(to: journal, batches: 40, maxRecords: 20, maxFiller: 200, random: &random)
        try journal.close()
        let records = try JournalReader.open(at: path).records()
        #expect(records.count == written.count)
        #expect(zip(records, written).allSatisfy { $0.matches($1) })
        let report = try JournalVerifier.verify(at: path)
        #expect(report.isClean, "\(report.problems)")
        #expect(report.segmentCount > 1)
        #expect(report.recordCount == written.count)
    }

    @Test("an incompressible batch is stored raw and never larger than its payload plus framing")
    func incompressibleStoredRaw() async throws {
        let fileSystem = FaultInjectingFileSystem()
        var random = SeededRandom(seed: 5)
        let journal = try Journal.open(at: journalPath, fileSystem: fileSystem)
        let noise = NewRecord(recordedAtMilliseconds: 1, typeTag: 1, schemaVersion: 1, payload: random.bytes(4000))
        let text = NewRecord(recordedAtMilliseconds: 2, typeTag: 1, schemaVersion: 1, payload: [UInt8](repeating: 65, count: 4000))
        try await journal.append([noise])
        try await journal.append([text])
        var frames: [JournalFrame] = []
        try journal.reader().forEachFrame { frames.append($0); return true }
        #expect(frames.count == 2)
        #expect(!frames[0].isCompressed && frames[0].storedBytes == frames[0].rawBytes)
        #expect(frames[1].isCompressed && frames[1].storedBytes < 200)
        #expect(frames[0].records[0].matches(noise) && frames[1].records[0].matches(text))
    }

    @Test("seeking to a sequence reads only frame headers before it: an earlier frame whose records do not match its header (CRC recomputed) does not stop the read")
    func seekSkipsEarlierPayloads() async throws {
        let fileSystem = FaultInjectingFileSystem()
        var random = SeededRandom(seed: 11)
        let journal = try Journal.open(at: journalPath, options: smallSegmentOptions(.none), fileSystem: fileSystem)
        let written = try await appendRandomBatches(to: journal, batches: 30, random: &random)
        try journal.close()
        #expect(try segmentNames(fileSystem).count > 1)
        let segment = journalPath.appending(try segmentNames(fileSystem)[0])
        var bytes = try #require(fileSystem.contents(of: segment))
        // The first frame's last recordedAt altered, its CRC recomputed: open checks CRCs only,
        // so the damage shows when that frame's records are decoded, not before.
        SegmentBytes.put(Int64(123_456), into: &bytes, at: 64 + 40)
        SegmentBytes.resealFrame(&bytes, at: 64)
        fileSystem.setContents(of: segment, to: bytes)
        let reader = try JournalReader.open(at: journalPath, fileSystem: fileSystem)
        let tail = try reader.records(from: UInt64(written.count - 3))
        #expect(tail.count == 4)
        #expect(throws: JournalError.self) { try reader.records(from: 1) }
    }

    @Test("limits: an empty batch, an oversized record and an oversized frame are refused and nothing is written")
    func limitsAreChecked() async throws {
        let fileSystem = FaultInjectingFileSystem()
        var options = JournalOptions()
        options.limits = JournalLimits(recordBytesMax: 100, frameBytesMax: 300, recordsPerFrameMax: 5)
        let journal = try Journal.open(at: journalPath, options: options, fileSystem: fileSystem)
        let small = NewRecord(recordedAtMilliseconds: 0, typeTag: 1, schemaVersion: 1, payload: [1, 2, 3])
        await #expect(throws: JournalError.emptyBatch) { try await journal.append([]) }
        await #expect(throws: JournalError.recordTooLarge(bytes: 101, limit: 100)) {
            try await journal.append([NewRecord(recordedAtMilliseconds: 0, typeTag: 1, schemaVersion: 1, payload: [UInt8](repeating: 0, count: 101))])
        }
        await #expect(throws: JournalError.self) { try await journal.append(Array(repeating: small, count: 6)) }
        let big = NewRecord(recordedAtMilliseconds: 0, typeTag: 1, schemaVersion: 1, payload: [UInt8](repeating: 0, count: 100))
        await #expect(throws: JournalError.self) { try await journal.append(Array(repeating: big, count: 4)) }
        #expect(journal.lastSequenceNumber == 0)
        let segment = journalPath.appending(try segmentNames(fileSystem)[0])
        #expect(fileSystem.contents(of: segment)?.count == 64)
        try await journal.append([small])
        #expect(journal.lastSequenceNumber == 1)
    }

    @Test("options outside the format's limits are refused with invalidOptions")
    func invalidOptions() {
        var options = JournalOptions()
        options.segmentBytesMax = 100
        #expect(throws: JournalError.self) { try Journal.open(at: journalPath, options: options, fileSystem: FaultInjectingFileSystem()) }
        options = JournalOptions()
        options.limits.frameBytesMax = JournalLimits.frameBytesHardMax + 1
        #expect(throws: JournalError.self) { try Journal.open(at: journalPath, options: options, fileSystem: FaultInjectingFileSystem()) }
    }
}
