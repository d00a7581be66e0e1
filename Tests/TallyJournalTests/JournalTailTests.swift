import SystemPackage
import TallyJournal
import TallyTestSupport
import Testing

/// Finding the journal's end at open (`JournalTail`, used by `Journal.open` and
/// `JournalReader.open`) from the segment index: the newest hint verified against its frame,
/// then only the frames after it, with the torn-write and damage rules unchanged there
/// (Docs/JournalFormat.md, "Segment index" and "Recovery").
@Suite("Journal tail")
struct JournalTailTests {
    static let segmentName = "00000000000000000001.segment"
    static let indexPath = IndexedJournal.indexPath(of: segmentName)
    static let segmentPath = journalPath.appending(segmentName)

    @Test("with a current index, opening reads the segment header and one frame whatever the segment's length (reader and writer)")
    func openReadsOneFrameWithCurrentIndex() async throws {
        var reads: [[Int]] = []
        for frames in [400, 1600] {
            let fileSystem = try await IndexedJournal.closed(frames: frames)
            let reader = IndexedJournal.segmentReads(fileSystem) { try? JournalReader.open(at: journalPath, fileSystem: fileSystem) }
            #expect(reader.result?.lastSequenceNumber == UInt64(frames))
            let writer = IndexedJournal.segmentReads(fileSystem) {
                try? Journal.open(at: journalPath, options: IndexedJournal.options(), fileSystem: fileSystem)
            }
            #expect(writer.result?.lastSequenceNumber == UInt64(frames))
            try writer.result?.close()
            reads.append([reader.count, reader.bytes, writer.count, writer.bytes])
        }
        #expect(reads[0] == reads[1], "the same reads at 400 and 1,600 frames: \(reads)")
        let headerAndFrame = 64 + IndexedJournal.frameBytes
        #expect(reads[0] == [2, headerAndFrame, 2, headerAndFrame], "\(reads)")
    }

    @Test("a journal without an index (as the previous version wrote it) opens by scanning every frame, and the writer's open gives it an index")
    func missingIndexScansAndWriterWritesOne() async throws {
        let fileSystem = try await IndexedJournal.closed(frames: 300)
        try fileSystem.removeFile(at: Self.indexPath)
        let segmentBytes = try #require(fileSystem.contents(of: Self.segmentPath)).count
        let scanned = IndexedJournal.segmentReads(fileSystem) { try? JournalReader.open(at: journalPath, fileSystem: fileSystem) }
        #expect(scanned.result?.lastSequenceNumber == 300)
        #expect(scanned.bytes >= segmentBytes, "every frame read")
        #expect(!fileSystem.fileExists(at: Self.indexPath), "a reader writes nothing")
        let journal = try Journal.open(at: journalPath, options: IndexedJournal.options(), fileSystem: fileSystem)
        #expect(fileSystem.fileExists(at: Self.indexPath))
        try await IndexedJournal.append(1, to: journal, seed: 9)
        try journal.close()
        let indexed = IndexedJournal.segmentReads(fileSystem) { try? JournalReader.open(at: journalPath, fileSystem: fileSystem) }
        #expect(indexed.result?.lastSequenceNumber == 301)
        #expect(indexed.bytes == 64 + IndexedJournal.frameBytes)
    }

    @Test("an index behind the segment (appends after the index was last written: a crash between append and index update) verifies its hint and reads only the frames after it; the writer's open brings it up to date")
    func staleIndexScansOnlyFramesAfterItsHint() async throws {
        let fileSystem = try await IndexedJournal.closed(frames: 200)
        let oldIndex = try #require(fileSystem.contents(of: Self.indexPath))
        let journal = try Journal.open(at: journalPath, options: IndexedJournal.options(), fileSystem: fileSystem)
        try await IndexedJournal.append(5, to: journal, seed: 8)
        try journal.close()
        fileSystem.setContents(of: Self.indexPath, to: oldIndex)
        let reader = IndexedJournal.segmentReads(fileSystem) { try? JournalReader.open(at: journalPath, fileSystem: fileSystem) }
        #expect(reader.result?.lastSequenceNumber == 205)
        #expect(reader.bytes == 64 + 6 * IndexedJournal.frameBytes, "the hinted frame and the five after it")
        let writer = try Journal.open(at: journalPath, options: IndexedJournal.options(), fileSystem: fileSystem)
        #expect(writer.lastSequenceNumber == 205 && writer.recoveryReport.isClean)
        try writer.close()
        let again = IndexedJournal.segmentReads(fileSystem) { try? JournalReader.open(at: journalPath, fileSystem: fileSystem) }
        #expect(again.bytes == 64 + IndexedJournal.frameBytes, "the rewritten index names the last frame")
        let records = try readAll(journalPath, fileSystem: fileSystem)
        #expect(records.map(\.sequenceNumber) == Array(1...205))
    }

    /// Found in review: an entry was written with its frame, before the sync. A power loss may
    /// keep a later frame's page and its entry and drop an earlier frame's page; the open then
    /// verified the later frame, walked to a clean end and kept the hole before it as history.
    @Test("an index entry names only a durable frame: frames written but not synced get none, a sync writes the entries due")
    func entriesNameOnlyDurableFrames() async throws {
        let fileSystem = FaultInjectingFileSystem()
        let journal = try Journal.open(at: journalPath, options: IndexedJournal.options(), fileSystem: fileSystem)
        // One entry per 256 KiB of 200-byte frames: 3,000 frames make two entries due.
        try await IndexedJournal.append(3_000, to: journal)
        let indexPath = IndexedJournal.indexPath(of: Self.segmentName)
        let beforeSync = fileSystem.contents(of: indexPath)?.count ?? 0
        #expect(beforeSync <= 128, "no entry before its frame is durable (index of \(beforeSync) bytes)")
        try journal.synchronize()
        let afterSync = fileSystem.contents(of: indexPath)?.count ?? 0
        #expect(afterSync == 128 + 2 * 64, "the two entries due, written once their frames are durable (\(afterSync) bytes)")
        try journal.close()
        #expect(try IndexedJournal.frames(fileSystem).count == 3_000)
    }

    @Test("a killed writer (no close) leaves the tail slot behind: the next open reads the frames after it, all of them served")
    func killedWriterLeavesTailBehind() async throws {
        let fileSystem = try await IndexedJournal.closed(frames: 50)
        try await IndexedJournal.appendWithoutClosing(3, fileSystem: fileSystem, seed: 3)
        let reader = IndexedJournal.segmentReads(fileSystem) { try? JournalReader.open(at: journalPath, fileSystem: fileSystem) }
        #expect(reader.result?.lastSequenceNumber == 53)
        #expect(reader.bytes == 64 + 4 * IndexedJournal.frameBytes)
    }

    /// Lies an index can tell, each with its checksum recomputed so that only the frames can
    /// expose it.
    static let lies: [(String, @Sendable (FaultInjectingFileSystem) -> Void)] = [
        ("the tail slot names the last frame with another chain value", { fileSystem in
            IndexedJournal.rewriteEntry(at: 64, of: indexPath, in: fileSystem) { $0[30] ^= 0x01 }
        }),
        ("the tail slot names the last frame's offset with another first sequence number", { fileSystem in
            IndexedJournal.rewriteEntry(at: 64, of: indexPath, in: fileSystem) { $0[8] ^= 0x01 }
        }),
        ("the tail slot names an offset 8 bytes before the last frame", { fileSystem in
            IndexedJournal.rewriteEntry(at: 64, of: indexPath, in: fileSystem) { $0[0] &-= 8 }
        }),
        ("the tail slot names a shorter frame than the last one", { fileSystem in
            IndexedJournal.rewriteEntry(at: 64, of: indexPath, in: fileSystem) { $0[20] &-= 1 }
        }),
        ("the tail slot names a frame beyond the end of the segment", { fileSystem in
            IndexedJournal.rewriteEntry(at: 64, of: indexPath, in: fileSystem) { $0[1] &+= 0x10 }
        }),
        ("the index header is another segment's (chain start changed)", { fileSystem in
            IndexedJournal.rewriteEntry(at: 0, of: indexPath, in: fileSystem) { $0[40] ^= 0xFF }
        }),
        ("the tail slot is torn (its second half never written)", { fileSystem in
            guard var bytes = fileSystem.contents(of: indexPath) else { return }
            bytes.replaceSubrange(96..<128, with: [UInt8](repeating: 0, count: 32))
            fileSystem.setContents(of: indexPath, to: bytes)
        }),
        ("the index is garbage", { fileSystem in
            var random = SeededRandom(seed: 11)
            fileSystem.setContents(of: indexPath, to: random.bytes(4096))
        }),
    ]

    @Test("a hint that does not verify against its frame (chain value, sequence, offset, length, owner, a torn or garbage index) is never trusted: open scans the whole segment and serves exactly the journal; the writer rewrites the index",
          arguments: 0..<lies.count)
    func lyingIndexIsNeverTrusted(lie: Int) async throws {
        let (label, tell) = Self.lies[lie]
        let fileSystem = try await IndexedJournal.closed(frames: 120)
        let segmentBytes = try #require(fileSystem.contents(of: Self.segmentPath)).count
        tell(fileSystem)
        let reader = IndexedJournal.segmentReads(fileSystem) { try? JournalReader.open(at: journalPath, fileSystem: fileSystem) }
        #expect(reader.result?.lastSequenceNumber == 120, "\(label)")
        #expect(reader.bytes >= segmentBytes, "\(label): the whole segment scanned, the hint not trusted")
        #expect(try readAll(journalPath, fileSystem: fileSystem).map(\.sequenceNumber) == Array(1...120), "\(label)")
        let journal = try Journal.open(at: journalPath, options: IndexedJournal.options(), fileSystem: fileSystem)
        #expect(journal.lastSequenceNumber == 120 && journal.recoveryReport.isClean, "\(label)")
        try await IndexedJournal.append(1, to: journal, seed: 5)
        try journal.close()
        let again = IndexedJournal.segmentReads(fileSystem) { try? JournalReader.open(at: journalPath, fileSystem: fileSystem) }
        #expect(again.result?.lastSequenceNumber == 121 && again.bytes == 64 + IndexedJournal.frameBytes, "\(label): rewritten")
        #expect(try JournalVerifier.verify(at: journalPath, fileSystem: fileSystem).isClean, "\(label)")
    }

    @Test("a torn write after the hinted frame is still a torn tail: readers do not serve it, the writer cuts it and reports it")
    func tornTailAfterHintIsCut() async throws {
        for tear in ["short frame", "zeros"] {
            let fileSystem = try await IndexedJournal.closed(frames: 80)
            try await IndexedJournal.appendWithoutClosing(2, fileSystem: fileSystem, seed: 4)
            var bytes = try #require(fileSystem.contents(of: Self.segmentPath))
            let lastFrame = bytes.count - IndexedJournal.frameBytes
            if tear == "short frame" {
                bytes.removeLast(IndexedJournal.frameBytes / 2)
            } else {
                bytes.replaceSubrange(lastFrame..<bytes.count, with: [UInt8](repeating: 0, count: IndexedJournal.frameBytes))
            }
            fileSystem.setContents(of: Self.segmentPath, to: bytes)
            let reader = try JournalReader.open(at: journalPath, fileSystem: fileSystem)
            #expect(reader.lastSequenceNumber == 81, "\(tear)")
            #expect(reader.recoveryReport.problems.map(\.kind) == [.tornTail], "\(tear)")
            let journal = try Journal.open(at: journalPath, options: IndexedJournal.options(), fileSystem: fileSystem)
            #expect(journal.lastSequenceNumber == 81, "\(tear)")
            #expect(journal.recoveryReport.bytesDropped == Int64(bytes.count - lastFrame), "\(tear)")
            #expect(journal.recoveryReport.truncatedAt?.offset == Int64(lastFrame), "\(tear)")
            #expect(journal.recoveryReport.truncatedAt?.sequenceNumber == 82, "\(tear)")
            try await IndexedJournal.append(1, to: journal, seed: 6)
            try journal.close()
            #expect(try readAll(journalPath, fileSystem: fileSystem).count == 82, "\(tear)")
        }
    }

    @Test("a damaged frame after the hinted frame followed by a valid one is corruption: the writer and readers refuse it naming segment, offset and sequence; allowing damage serves the prefix")
    func corruptionAfterHintIsRefused() async throws {
        let fileSystem = try await IndexedJournal.closed(frames: 60)
        try await IndexedJournal.appendWithoutClosing(2, fileSystem: fileSystem, seed: 2)
        var bytes = try #require(fileSystem.contents(of: Self.segmentPath))
        let damaged = bytes.count - 2 * IndexedJournal.frameBytes
        bytes[damaged + 150] ^= 0x5A
        fileSystem.setContents(of: Self.segmentPath, to: bytes)
        let expected = JournalLocation(segment: Self.segmentName, offset: Int64(damaged), sequenceNumber: 61)
        #expect { try Journal.open(at: journalPath, options: IndexedJournal.options(), fileSystem: fileSystem) } throws: { error in
            guard case .corruption(let problem) = error as? JournalError else { return false }
            return problem.location == expected && problem.kind == .checksumMismatch
        }
        #expect { try JournalReader.open(at: journalPath, fileSystem: fileSystem) } throws: { error in
            guard case .corruption(let problem) = error as? JournalError else { return false }
            return problem.location == expected
        }
        let prefix = try JournalReader.open(at: journalPath, fileSystem: fileSystem, allowingDamage: true)
        #expect(prefix.lastSequenceNumber == 60)
        #expect(try prefix.records().count == 60)
    }

    @Test("damage before the hinted frame is not looked for at open (it is not read): reading that frame throws corruption there, and the verifier reports it")
    func damageBeforeHintIsFoundByReadsAndVerification() async throws {
        let fileSystem = try await IndexedJournal.closed(frames: 40)
        let third = try #require(try IndexedJournal.frames(fileSystem).first { $0.firstSequenceNumber == 3 })
        var bytes = try #require(fileSystem.contents(of: Self.segmentPath))
        bytes[Int(third.offset) + 120] ^= 0x01
        fileSystem.setContents(of: Self.segmentPath, to: bytes)
        let reader = try JournalReader.open(at: journalPath, fileSystem: fileSystem)
        #expect(reader.lastSequenceNumber == 40)
        #expect { try reader.records() } throws: { error in
            guard case .corruption(let problem) = error as? JournalError else { return false }
            return problem.location.offset == third.offset && problem.kind == .checksumMismatch
        }
        let report = try JournalVerifier.verify(at: journalPath, fileSystem: fileSystem)
        #expect(report.problems.first?.location.offset == third.offset)
        #expect(report.problems.first?.kind == .checksumMismatch)
    }

    @Test("rotation: each sealed segment's index names its last frame, so opening reads a header and one frame per segment; a sealed segment without an index is walked whole and gets one from the writer")
    func rotationLeavesSealedSegmentsIndexed() async throws {
        let fileSystem = try await IndexedJournal.closed(frames: 100, segmentBytesMax: 4096)
        let names = try segmentNames(fileSystem)
        try #require(names.count >= 5)
        let reader = IndexedJournal.segmentReads(fileSystem) { try? JournalReader.open(at: journalPath, fileSystem: fileSystem) }
        #expect(reader.result?.lastSequenceNumber == 100)
        #expect(reader.count == 2 * names.count, "a header and a frame per segment")
        #expect(reader.bytes == names.count * (64 + IndexedJournal.frameBytes))
        let middle = IndexedJournal.indexPath(of: names[2])
        try fileSystem.removeFile(at: middle)
        let walked = IndexedJournal.segmentReads(fileSystem) { try? JournalReader.open(at: journalPath, fileSystem: fileSystem) }
        #expect(walked.result?.lastSequenceNumber == 100)
        #expect(walked.bytes > reader.bytes)
        let journal = try Journal.open(at: journalPath, options: IndexedJournal.options(4096), fileSystem: fileSystem)
        #expect(fileSystem.fileExists(at: middle), "the writer's open indexes the sealed segment again")
        try await IndexedJournal.append(30, to: journal, seed: 12)
        try journal.close()
        let grown = try segmentNames(fileSystem)
        let after = IndexedJournal.segmentReads(fileSystem) { try? JournalReader.open(at: journalPath, fileSystem: fileSystem) }
        #expect(after.result?.lastSequenceNumber == 130)
        #expect(after.bytes == grown.count * (64 + IndexedJournal.frameBytes))
        #expect(try readAll(journalPath, fileSystem: fileSystem).map(\.sequenceNumber) == Array(1...130))
    }

    @Test("a sealed segment whose index lies about its last frame is walked whole; one cut back is still a sequence gap at the next segment")
    func sealedSegmentIndexIsVerified() async throws {
        let fileSystem = try await IndexedJournal.closed(frames: 60, segmentBytesMax: 4096)
        let names = try segmentNames(fileSystem)
        IndexedJournal.rewriteEntry(at: 64, of: IndexedJournal.indexPath(of: names[1]), in: fileSystem) { $0[30] ^= 0x01 }
        #expect(try JournalReader.open(at: journalPath, fileSystem: fileSystem).lastSequenceNumber == 60)
        let path = journalPath.appending(names[1])
        let bytes = try #require(fileSystem.contents(of: path))
        fileSystem.setContents(of: path, to: Array(bytes.dropLast(IndexedJournal.frameBytes)))
        #expect { try JournalReader.open(at: journalPath, fileSystem: fileSystem) } throws: { error in
            guard case .corruption(let problem) = error as? JournalError else { return false }
            return problem.kind == .sequenceGap && problem.location.segment == names[2]
        }
        #expect(throws: JournalError.self) { try Journal.open(at: journalPath, options: IndexedJournal.options(4096), fileSystem: fileSystem) }
    }

    @Test("a power loss takes the unsynced index with it: the next open scans, every acknowledged record is there, and the writer indexes the segment again")
    func powerLossLosesOnlyTheIndex() async throws {
        for mode in [FaultInjectingFileSystem.CrashMode.dropUnsynced, .keepEverything, .tornWithZeros] {
            let fileSystem = FaultInjectingFileSystem(seed: 21)
            let journal = try Journal.open(at: journalPath, fileSystem: fileSystem)
            try await IndexedJournal.append(30, to: journal)
            try journal.close()
            let reopened = try Journal.open(at: journalPath, fileSystem: fileSystem)
            try await IndexedJournal.append(10, to: reopened, seed: 13)
            fileSystem.crash(mode)
            let records = try readAll(journalPath, fileSystem: fileSystem)
            #expect(records.map(\.sequenceNumber) == Array(1...40), "\(mode): every acknowledged record")
            let writer = try Journal.open(at: journalPath, fileSystem: fileSystem)
            #expect(writer.lastSequenceNumber == 40, "\(mode)")
            try writer.close()
            let indexed = IndexedJournal.segmentReads(fileSystem) { try? JournalReader.open(at: journalPath, fileSystem: fileSystem) }
            #expect(indexed.bytes == 64 + IndexedJournal.frameBytes, "\(mode)")
        }
    }

    @Test("a failed index write is not an append failure: the append succeeds, the index stops being updated, and the next open scans from its newest hint")
    func failedIndexWriteCostsOnlyAScan() async throws {
        let fileSystem = try await IndexedJournal.closed(frames: 30)
        let journal = try Journal.open(at: journalPath, options: IndexedJournal.options(), fileSystem: fileSystem)
        try await IndexedJournal.append(4, to: journal, seed: 14)
        fileSystem.failNextWrite(toPathContaining: ".index", with: .ioError)
        try journal.close()
        let reader = IndexedJournal.segmentReads(fileSystem) { try? JournalReader.open(at: journalPath, fileSystem: fileSystem) }
        #expect(reader.result?.lastSequenceNumber == 34)
        #expect(reader.bytes == 64 + 5 * IndexedJournal.frameBytes, "from the tail slot of the first close")
    }
}
