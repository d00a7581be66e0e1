import Foundation
import SystemPackage
import TallyJournal
import TallyTestSupport
import Testing

@Suite("Journal writers and readers")
struct JournalConcurrencyTests {
    @Test("a second writer is refused with journalLocked until the first closes")
    func secondWriterIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("journal")
        let first = try Journal.open(at: path)
        #expect(throws: JournalError.journalLocked(directory: path.string)) { try Journal.open(at: path) }
        try first.close()
        let second = try Journal.open(at: path)
        try second.close()
    }

    @Test("readers run while a writer appends and always see a valid prefix")
    func readersDuringAppends() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("journal")
        var options = JournalOptions(durability: .none)
        options.segmentBytesMax = 8192
        let journal = try Journal.open(at: path, options: options)
        let writer = Task {
            var random = SeededRandom(seed: 77)
            for id in UInt64(0)..<300 {
                try await journal.append(RecordFactory.batch(id: id, count: 4, fillerBytes: 30, random: &random))
            }
        }
        var reads = 0
        var lastSeen: UInt64 = 0
        while !(writer.isCancelled) {
            let reader = try JournalReader.open(at: path)
            let records = try reader.records()
            #expect(records.enumerated().allSatisfy { $0.element.sequenceNumber == UInt64($0.offset + 1) })
            #expect(records.count % 4 == 0, "only whole batches")
            #expect(UInt64(records.count) >= lastSeen)
            lastSeen = UInt64(records.count)
            reads += 1
            if lastSeen == 1200 { break }
            await Task.yield()
        }
        try await writer.value
        #expect(reads > 1)
        try journal.close()
    }

    @Test("a keyed (HMAC) chain verifies only with its key; the writer refuses to open it without the key")
    func keyedChain() async throws {
        let fileSystem = FaultInjectingFileSystem()
        var random = SeededRandom(seed: 5)
        var options = JournalOptions()
        options.chainKey = Array("household secret".utf8)
        let journal = try Journal.open(at: journalPath, options: options, fileSystem: fileSystem)
        try await appendRandomBatches(to: journal, batches: 5, random: &random)
        try journal.close()
        #expect(try JournalVerifier.verify(at: journalPath, chainKey: options.chainKey, fileSystem: fileSystem).isClean)
        #expect(try JournalVerifier.verify(at: journalPath, fileSystem: fileSystem).problems.first?.kind == .chainMismatch)
        let wrong = try JournalVerifier.verify(at: journalPath, chainKey: Array("guess".utf8), fileSystem: fileSystem)
        #expect(wrong.problems.contains { $0.kind == .chainMismatch && $0.location.offset == 64 })
        #expect(throws: JournalError.chainKeyMismatch(segment: "00000000000000000001.segment")) {
            try Journal.open(at: journalPath, fileSystem: fileSystem)
        }
    }

    @Test("tampering that recomputes the CRC is caught by the hash chain at the altered frame")
    func tamperingBreaksTheChain() async throws {
        let fileSystem = FaultInjectingFileSystem()
        let journal = try Journal.open(at: journalPath, fileSystem: fileSystem)
        for index in 0..<4 {
            try await journal.append([NewRecord(recordedAtMilliseconds: Int64(index), typeTag: 1, schemaVersion: 1, payload: Array("expense CHF 12.00".utf8))])
        }
        try journal.close()
        var frames: [JournalFrame] = []
        try JournalReader.open(at: journalPath, fileSystem: fileSystem).forEachFrame { frames.append($0); return true }
        let victim = frames[2]
        let segment = journalPath.appending(victim.segment)
        var bytes = try #require(fileSystem.contents(of: segment))
        let payloadStart = Int(victim.offset) + 96
        let amount = try #require(bytes[payloadStart..<(payloadStart + victim.storedBytes)].firstIndex(of: UInt8(ascii: "1")))
        bytes[amount] = UInt8(ascii: "9")
        let crc = bytes.withUnsafeBytes { all in
            CRC32C.extend(CRC32C.extend(0, UnsafeRawBufferPointer(rebasing: all[Int(victim.offset)..<(Int(victim.offset) + 92)])),
                          UnsafeRawBufferPointer(rebasing: all[payloadStart..<(payloadStart + victim.storedBytes)]))
        }
        withUnsafeBytes(of: crc.littleEndian) { bytes.replaceSubrange((Int(victim.offset) + 92)..<(Int(victim.offset) + 96), with: $0) }
        fileSystem.setContents(of: segment, to: bytes)
        let report = try JournalVerifier.verify(at: journalPath, fileSystem: fileSystem)
        #expect(report.problems.map(\.kind) == [.chainMismatch])
        #expect(report.problems.first?.location.offset == victim.offset)
    }

    @Test("hostile lengths in a frame header are refused without allocating them")
    func hostileLengths() async throws {
        let fileSystem = FaultInjectingFileSystem()
        let journal = try Journal.open(at: journalPath, fileSystem: fileSystem)
        try await journal.append([NewRecord(recordedAtMilliseconds: 0, typeTag: 1, schemaVersion: 1, payload: [1, 2, 3])])
        try journal.close()
        let segment = journalPath.appending(try segmentNames(fileSystem)[0])
        let original = try #require(fileSystem.contents(of: segment))
        for (field, value) in [(8, UInt32.max), (12, UInt32.max), (24, UInt32.max), (8, UInt32(60 << 20)), (24, UInt32(0))] {
            var bytes = original
            withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange((64 + field)..<(64 + field + 4), with: $0) }
            fileSystem.setContents(of: segment, to: bytes)
            let report = try JournalVerifier.verify(at: journalPath, fileSystem: fileSystem)
            #expect(report.problems.first?.location.offset == 64)
            // Issue 13 A2: a hostile header is no torn write: refused, not served as an empty journal.
            #expect(throws: JournalError.self) { try JournalReader.open(at: journalPath, fileSystem: fileSystem) }
            #expect(try JournalReader.open(at: journalPath, fileSystem: fileSystem, allowingDamage: true).records().isEmpty)
        }
    }
}
