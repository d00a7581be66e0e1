import SystemPackage

extension SegmentIndex {
    /// Reads the index of `segment`, whose header is `header`: nil when there is none, it cannot
    /// be read, or it belongs to another segment (another first sequence number or chain start).
    /// Never throws: an index that cannot be read is no index, and costs a longer scan.
    ///
    /// One or two reads: the header, the tail slot and the newest `entriesLoadedMax` entries.
    static func load(
        of segment: SegmentFile, header: SegmentHeader, in directory: FilePath, fileSystem: any FileSystem
    ) -> SegmentIndex? {
        load(of: segment, firstSequenceNumber: header.firstSequenceNumber, chainStart: header.chainStart,
             in: directory, fileSystem: fileSystem)
    }

    /// Reads the index of `segment` when its header was not read (a reader seeking): bound to
    /// the first sequence number its name announces, and to `chainStart` when given. Its hints
    /// are verified against the frames they name all the same.
    static func load(
        of segment: SegmentFile, firstSequenceNumber: UInt64, chainStart: ChainValue?, in directory: FilePath,
        fileSystem: any FileSystem
    ) -> SegmentIndex? {
        let path = directory.appending(fileName(of: segment))
        guard let file = try? fileSystem.openFile(at: path, writable: false), let size = try? file.size() else { return nil }
        return load(from: file, size: size, firstSequenceNumber: firstSequenceNumber, chainStart: chainStart)
    }

    /// Reads an index from `file` of `size` bytes (see ``load(of:header:in:fileSystem:)``).
    static func load(
        from file: any JournalFile, size: Int64, firstSequenceNumber: UInt64, chainStart: ChainValue?
    ) -> SegmentIndex? {
        guard size >= Int64(headerBytes) else { return nil }
        let entryCount = size >= entriesOffset ? Int(min((size - entriesOffset) / Int64(SegmentIndexEntry.size), Int64(Int32.max))) : 0
        let firstLoaded = max(0, entryCount - entriesLoadedMax)
        let loadedBytes = (entryCount - firstLoaded) * SegmentIndexEntry.size
        let headBytes = Int(min(size, entriesOffset))
        guard let head = try? file.readBytes(count: firstLoaded == 0 ? headBytes + loadedBytes : headBytes, at: 0),
              head.count >= headBytes
        else { return nil }
        var entryBytes: ArraySlice<UInt8> = head[headBytes...]
        if firstLoaded > 0 {
            let start = entriesOffset + Int64(firstLoaded) * Int64(SegmentIndexEntry.size)
            guard let read = try? file.readBytes(count: loadedBytes, at: start) else { return nil }
            entryBytes = read[...]
        }
        guard let owner = head.withUnsafeBytes({ decodeHeader($0) }),
              owner.firstSequenceNumber == firstSequenceNumber, chainStart.map({ $0 == owner.chainStart }) ?? true
        else { return nil }
        var tail: SegmentIndexEntry?
        if head.count >= Int(entriesOffset) {
            tail = head.withUnsafeBytes { SegmentIndexEntry.decode(UnsafeRawBufferPointer(rebasing: $0[headerBytes..<Int(entriesOffset)])) }
        }
        if let hint = tail, hint.firstSequenceNumber < firstSequenceNumber { tail = nil }
        return SegmentIndex(
            firstSequenceNumber: owner.firstSequenceNumber, chainStart: owner.chainStart, tail: tail,
            entries: validPrefix(of: entryBytes, segmentStart: firstSequenceNumber), firstEntryNumber: firstLoaded)
    }

    /// The entries in `bytes` up to the first one that is damaged, torn or out of order (each
    /// must start after the previous frame ends, at a later sequence number).
    private static func validPrefix(of bytes: ArraySlice<UInt8>, segmentStart: UInt64) -> [SegmentIndexEntry] {
        var entries: [SegmentIndexEntry] = []
        var start = bytes.startIndex
        while start + SegmentIndexEntry.size <= bytes.endIndex {
            let decoded = bytes[start..<(start + SegmentIndexEntry.size)].withUnsafeBytes { SegmentIndexEntry.decode($0) }
            guard let entry = decoded, entry.firstSequenceNumber >= segmentStart else { break }
            if let previous = entries.last,
               entry.offset < previous.endOffset || entry.firstSequenceNumber <= previous.lastSequenceNumber {
                break
            }
            entries.append(entry)
            start += SegmentIndexEntry.size
        }
        return entries
    }
}
