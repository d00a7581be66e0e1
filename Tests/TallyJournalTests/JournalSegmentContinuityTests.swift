import SystemPackage
import TallyJournal
import TallyTestSupport
import Testing

/// Journal guarantee: segments form one unbroken sequence and hash chain. The first segment
/// starts at sequence 1 from the genesis chain value; every later one starts at the sequence
/// number and chain value where its predecessor ended. A missing, misnumbered or foreign
/// segment is corruption reported with its segment, offset and expected sequence number by
/// `Journal.open`, `JournalReader` and `JournalVerifier`, never served as a gap.
@Suite("Journal segment continuity")
struct JournalSegmentContinuityTests {
    /// A closed journal of at least four 4 KiB segments.
    static func segmentedJournal(seed: UInt64, chainKey: [UInt8]? = nil, at path: FilePath = journalPath,
                                 in fileSystem: FaultInjectingFileSystem = FaultInjectingFileSystem()) async throws
        -> (fileSystem: FaultInjectingFileSystem, names: [String], records: [NewRecord]) {
        var options = smallSegmentOptions(.none)
        options.chainKey = chainKey
        let journal = try Journal.open(at: path, options: options, fileSystem: fileSystem)
        var random = SeededRandom(seed: seed)
        var records: [NewRecord] = []
        for _ in 0..<20 {
            let count = Int.random(in: 1...4, using: &random)
            let batch = SegmentBytes.incompressibleBatch(count: count, bytes: 300, random: &random)
            try await journal.append(batch)
            records += batch
        }
        try journal.close()
        let names = try segmentNames(fileSystem, path)
        #expect(names.count >= 4)
        return (fileSystem, names, records)
    }

    /// Expects `Journal.open`, `JournalReader.open` and `JournalVerifier.verify` to report a
    /// problem of `kind` at offset 0 of `segment`, expecting `sequenceNumber` there.
    func expectReported(
        _ kind: JournalProblem.Kind, segment: String, sequenceNumber: UInt64?, in fileSystem: FaultInjectingFileSystem,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let expected = JournalLocation(segment: segment, offset: 0, sequenceNumber: sequenceNumber)
        func check(_ error: JournalError, _ what: String) {
            guard case .corruption(let problem) = error else {
                Issue.record("\(what): expected corruption, got \(error)", sourceLocation: sourceLocation)
                return
            }
            #expect(problem.kind == kind, "\(what): \(problem)", sourceLocation: sourceLocation)
            #expect(problem.location == expected, "\(what): \(problem)", sourceLocation: sourceLocation)
        }
        do {
            _ = try Journal.open(at: journalPath, options: smallSegmentOptions(), fileSystem: fileSystem)
            Issue.record("Journal.open accepted the journal", sourceLocation: sourceLocation)
        } catch { check(error, "Journal.open") }
        do {
            _ = try JournalReader.open(at: journalPath, fileSystem: fileSystem)
            Issue.record("JournalReader.open accepted the journal", sourceLocation: sourceLocation)
        } catch { check(error, "JournalReader.open") }
        let report = try JournalVerifier.verify(at: journalPath, fileSystem: fileSystem)
        #expect(report.problems.contains { $0.kind == kind && $0.location.segment == segment && $0.location.offset == 0
            && (sequenceNumber == nil || $0.location.sequenceNumber == sequenceNumber) },
                "verifier: \(report.problems)", sourceLocation: sourceLocation)
    }

    @Test("journal guarantee: a deleted middle segment is a sequence gap at the next segment, from open, reader and verifier")
    func deletedMiddleSegment() async throws {
        let (fileSystem, names, _) = try await Self.segmentedJournal(seed: 1)
        try fileSystem.removeFile(at: journalPath.appending(names[1]))
        let missingFirst = try #require(SegmentBytes.firstSequenceNumber(of: names[1]))
        try expectReported(.sequenceGap, segment: names[2], sequenceNumber: missingFirst, in: fileSystem)
    }

    @Test("journal guarantee: a deleted first segment is a sequence gap: the journal must start at sequence 1")
    func deletedFirstSegment() async throws {
        let (fileSystem, names, _) = try await Self.segmentedJournal(seed: 2)
        try fileSystem.removeFile(at: journalPath.appending(names[0]))
        try expectReported(.sequenceGap, segment: names[1], sequenceNumber: 1, in: fileSystem)
    }

    @Test("journal guarantee (issue 13 B8): a segment renamed to a wrong first sequence is refused (name and header disagree), naming segment, offset and the sequence its name announces")
    func renamedSegment() async throws {
        let (fileSystem, names, _) = try await Self.segmentedJournal(seed: 3)
        let first = try #require(SegmentBytes.firstSequenceNumber(of: names[2]))
        let wrong = SegmentBytes.name(first + 1)
        try fileSystem.rename(from: journalPath.appending(names[2]), to: journalPath.appending(wrong))
        try expectReported(.badSegmentHeader, segment: wrong, sequenceNumber: first + 1, in: fileSystem)
    }

    @Test("journal guarantee: a segment renumbered in name and header (CRC recomputed) is a sequence gap at that segment")
    func renumberedSegment() async throws {
        let (fileSystem, names, _) = try await Self.segmentedJournal(seed: 4)
        let first = try #require(SegmentBytes.firstSequenceNumber(of: names[2]))
        var bytes = try #require(fileSystem.contents(of: journalPath.appending(names[2])))
        SegmentBytes.rewriteHeader(&bytes, firstSequenceNumber: first + 1)
        try fileSystem.removeFile(at: journalPath.appending(names[2]))
        let wrong = SegmentBytes.name(first + 1)
        try SegmentBytes.copy(bytes, to: journalPath.appending(wrong), in: fileSystem)
        try expectReported(.sequenceGap, segment: wrong, sequenceNumber: first, in: fileSystem)
    }

    @Test("journal guarantee: a foreign segment from another journal, numbered to follow the last one, is a chain mismatch")
    func foreignSegment() async throws {
        let (fileSystem, names, _) = try await Self.segmentedJournal(seed: 5)
        // The same records under a keyed chain: same frame sizes and segment boundaries, other
        // chain values. One more large batch starts a segment exactly where this journal ends.
        let otherPath = FilePath("/other/journal")
        _ = try await Self.segmentedJournal(seed: 5, chainKey: Array("another journal".utf8), at: otherPath, in: fileSystem)
        var options = smallSegmentOptions(.none)
        options.chainKey = Array("another journal".utf8)
        let other = try Journal.open(at: otherPath, options: options, fileSystem: fileSystem)
        let next = other.nextSequenceNumber
        var random = SeededRandom(seed: 99)
        try await other.append(SegmentBytes.incompressibleBatch(count: 3, bytes: 1500, random: &random))
        try other.close()
        let foreignName = SegmentBytes.name(next)
        #expect(!names.contains(foreignName))
        let foreign = try #require(fileSystem.contents(of: otherPath.appending(foreignName)))
        try SegmentBytes.copy(foreign, to: journalPath.appending(foreignName), in: fileSystem)
        try expectReported(.segmentChainMismatch, segment: foreignName, sequenceNumber: next, in: fileSystem)
    }

    @Test("journal guarantee: a sealed segment cut back at a frame boundary is a sequence gap at the next segment; a reader opened before the cut throws there")
    func sealedSegmentLostWholeFrames() async throws {
        let (fileSystem, names, records) = try await Self.segmentedJournal(seed: 6)
        var frames: [JournalFrame] = []
        try JournalReader.open(at: journalPath, fileSystem: fileSystem).forEachFrame { frame in
            if frame.segment == names[1] { frames.append(frame) }
            return true
        }
        let lastFrame = try #require(frames.last)
        let snapshot = try JournalReader.open(at: journalPath, fileSystem: fileSystem)
        let path = journalPath.appending(names[1])
        let bytes = try #require(fileSystem.contents(of: path))
        fileSystem.setContents(of: path, to: Array(bytes[..<Int(lastFrame.offset)]))
        try expectReported(.sequenceGap, segment: names[2], sequenceNumber: lastFrame.firstSequenceNumber, in: fileSystem)
        var served: [JournalRecord] = []
        #expect {
            try snapshot.forEachRecord { served.append($0); return true }
        } throws: { error in
            guard case .corruption(let problem) = error as? JournalError else { return false }
            return problem.kind == .sequenceGap
                && problem.location == JournalLocation(segment: names[2], offset: 0, sequenceNumber: lastFrame.firstSequenceNumber)
        }
        #expect(served.count == Int(lastFrame.firstSequenceNumber) - 1)
        #expect(zip(served, records).allSatisfy { $0.matches($1) })
    }

    @Test("journal guarantee: an intact multi-segment journal opens, reads and verifies clean (the continuity check accepts it)")
    func intactJournal() async throws {
        let (fileSystem, _, records) = try await Self.segmentedJournal(seed: 7)
        let journal = try Journal.open(at: journalPath, options: smallSegmentOptions(), fileSystem: fileSystem)
        #expect(journal.lastSequenceNumber == UInt64(records.count))
        try journal.close()
        #expect(try readAll(journalPath, fileSystem: fileSystem).count == records.count)
        #expect(try JournalVerifier.verify(at: journalPath, fileSystem: fileSystem).isClean)
    }
}
