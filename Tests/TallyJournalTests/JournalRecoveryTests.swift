import SystemPackage
import TallyJournal
import TallyTestSupport
import Testing

/// A small journal on the in-memory file system, with the byte ranges of its frames.
struct SmallJournal {
    var segments: [(name: String, bytes: [UInt8])]
    var records: [NewRecord]
    /// Per segment: (frame start offset, frame end offset, last sequence number in the frame).
    var frames: [[(start: Int, end: Int, lastSequence: UInt64)]]

    static func make(batches: Int, seed: UInt64, segmentBytesMax: Int64 = 4096, maxFiller: Int = 40) async throws -> SmallJournal {
        let fileSystem = FaultInjectingFileSystem()
        var options = JournalOptions(durability: .none)
        options.segmentBytesMax = segmentBytesMax
        var random = SeededRandom(seed: seed)
        let journal = try Journal.open(at: journalPath, options: options, fileSystem: fileSystem)
        let records = try await appendRandomBatches(to: journal, batches: batches, maxRecords: 6, maxFiller: maxFiller, random: &random)
        try journal.close()
        let names = try segmentNames(fileSystem)
        var frames = names.map { _ in [(start: Int, end: Int, lastSequence: UInt64)]() }
        try JournalReader.open(at: journalPath, fileSystem: fileSystem).forEachFrame { frame in
            let index = names.firstIndex(of: frame.segment) ?? 0
            frames[index].append((Int(frame.offset), Int(frame.offset) + 96 + frame.storedBytes, frame.lastSequenceNumber))
            return true
        }
        let segments = names.map { ($0, fileSystem.contents(of: journalPath.appending($0)) ?? []) }
        return SmallJournal(segments: segments, records: records, frames: frames)
    }

    var totalBytes: Int { segments.reduce(0) { $0 + $1.bytes.count } }

    /// A file system holding this journal with the given segments' bytes.
    func fileSystem(with segments: [(name: String, bytes: [UInt8])]) throws -> FaultInjectingFileSystem {
        let fileSystem = FaultInjectingFileSystem()
        try fileSystem.createDirectory(at: journalPath)
        for segment in segments {
            let file = try fileSystem.createFile(at: journalPath.appending(segment.name))
            try segment.bytes.withUnsafeBytes { try file.write($0, at: 0) }
            try file.synchronize()
        }
        try fileSystem.synchronizeDirectory(at: journalPath)
        return fileSystem
    }

    /// The segment index and frame start holding global byte `offset` (nil for a segment header).
    func location(ofByte offset: Int) -> (segment: Int, frameStart: Int) {
        var rest = offset
        for (index, segment) in segments.enumerated() {
            if rest < segment.bytes.count {
                let start = frames[index].first { $0.start <= rest && rest < $0.end }?.start ?? 0
                return (index, start)
            }
            rest -= segment.bytes.count
        }
        preconditionFailure("offset past the journal")
    }
}

@Suite("Journal recovery")
struct JournalRecoveryTests {
    @Test("truncated at every byte offset, open recovers exactly the complete frames (a cut segment header is refused), appends, and reopens to prefix + new records")
    func truncateAtEveryOffset() async throws {
        let small = try await SmallJournal.make(batches: 70, seed: 3)
        #expect(small.segments.count >= 3, "multi-segment journal")
        let extra = NewRecord(recordedAtMilliseconds: 9, typeTag: 9, schemaVersion: 1, payload: Array("after recovery".utf8))
        for cut in 0...small.totalBytes {
            var kept: [(name: String, bytes: [UInt8])] = []
            var remaining = cut
            var completeThrough: UInt64 = 0
            var lastFrameEnd = 64
            for (index, segment) in small.segments.enumerated() where remaining > 0 || index == 0 {
                let length = min(remaining, segment.bytes.count)
                kept.append((segment.name, Array(segment.bytes.prefix(length))))
                lastFrameEnd = 64
                for frame in small.frames[index] where frame.end <= length {
                    completeThrough = frame.lastSequence
                    lastFrameEnd = frame.end
                }
                remaining -= length
            }
            let fileSystem = try small.fileSystem(with: kept)
            let lastLength = kept[kept.count - 1].bytes.count
            guard lastLength >= 64 else {
                // Segments are created whole (renamed into place after their header is synced):
                // a segment cut inside its header is damage, refused, never removed silently.
                #expect(throws: JournalError.self, "cut at \(cut)") {
                    try Journal.open(at: journalPath, options: smallSegmentOptions(), fileSystem: fileSystem)
                }
                continue
            }
            let journal = try Journal.open(at: journalPath, options: smallSegmentOptions(), fileSystem: fileSystem)
            #expect(journal.lastSequenceNumber == completeThrough, "cut at \(cut)")
            #expect(journal.recoveryReport.bytesDropped == Int64(lastLength - lastFrameEnd), "cut at \(cut)")
            try await journal.append([extra])
            try journal.close()
            let records = try readAll(journalPath, fileSystem: fileSystem)
            #expect(records.count == Int(completeThrough) + 1, "cut at \(cut)")
            #expect(zip(records.dropLast(), small.records).allSatisfy { $0.matches($1) }, "cut at \(cut)")
            #expect(records.last?.matches(extra) == true, "cut at \(cut)")
        }
    }

    @Test("a torn tail is cut off and reported with the bytes dropped")
    func tornTailReportsBytesDropped() async throws {
        let small = try await SmallJournal.make(batches: 5, seed: 8, segmentBytesMax: 1 << 20)
        var segment = small.segments[0]
        let lastFrame = try #require(small.frames[0].last)
        segment.bytes.removeLast(10)
        let fileSystem = try small.fileSystem(with: [segment])
        let journal = try Journal.open(at: journalPath, fileSystem: fileSystem)
        #expect(journal.recoveryReport.bytesDropped == Int64(lastFrame.end - lastFrame.start - 10))
        #expect(journal.recoveryReport.truncatedAt?.offset == Int64(lastFrame.start))
        #expect(fileSystem.contents(of: journalPath.appending(segment.name))?.count == lastFrame.start)
    }

    @Test("what an interrupted append leaves after the last frame (zeros, a frame prefix, a magic prefix) is a torn tail: verify reports it, open cuts it, records stay")
    func interruptedAppendAfterLastFrameIsTornTail() async throws {
        let small = try await SmallJournal.make(batches: 6, seed: 21, segmentBytesMax: 1 << 20)
        let lastFrame = try #require(small.frames[0].last)
        let frameBytes = Array(small.segments[0].bytes[lastFrame.start..<lastFrame.end])
        for tail in [[UInt8](repeating: 0, count: 4096), Array(frameBytes.prefix(frameBytes.count - 1)), Array(frameBytes.prefix(120)),
                     Array(frameBytes.prefix(3)), Array(frameBytes.prefix(100)) + [UInt8](repeating: 0, count: 600)] {
            let fileSystem = try small.fileSystem(with: [(small.segments[0].name, small.segments[0].bytes + tail)])
            let report = try JournalVerifier.verify(at: journalPath, fileSystem: fileSystem)
            #expect(report.problems.map(\.kind) == [.tornTail])
            #expect(report.recordCount == small.records.count)
            let journal = try Journal.open(at: journalPath, fileSystem: fileSystem)
            #expect(journal.recoveryReport.bytesDropped == Int64(tail.count))
            #expect(journal.lastSequenceNumber == UInt64(small.records.count))
            try journal.close()
        }
    }

    /// Issue 13 A2: a bit flip in the last frame was cut as a "torn tail" and audit was clean.
    @Test("a complete last frame that fails its checksum, or bytes no interrupted write leaves, are damage: refused by the writer and readers, reported by verify, never cut")
    func damagedLastFrameIsNeverCut() async throws {
        let small = try await SmallJournal.make(batches: 6, seed: 21, segmentBytesMax: 1 << 20)
        let lastFrame = try #require(small.frames[0].last)
        var random = SeededRandom(seed: 4)
        var flipped = small.segments[0].bytes
        flipped[lastFrame.end - 5] ^= 0x10
        var lengthFlipped = small.segments[0].bytes
        lengthFlipped[lastFrame.start + 9] ^= 0x01  // stored length + 256: runs past the end
        for bytes in [flipped, lengthFlipped, small.segments[0].bytes + random.bytes(37), small.segments[0].bytes + Array("TFRM".utf8) + random.bytes(200)] {
            let fileSystem = try small.fileSystem(with: [(small.segments[0].name, bytes)])
            let damaged = bytes.count == small.segments[0].bytes.count ? lastFrame.start : lastFrame.end
            let isDamageAtLastFrame: (any Error) -> Bool = { error in
                guard case JournalError.corruption(let problem) = error else { return false }
                return problem.kind != .tornTail && problem.location.offset == Int64(damaged)
                    && problem.location.segment == small.segments[0].name && problem.location.sequenceNumber != nil
            }
            #expect(performing: { try Journal.open(at: journalPath, fileSystem: fileSystem) }, throws: isDamageAtLastFrame)
            #expect(performing: { try JournalReader.open(at: journalPath, fileSystem: fileSystem) }, throws: isDamageAtLastFrame)
            #expect(fileSystem.contents(of: journalPath.appending(small.segments[0].name)) == bytes, "nothing was cut")
            let report = try JournalVerifier.verify(at: journalPath, fileSystem: fileSystem)
            #expect(report.problems.count == 1 && report.problems[0].kind != .tornTail)
        }
    }

    @Test("a damaged frame followed by a valid one is corruption: the writer and readers refuse it naming segment, offset and sequence; a reader allowing damage serves the prefix")
    func midLogCorruptionRefusesWriting() async throws {
        let small = try await SmallJournal.make(batches: 8, seed: 13, segmentBytesMax: 1 << 20)
        let victim = small.frames[0][3]
        var bytes = small.segments[0].bytes
        bytes[victim.start + 100] ^= 0x40
        let fileSystem = try small.fileSystem(with: [(small.segments[0].name, bytes)])
        let expectedSequence = small.frames[0][2].lastSequence + 1
        #expect {
            try Journal.open(at: journalPath, fileSystem: fileSystem)
        } throws: { error in
            guard case JournalError.corruption(let problem) = error else { return false }
            return problem.location == JournalLocation(segment: small.segments[0].name, offset: Int64(victim.start), sequenceNumber: expectedSequence)
                && problem.kind == .checksumMismatch
        }
        #expect(throws: JournalError.self) { try JournalReader.open(at: journalPath, fileSystem: fileSystem) }
        let reader = try JournalReader.open(at: journalPath, fileSystem: fileSystem, allowingDamage: true)
        #expect(reader.lastSequenceNumber == expectedSequence - 1)
        #expect(reader.recoveryReport.problems.first?.location.offset == Int64(victim.start))
        let records = try reader.records()
        #expect(zip(records, small.records).allSatisfy { $0.matches($1) })
        #expect(records.count == Int(expectedSequence - 1))
    }

    /// Readers once went straight from one segment to the next without checking that it starts
    /// where the previous one ended, so a deleted middle segment was a silent gap (found while
    /// writing the journal fuzz target's assertions and reproduced through it:
    /// Fuzz/Regressions/journal-frames/segment-gap.segment).
    @Test("a missing middle segment is a sequence gap for readers, never a silent jump")
    func missingMiddleSegmentIsASequenceGap() async throws {
        let small = try await SmallJournal.make(batches: 40, seed: 29, maxFiller: 200)
        try #require(small.segments.count >= 3)
        let fileSystem = try small.fileSystem(with: small.segments.enumerated().filter { $0.offset != 1 }.map(\.element))
        let expectedSequence = try #require(small.frames[0].last).lastSequence + 1
        // The reader's open checks segment continuity; reading checks it again at each boundary.
        #expect {
            try JournalReader.open(at: journalPath, fileSystem: fileSystem).records()
        } throws: { error in
            guard case JournalError.corruption(let problem) = error else { return false }
            return problem.kind == .sequenceGap
                && problem.location == JournalLocation(segment: small.segments[2].name, offset: 0, sequenceNumber: expectedSequence)
        }
        let report = try JournalVerifier.verify(at: journalPath, fileSystem: fileSystem)
        #expect(report.problems.map(\.kind).contains(.sequenceGap), "the verifier already reported it")
    }

    /// Reading from 1 once served sequence 7 from the first segment while reading from 7 served
    /// it from the segment named 7 (found by the journal fuzz target in `Fuzz/run 10`:
    /// Fuzz/Regressions/journal-frames/overlapping-segments.segment).
    @Test("a segment that runs into the next segment's sequence numbers is corruption for readers")
    func overlappingSegmentsAreCorruption() async throws {
        let rotated = try await SmallJournal.make(batches: 40, seed: 29, maxFiller: 200)
        let single = try await SmallJournal.make(batches: 40, seed: 29, segmentBytesMax: 1 << 20, maxFiller: 200)
        try #require(rotated.segments.count >= 3 && single.segments.count == 1)
        let fileSystem = try rotated.fileSystem(with: [single.segments[0]] + rotated.segments.dropFirst())
        // Refused at open (the next segment does not continue the first), or while reading.
        #expect {
            try JournalReader.open(at: journalPath, fileSystem: fileSystem).records()
        } throws: { error in
            guard case JournalError.corruption(let problem) = error else { return false }
            return problem.kind == .sequenceGap
                && [single.segments[0].name, rotated.segments[1].name].contains(problem.location.segment)
        }
    }

    /// Opening once trapped on `nextSequenceNumber - 1` for such a segment (found by the
    /// journal fuzz target: Fuzz/Regressions/journal-frames/segment-first-sequence-zero.segment).
    @Test("a segment header that says first sequence 0 is a bad header for readers and recovery")
    func segmentStartingAtSequenceZeroIsABadHeader() async throws {
        let small = try await SmallJournal.make(batches: 2, seed: 31, segmentBytesMax: 1 << 20)
        var bytes = small.segments[0].bytes
        for index in 16..<24 { bytes[index] = 0 }
        let checksum = CRC32C.checksum(Array(bytes[0..<60]))
        for index in 0..<4 { bytes[60 + index] = UInt8(truncatingIfNeeded: checksum >> (8 * index)) }
        let fileSystem = try small.fileSystem(with: [("00000000000000000000.segment", bytes)])
        let isBadHeader: (any Error) -> Bool = { error in
            guard case JournalError.corruption(let problem) = error else { return false }
            return problem.kind == .badSegmentHeader
        }
        #expect(performing: { try JournalReader.open(at: journalPath, fileSystem: fileSystem) }, throws: isBadHeader)
        #expect(performing: { try Journal.open(at: journalPath, fileSystem: fileSystem) }, throws: isBadHeader)
    }

    @Test("flipping every bit of a small journal is detected at the right frame; reads never return wrong data")
    func flipEveryBit() async throws {
        let small = try await SmallJournal.make(batches: 4, seed: 17, segmentBytesMax: 1 << 20, maxFiller: 10)
        try await checkFlips(small, offsets: Array(0..<small.totalBytes), bitsPerByte: 8)
    }

    @Test("flipping a seeded sample of bytes in a multi-segment journal is detected at the right place")
    func flipSampledBytesAcrossSegments() async throws {
        let small = try await SmallJournal.make(batches: 30, seed: 23)
        #expect(small.segments.count > 1)
        var random = SeededRandom(seed: 29)
        let offsets = (0..<400).map { _ in Int.random(in: 0..<small.totalBytes, using: &random) }
        try await checkFlips(small, offsets: offsets, bitsPerByte: 1)
    }

    private func checkFlips(_ small: SmallJournal, offsets: [Int], bitsPerByte: Int) async throws {
        for offset in offsets {
            let (segmentIndex, frameStart) = small.location(ofByte: offset)
            var local = offset - small.segments[..<segmentIndex].reduce(0) { $0 + $1.bytes.count }
            for bit in 0..<bitsPerByte {
                var segments = small.segments
                segments[segmentIndex].bytes[local] ^= UInt8(1 << (bitsPerByte == 1 ? (offset % 8) : bit))
                let fileSystem = try small.fileSystem(with: segments)
                let report = try JournalVerifier.verify(at: journalPath, fileSystem: fileSystem)
                let first = try #require(report.problems.first, "flip at \(offset) bit \(bit) went unnoticed")
                #expect(first.location.segment == small.segments[segmentIndex].name, "flip at \(offset)")
                #expect(first.location.offset == Int64(frameStart), "flip at \(offset): \(first)")
                // Issue 13 A2/A4/B6: every flip is refused by the writer and by a reader, as
                // damage (never a torn tail) in the segment that holds it.
                let isDamageInSegment: (any Error) -> Bool = { error in
                    guard case .corruption(let problem) = error as? JournalError else { return false }
                    return problem.kind != .tornTail && problem.location.segment == small.segments[segmentIndex].name
                        && problem.location.sequenceNumber != nil
                }
                #expect("flip at \(offset) bit \(bit)", performing: { try Journal.open(at: journalPath, fileSystem: fileSystem) }, throws: isDamageInSegment)
                #expect(performing: { try JournalReader.open(at: journalPath, fileSystem: fileSystem) }, throws: isDamageInSegment)
                // Allowing damage: a prefix of the original records, or a typed error; never different data.
                if let reader = try? JournalReader.open(at: journalPath, fileSystem: fileSystem, allowingDamage: true) {
                    do {
                        let records = try reader.records()
                        #expect(zip(records, small.records).allSatisfy { $0.matches($1) }, "flip at \(offset)")
                        #expect(records.count <= small.records.count)
                    } catch is JournalError {}
                }
                if let journal = try? Journal.open(at: journalPath, fileSystem: fileSystem),
                   let records = try? journal.reader().records() {
                    #expect(zip(records, small.records).allSatisfy { $0.matches($1) }, "flip at \(offset)")
                }
            }
            local = 0
        }
    }
}
