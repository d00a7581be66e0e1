import SystemPackage
import TallyJournal
import TallyTestSupport
import Testing

/// Journal guarantee: damage is detected at the check that owns it, with its location, even
/// when every checksum in front of that check was recomputed (a faulty writer, or deliberate
/// editing): segment headers of another version or with unknown flags, frames whose payload
/// does not decompress or does not split into records, and a sealed segment cut mid-frame.
@Suite("Journal checks behind the checksums")
struct JournalDeepPathTests {
    /// A one-segment journal of a compressible batch (zeros) and an incompressible one.
    static func journal() async throws -> (FaultInjectingFileSystem, segment: FilePath, frames: [JournalFrame]) {
        let fileSystem = FaultInjectingFileSystem()
        let journal = try Journal.open(at: journalPath, fileSystem: fileSystem)
        try await journal.append((0..<3).map { index in
            NewRecord(recordedAtMilliseconds: Int64(index), typeTag: 1, schemaVersion: 1, payload: [UInt8](repeating: 0, count: 600))
        })
        var random = SeededRandom(seed: 31)
        try await journal.append(SegmentBytes.incompressibleBatch(count: 3, bytes: 200, random: &random))
        try journal.close()
        var frames: [JournalFrame] = []
        try JournalReader.open(at: journalPath, fileSystem: fileSystem).forEachFrame { frames.append($0); return true }
        #expect(frames.count == 2)
        #expect(frames[0].isCompressed)
        #expect(!frames[1].isCompressed)
        return (fileSystem, journalPath.appending(try segmentNames(fileSystem)[0]), frames)
    }

    /// Every open refuses the journal with `badSegmentHeader` at offset 0 of `segment` and the
    /// sequence its name announces (issue 13 B8), naming `detail`.
    func expectHeaderRefused(_ fileSystem: FaultInjectingFileSystem, segment: FilePath, detail: String,
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
        let name = segment.lastComponent?.string ?? ""
        let location = JournalLocation(segment: name, offset: 0, sequenceNumber: SegmentBytes.firstSequenceNumber(of: name))
        let matches: (any Error) -> Bool = { error in
            guard case .corruption(let problem) = error as? JournalError else { return false }
            return problem.kind == .badSegmentHeader && problem.location == location && problem.detail.contains(detail)
        }
        #expect(sourceLocation: sourceLocation, performing: { _ = try Journal.open(at: journalPath, fileSystem: fileSystem) },
                throws: matches)
        #expect(sourceLocation: sourceLocation, performing: { _ = try JournalReader.open(at: journalPath, fileSystem: fileSystem) },
                throws: matches)
        let report = try JournalVerifier.verify(at: journalPath, fileSystem: fileSystem)
        let first = try #require(report.problems.first, sourceLocation: sourceLocation)
        #expect(matches(JournalError.corruption(first)), "\(report.problems)", sourceLocation: sourceLocation)
    }

    @Test("journal guarantee: a segment header of another format version (CRC recomputed) is refused as badSegmentHeader naming the version")
    func otherSegmentVersion() async throws {
        let (fileSystem, segment, _) = try await Self.journal()
        var bytes = try #require(fileSystem.contents(of: segment))
        SegmentBytes.rewriteHeader(&bytes, version: 2)
        fileSystem.setContents(of: segment, to: bytes)
        try expectHeaderRefused(fileSystem, segment: segment, detail: "version 2 is not supported")
    }

    @Test("journal guarantee: a segment header with unknown flags (CRC recomputed) is refused as badSegmentHeader")
    func unknownSegmentFlags() async throws {
        let (fileSystem, segment, _) = try await Self.journal()
        var bytes = try #require(fileSystem.contents(of: segment))
        SegmentBytes.rewriteHeader(&bytes, flags: 0b100)
        fileSystem.setContents(of: segment, to: bytes)
        try expectHeaderRefused(fileSystem, segment: segment, detail: "unknown flags")
    }

    /// The reader throws `kind` at `frame`, after serving the frames before it; the verifier
    /// lists `kind` at the same place.
    func expectFrameDamage(_ kind: JournalProblem.Kind, at frame: JournalFrame, _ fileSystem: FaultInjectingFileSystem,
                           servedBefore: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let location = JournalLocation(segment: frame.segment, offset: frame.offset, sequenceNumber: frame.firstSequenceNumber)
        var served = 0
        #expect(sourceLocation: sourceLocation, performing: {
            try JournalReader.open(at: journalPath, fileSystem: fileSystem).forEachRecord { _ in served += 1; return true }
        }, throws: { error in
            guard case .corruption(let problem) = error as? JournalError else { return false }
            return problem.kind == kind && problem.location == location
        })
        #expect(served == servedBefore, sourceLocation: sourceLocation)
        let report = try JournalVerifier.verify(at: journalPath, fileSystem: fileSystem)
        #expect(report.problems.contains { $0.kind == kind && $0.location == location }, "\(report.problems)",
                sourceLocation: sourceLocation)
    }

    @Test("journal guarantee: a compressed frame whose declared raw length is wrong (CRC recomputed) is decompressionFailed at that frame")
    func decompressionFailed() async throws {
        let (fileSystem, segment, frames) = try await Self.journal()
        var bytes = try #require(fileSystem.contents(of: segment))
        let offset = Int(frames[0].offset)
        SegmentBytes.put(UInt32(frames[0].rawBytes + 1), into: &bytes, at: offset + 12)
        SegmentBytes.resealFrame(&bytes, at: offset)
        fileSystem.setContents(of: segment, to: bytes)
        try expectFrameDamage(.decompressionFailed, at: frames[0], fileSystem, servedBefore: 0)
    }

    @Test("journal guarantee: a frame whose records do not match its header (last recordedAt altered, CRC recomputed) is badRecords at that frame")
    func badRecords() async throws {
        let (fileSystem, segment, frames) = try await Self.journal()
        var bytes = try #require(fileSystem.contents(of: segment))
        let offset = Int(frames[1].offset)
        SegmentBytes.put(Int64(123_456), into: &bytes, at: offset + 40)
        SegmentBytes.resealFrame(&bytes, at: offset)
        fileSystem.setContents(of: segment, to: bytes)
        try expectFrameDamage(.badRecords, at: frames[1], fileSystem, servedBefore: 3)
    }

    @Test("journal guarantee (issue 13 A4): a sealed segment cut mid-frame while later segments exist is truncatedFrame at that frame: the reader and the writer refuse it at open, the verifier lists it; allowing damage serves the records before it")
    func truncatedSealedSegment() async throws {
        let fileSystem = FaultInjectingFileSystem()
        var random = SeededRandom(seed: 32)
        let journal = try Journal.open(at: journalPath, options: smallSegmentOptions(.none), fileSystem: fileSystem)
        let written = try await appendRandomBatches(to: journal, batches: 30, random: &random)
        try journal.close()
        let names = try segmentNames(fileSystem)
        try #require(names.count >= 3)
        var frames: [JournalFrame] = []
        try JournalReader.open(at: journalPath, fileSystem: fileSystem).forEachFrame { frame in
            if frame.segment == names[1] { frames.append(frame) }
            return true
        }
        let last = try #require(frames.last)
        let path = journalPath.appending(names[1])
        let bytes = try #require(fileSystem.contents(of: path))
        fileSystem.setContents(of: path, to: Array(bytes[..<(Int(last.offset) + 96 + last.storedBytes / 2)]))
        try expectFrameDamage(.truncatedFrame, at: last, fileSystem, servedBefore: 0)
        #expect(throws: JournalError.self) { try Journal.open(at: journalPath, fileSystem: fileSystem) }
        let prefix = try JournalReader.open(at: journalPath, fileSystem: fileSystem, allowingDamage: true).records()
        #expect(prefix.count == Int(last.firstSequenceNumber) - 1)
        #expect(zip(prefix, written).allSatisfy { $0.matches($1) })
        let report = try JournalVerifier.verify(at: journalPath, fileSystem: fileSystem)
        #expect(report.problems.first?.kind == .truncatedFrame, "a sealed segment's cut is not a torn tail: \(report.problems)")
        #expect(report.recordCount < written.count)
    }
}
