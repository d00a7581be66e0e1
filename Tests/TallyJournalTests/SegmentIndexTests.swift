import SystemPackage
@testable import TallyJournal
import TallyTestSupport
import Testing

/// The bytes of the segment index (Docs/JournalFormat.md, "Segment index"): what the writer
/// puts there, and what a reader takes from a torn, damaged or hostile file.
@Suite("Segment index")
struct SegmentIndexTests {
    static let segment = SegmentFile(name: "00000000000000000001.segment", firstSequenceNumber: 1)
    static let header = SegmentHeader(firstSequenceNumber: 1, chainStart: .genesis, isKeyedChain: false)

    static func load(_ fileSystem: FaultInjectingFileSystem) -> SegmentIndex? {
        SegmentIndex.load(of: segment, header: header, in: journalPath, fileSystem: fileSystem)
    }

    @Test("the writer's index: header bound to its segment, an entry per 256 KiB of frames naming that frame, the last frame in the tail slot after close")
    func writerLaysOutTheIndex() async throws {
        let fileSystem = try await IndexedJournal.closed(frames: 3000)
        let bytes = try #require(fileSystem.contents(of: IndexedJournal.indexPath(of: Self.segment.name)))
        #expect(Array(bytes[0..<8]) == Array("TALLYIDX".utf8))
        #expect(bytes[8] == 1 && bytes[9] == 0, "index format version 1")
        #expect(bytes[16] == 1 && bytes[17..<24].allSatisfy { $0 == 0 }, "the segment's first sequence number")
        #expect(bytes[24..<56].allSatisfy { $0 == 0 }, "the segment's chain start (genesis)")
        let index = try #require(Self.load(fileSystem))
        let frames = try IndexedJournal.frames(fileSystem)
        let byOffset = Dictionary(uniqueKeysWithValues: frames.map { ($0.offset, $0) })
        // 3000 frames of 200 bytes: 600,000 bytes, an entry at each 256 KiB (1,311 frames).
        #expect(index.entries.count == 2)
        for entry in index.entries + [try #require(index.tail)] {
            let frame = try #require(byOffset[entry.offset])
            #expect(entry.firstSequenceNumber == frame.firstSequenceNumber && entry.recordCount == frame.records.count)
            #expect(entry.frameBytes == 96 + frame.storedBytes && entry.chainValue == frame.chainValue)
        }
        #expect(index.entries[0].endOffset - 64 >= 256 << 10 && index.entries[0].endOffset - 64 < (256 << 10) + 200)
        #expect(index.tail?.lastSequenceNumber == 3000)
        #expect(bytes.count == 128 + 64 * 2)
    }

    @Test("a reader takes the entries up to the first torn, damaged or out-of-order one, and the tail slot only when its checksum holds")
    func damagedEntriesEndTheUsablePrefix() async throws {
        let fileSystem = try await IndexedJournal.closed(frames: 4000)
        let path = IndexedJournal.indexPath(of: Self.segment.name)
        let bytes = try #require(fileSystem.contents(of: path))
        #expect(Self.load(fileSystem)?.entries.count == 3)
        fileSystem.setContents(of: path, to: Array(bytes.dropLast(10)))
        #expect(Self.load(fileSystem)?.entries.count == 2, "a torn last entry is left out")
        var flipped = bytes
        flipped[128 + 64 + 5] ^= 0x01
        fileSystem.setContents(of: path, to: flipped)
        #expect(Self.load(fileSystem)?.entries.count == 1, "a damaged entry ends the prefix")
        var swapped = bytes
        swapped.replaceSubrange(128..<256, with: Array(bytes[192..<256]) + Array(bytes[128..<192]))
        fileSystem.setContents(of: path, to: swapped)
        #expect(Self.load(fileSystem)?.entries.map(\.lastSequenceNumber) == [2622], "entries out of frame order end the prefix")
        var tail = bytes
        tail[64 + 3] ^= 0x01
        fileSystem.setContents(of: path, to: tail)
        #expect(Self.load(fileSystem)?.tail == nil)
        #expect(Self.load(fileSystem)?.entries.count == 3)
    }

    @Test("a hostile index (huge, or entries with hostile lengths) loads at most 4,096 entries, never crashes, and every hint is still verified")
    func hostileIndexIsBounded() async throws {
        let fileSystem = try await IndexedJournal.closed(frames: 50)
        let path = IndexedJournal.indexPath(of: Self.segment.name)
        var bytes = Array(try #require(fileSystem.contents(of: path)).prefix(128))
        for number in 0..<10_000 {
            let entry = SegmentIndexEntry(
                offset: 64 + Int64(number) * 300, firstSequenceNumber: UInt64(number) + 1, recordCount: 1,
                frameBytes: Int(UInt32.max), chainValue: .genesis)
            bytes += entry.encoded()
        }
        fileSystem.setContents(of: path, to: bytes)
        let index = try #require(Self.load(fileSystem))
        #expect(index.entries.count <= SegmentIndex.entriesLoadedMax)
        #expect(index.firstEntryNumber == 10_000 - SegmentIndex.entriesLoadedMax)
        let reader = try JournalReader.open(at: journalPath, fileSystem: fileSystem)
        #expect(reader.lastSequenceNumber == 50)
        #expect(try reader.records(from: 25).count == 26)
    }

    @Test("entries round-trip through their 64 bytes; a zero slot and out-of-range fields do not decode")
    func entryEncoding() {
        let entry = SegmentIndexEntry(
            offset: 4711, firstSequenceNumber: 42, recordCount: 3, frameBytes: 300,
            chainValue: ChainValue(bytes: [UInt8](repeating: 0xAB, count: 32)) ?? .genesis)
        let bytes = entry.encoded()
        #expect(bytes.count == 64)
        #expect(bytes.withUnsafeBytes { SegmentIndexEntry.decode($0) } == entry)
        #expect([UInt8](repeating: 0, count: 64).withUnsafeBytes { SegmentIndexEntry.decode($0) } == nil)
        let small = SegmentIndexEntry(offset: 10, firstSequenceNumber: 1, recordCount: 1, frameBytes: 100, chainValue: .genesis)
        #expect(small.encoded().withUnsafeBytes { SegmentIndexEntry.decode($0) } == nil, "a frame starts after the segment header")
    }
}
