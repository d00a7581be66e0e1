import SystemPackage
import TallyJournal
import TallyTestSupport
import Testing

/// Seeking a reader to a sequence number (`JournalReader.forEachFrame(from:)`, `frameCursor`,
/// `location(of:)`): through the segment index's newest verified hint at or before it, then
/// frame headers read through one buffer.
@Suite("JournalReader seeking")
struct JournalReaderSeekTests {
    static let indexPath = IndexedJournal.indexPath(of: "00000000000000000001.segment")

    static func firstFrame(from start: UInt64, _ fileSystem: FaultInjectingFileSystem) -> (frame: JournalFrame?, count: Int, bytes: Int) {
        let reader = try? JournalReader.open(at: journalPath, fileSystem: fileSystem)
        let read = IndexedJournal.segmentReads(fileSystem) { () -> JournalFrame? in
            var found: JournalFrame?
            try? reader?.forEachFrame(from: start) { frame in
                found = frame
                return false
            }
            return found
        }
        return (read.result, read.count, read.bytes)
    }

    @Test("reading from the last sequence number reads one frame whatever the segment's length")
    func seekToLastReadsOneFrame() async throws {
        var reads: [[Int]] = []
        for frames in [500, 2000] {
            let fileSystem = try await IndexedJournal.closed(frames: frames)
            let seek = Self.firstFrame(from: UInt64(frames), fileSystem)
            #expect(seek.frame?.firstSequenceNumber == UInt64(frames))
            reads.append([seek.count, seek.bytes])
        }
        #expect(reads == [[1, IndexedJournal.frameBytes], [1, IndexedJournal.frameBytes]], "\(reads)")
    }

    @Test("reading from the middle starts at the newest entry at or before it: one read, at most 256 KiB and a frame before it")
    func seekToMiddleStartsAtNearestEntry() async throws {
        let fileSystem = try await IndexedJournal.closed(frames: 3000)
        for start in [UInt64(2), 1311, 1312, 2000, 2622, 2999] {
            let seek = Self.firstFrame(from: start, fileSystem)
            #expect(seek.frame?.firstSequenceNumber == start)
            #expect(seek.frame?.records.first?.sequenceNumber == start)
            #expect(seek.count == 1, "\(start): \(seek.count) reads")
        }
        let location = try JournalReader.open(at: journalPath, fileSystem: fileSystem).location(of: 2000)
        #expect(location.offset == 64 + 1999 * Int64(IndexedJournal.frameBytes) && location.sequenceNumber == 2000)
    }

    @Test("a lying or missing index does not change what a reader serves from a sequence number")
    func seekIgnoresHintsThatDoNotVerify() async throws {
        let fileSystem = try await IndexedJournal.closed(frames: 3000)
        let expected = try JournalReader.open(at: journalPath, fileSystem: fileSystem).records(from: 2500, through: 2510)
        // The first entry (frame 1311) now claims the chain value of another frame.
        IndexedJournal.rewriteEntry(at: 128, of: Self.indexPath, in: fileSystem) { $0[40] ^= 0x10 }
        IndexedJournal.rewriteEntry(at: 192, of: Self.indexPath, in: fileSystem) { $0[8] ^= 0x02 }
        #expect(try JournalReader.open(at: journalPath, fileSystem: fileSystem).records(from: 1500, through: 1510).map(\.sequenceNumber) == Array(1500...1510))
        #expect(try JournalReader.open(at: journalPath, fileSystem: fileSystem).records(from: 2500, through: 2510) == expected)
        try fileSystem.removeFile(at: Self.indexPath)
        #expect(try JournalReader.open(at: journalPath, fileSystem: fileSystem).records(from: 2500, through: 2510) == expected)
    }
}
