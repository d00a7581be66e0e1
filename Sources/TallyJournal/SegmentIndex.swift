/// The sidecar index of one segment (`<first sequence, 20 digits>.index` beside its
/// `.segment`): hints where frames start, so that opening a journal and seeking to a sequence
/// number need not read every frame (Docs/JournalFormat.md, "Segment index").
///
/// An index is never evidence. Every hint is checked against the frame it names (header,
/// CRC32C, sequence numbers, length and chain value) before anything relies on it; a missing,
/// stale, damaged or lying index only costs a longer scan. The writer keeps it up to date
/// without syncing it.
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 64 | header: magic `TALLYIDX`, version, flags, the segment's first sequence number and chain start, CRC32C |
/// | 64 | 64 | tail slot: the segment's last frame when the writer closed or rotated (rewritten in place; all zeros when unset) |
/// | 128 | 64 × n | entries, in frame order, one every `entryIntervalBytes` of frames or more (appended) |
struct SegmentIndex: Sendable, Hashable {
    static let magic: [UInt8] = Array("TALLYIDX".utf8)
    static let formatVersion: UInt16 = 1
    static let headerBytes = 64
    /// Where the tail slot is.
    static let tailSlotOffset: Int64 = 64
    /// Where the first entry is.
    static let entriesOffset: Int64 = 128
    static let suffix = ".index"
    /// The most entries a reader loads (the newest ones): a hostile index file costs nothing.
    static let entriesLoadedMax = 4096

    /// The segment this index belongs to: its first sequence number and chain start. A sidecar
    /// naming anything else is ignored.
    var firstSequenceNumber: UInt64
    var chainStart: ChainValue
    /// The tail slot, when it holds a valid entry.
    var tail: SegmentIndexEntry?
    /// The valid entries loaded, oldest first: a prefix of the newest `entriesLoadedMax` entries
    /// in the file, up to the first damaged or out-of-order one.
    var entries: [SegmentIndexEntry]
    /// The position in the file of `entries[0]` (0 for the first entry).
    var firstEntryNumber: Int

    /// The name of the index file of `segment`.
    static func fileName(of segment: SegmentFile) -> String {
        String(segment.name.dropLast(SegmentFiles.suffix.count)) + suffix
    }

    /// How far apart the writer places entries: 256 KiB of frames, or more for segments over
    /// 64 MiB, so a segment has at most about 257 entries (16 KiB of index).
    static func entryIntervalBytes(segmentBytesMax: Int64) -> Int64 {
        max(256 << 10, segmentBytesMax / 256)
    }

    /// The newest hint whose frame lies wholly before `endOffset`: the tail slot or the last
    /// such entry, whichever names the later frame.
    func newestHint(endingBy endOffset: Int64) -> SegmentIndexEntry? {
        let entry = entries.last { $0.endOffset <= endOffset }
        guard let tail, tail.endOffset <= endOffset else { return entry }
        guard let entry else { return tail }
        return tail.offset > entry.offset ? tail : entry
    }

    /// The hint for the latest frame that starts at or before `sequenceNumber` and lies wholly
    /// before `endOffset`.
    func hint(atOrBefore sequenceNumber: UInt64, endingBy endOffset: Int64) -> SegmentIndexEntry? {
        let usable = { (entry: SegmentIndexEntry) in entry.firstSequenceNumber <= sequenceNumber && entry.endOffset <= endOffset }
        // Entries are in frame order, so the usable ones are a prefix: binary search its end.
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if usable(entries[middle]) { low = middle + 1 } else { high = middle }
        }
        let entry = low > 0 ? entries[low - 1] : nil
        guard let tail, usable(tail) else { return entry }
        guard let entry else { return tail }
        return tail.offset > entry.offset ? tail : entry
    }

    /// Whether this index belongs to the segment `header` describes.
    func belongs(to header: SegmentHeader) -> Bool {
        firstSequenceNumber == header.firstSequenceNumber && chainStart == header.chainStart
    }

    /// The 64-byte header.
    ///
    /// | offset | size | field |
    /// |---|---|---|
    /// | 0 | 8 | magic `TALLYIDX` |
    /// | 8 | 2 | index format version, 1 |
    /// | 10 | 2 | flags, 0 |
    /// | 12 | 4 | reserved, 0 |
    /// | 16 | 8 | the segment's first sequence number |
    /// | 24 | 32 | the segment's chain start |
    /// | 56 | 4 | reserved, 0 |
    /// | 60 | 4 | CRC32C of bytes 0..<60 |
    static func encodedHeader(of header: SegmentHeader) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(headerBytes)
        bytes.append(contentsOf: magic)
        bytes.appendLittleEndian(formatVersion)
        bytes.appendLittleEndian(UInt16(0))
        bytes.appendLittleEndian(UInt32(0))
        bytes.appendLittleEndian(header.firstSequenceNumber)
        bytes.append(contentsOf: header.chainStart.bytes)
        bytes.appendLittleEndian(UInt32(0))
        bytes.appendLittleEndian(CRC32C.checksum(bytes))
        precondition(bytes.count == headerBytes)
        return bytes
    }

    /// Parses an index header; nil when it is not one this build writes.
    static func decodeHeader(_ bytes: UnsafeRawBufferPointer) -> (firstSequenceNumber: UInt64, chainStart: ChainValue)? {
        guard bytes.count >= headerBytes, bytes.prefix(8).elementsEqual(magic),
              bytes.loadLittleEndian(at: 60, as: UInt32.self) == CRC32C.extend(0, UnsafeRawBufferPointer(rebasing: bytes[0..<60])),
              bytes.loadLittleEndian(at: 8, as: UInt16.self) == formatVersion,
              bytes.loadLittleEndian(at: 10, as: UInt16.self) == 0,
              bytes.loadLittleEndian(at: 12, as: UInt32.self) == 0,
              bytes.loadLittleEndian(at: 56, as: UInt32.self) == 0
        else { return nil }
        return (bytes.loadLittleEndian(at: 16, as: UInt64.self), ChainValue(unchecked: Array(bytes[24..<56])))
    }
}

/// One hint of a segment index: a frame's offset, the records it holds, its length and the
/// chain value after it, exactly as the frame's own header says them.
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 8 | frame offset in the segment (at least 64) |
/// | 8 | 8 | the frame's first sequence number |
/// | 16 | 4 | record count (at least 1) |
/// | 20 | 4 | frame bytes: 96 + stored payload length |
/// | 24 | 32 | chain value after the frame |
/// | 56 | 4 | reserved, 0 |
/// | 60 | 4 | CRC32C of bytes 0..<60 |
struct SegmentIndexEntry: Sendable, Hashable {
    static let size = 64

    var offset: Int64
    var firstSequenceNumber: UInt64
    var recordCount: Int
    var frameBytes: Int
    var chainValue: ChainValue

    /// The hint for the frame `header` at `offset`.
    init(_ header: FrameHeader, at offset: Int64) {
        self.init(
            offset: offset, firstSequenceNumber: header.firstSequenceNumber, recordCount: header.recordCount,
            frameBytes: header.frameBytes, chainValue: header.chainValue)
    }

    init(offset: Int64, firstSequenceNumber: UInt64, recordCount: Int, frameBytes: Int, chainValue: ChainValue) {
        self.offset = offset
        self.firstSequenceNumber = firstSequenceNumber
        self.recordCount = recordCount
        self.frameBytes = frameBytes
        self.chainValue = chainValue
    }

    var endOffset: Int64 { offset + Int64(frameBytes) }
    var lastSequenceNumber: UInt64 { firstSequenceNumber + UInt64(recordCount) - 1 }

    /// Whether `header`, read at `offset`, is the frame this hint names.
    func names(_ header: FrameHeader, at offset: Int64) -> Bool {
        offset == self.offset && header.firstSequenceNumber == firstSequenceNumber
            && header.recordCount == recordCount && header.frameBytes == frameBytes && header.chainValue == chainValue
    }

    func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.size)
        bytes.appendLittleEndian(UInt64(offset))
        bytes.appendLittleEndian(firstSequenceNumber)
        bytes.appendLittleEndian(UInt32(recordCount))
        bytes.appendLittleEndian(UInt32(frameBytes))
        bytes.append(contentsOf: chainValue.bytes)
        bytes.appendLittleEndian(UInt32(0))
        bytes.appendLittleEndian(CRC32C.checksum(bytes))
        precondition(bytes.count == Self.size)
        return bytes
    }

    /// Parses an entry; nil when its checksum, reserved bytes or fields are not valid (an
    /// unset tail slot, all zeros, is not valid either).
    static func decode(_ bytes: UnsafeRawBufferPointer) -> SegmentIndexEntry? {
        guard bytes.count >= size,
              bytes.loadLittleEndian(at: 60, as: UInt32.self) == CRC32C.extend(0, UnsafeRawBufferPointer(rebasing: bytes[0..<60])),
              bytes.loadLittleEndian(at: 56, as: UInt32.self) == 0
        else { return nil }
        let offset = bytes.loadLittleEndian(at: 0, as: UInt64.self)
        let firstSequenceNumber = bytes.loadLittleEndian(at: 8, as: UInt64.self)
        let recordCount = Int(bytes.loadLittleEndian(at: 16, as: UInt32.self))
        let frameBytes = Int(bytes.loadLittleEndian(at: 20, as: UInt32.self))
        guard offset >= UInt64(SegmentHeader.size), offset <= UInt64(Int64.max / 2),
              firstSequenceNumber >= 1, recordCount >= 1, recordCount <= JournalLimits.recordsPerFrameHardMax,
              firstSequenceNumber <= UInt64.max - UInt64(recordCount),
              frameBytes >= FrameHeader.size
        else { return nil }
        return SegmentIndexEntry(
            offset: Int64(offset), firstSequenceNumber: firstSequenceNumber, recordCount: recordCount,
            frameBytes: frameBytes, chainValue: ChainValue(unchecked: Array(bytes[24..<56])))
    }
}
