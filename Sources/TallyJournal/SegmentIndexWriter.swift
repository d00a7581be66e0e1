import SystemPackage

/// The writer's side of the current segment's index (`SegmentIndex`): an entry appended every
/// `entryIntervalBytes` of frames, once the frame it names is durable (`durable(through:)`), the
/// tail slot rewritten with the last frame at close and at rotation (after their sync). A hint
/// never names a frame that is not durable: a power loss may keep a later frame's page and drop
/// an earlier one's, and an open that trusted the later frame's hint would take the hole before
/// it for history instead of a torn tail to cut. Nothing is synced and no failure is reported: the index is a hint, and an index a
/// crash or a failed write left stale or torn only costs the next open a longer scan (the hints
/// are verified there). After a failed write the index is left alone until the next open
/// rewrites it.
struct SegmentIndexWriter {
    let path: FilePath
    let header: SegmentHeader
    let entryIntervalBytes: Int64
    let fileSystem: any FileSystem
    /// The open index file; nil until the first write opens or creates it.
    private var file: (any JournalFile)?
    /// Whether the file on disk already holds what this writer describes (header, tail slot
    /// and `entryCount` entries): the first write then opens it as it is instead of replacing it.
    private var isFileCurrent = false
    /// Set by a failed write.
    private var isStopped = false
    private var entryCount: Int
    private var lastEntryEnd: Int64
    /// What the tail slot holds on disk.
    private var writtenTail: SegmentIndexEntry?
    /// The last frame written to the segment.
    private var lastFrame: SegmentIndexEntry?
    /// Entries due (their interval passed) whose frames are not durable yet, in frame order.
    private var dueEntries: [SegmentIndexEntry] = []

    /// The index of a segment just created: any older file of its name (an index left behind
    /// by a repair) is removed; the new file is created by the first write.
    static func forNewSegment(
        _ segment: SegmentFile, header: SegmentHeader, in directory: FilePath, fileSystem: any FileSystem,
        entryIntervalBytes: Int64
    ) -> SegmentIndexWriter {
        let path = directory.appending(SegmentIndex.fileName(of: segment))
        var writer = SegmentIndexWriter(
            path: path, header: header, entryIntervalBytes: entryIntervalBytes, fileSystem: fileSystem,
            entryCount: 0, lastEntryEnd: Int64(SegmentHeader.size))
        if fileSystem.fileExists(at: path) {
            do {
                try fileSystem.removeFile(at: path)
            } catch {
                writer.isStopped = true
            }
        }
        return writer
    }

    /// The index of the segment `plan` describes, brought up to date with it: rewritten whole
    /// when it does not already say what the plan says (no index, a stale or damaged one, or
    /// frames after its newest hint), else left as it is.
    static func open(
        _ plan: SegmentIndexPlan, in directory: FilePath, fileSystem: any FileSystem, entryIntervalBytes: Int64
    ) -> SegmentIndexWriter {
        var writer = SegmentIndexWriter(
            path: directory.appending(SegmentIndex.fileName(of: plan.segment)), header: plan.header,
            entryIntervalBytes: entryIntervalBytes, fileSystem: fileSystem, entryCount: plan.entries.count,
            lastEntryEnd: plan.entries.last?.endOffset ?? Int64(SegmentHeader.size))
        writer.writtenTail = plan.tail
        writer.lastFrame = plan.tail
        writer.isFileCurrent = plan.isCurrent && plan.hasFile
        if !plan.isCurrent { writer.rewrite(entries: plan.entries) }
        return writer
    }

    /// Notes a frame just written at `entry.offset`; it becomes an entry of the index when
    /// `entryIntervalBytes` of frames have passed since the last entry, written once it is durable.
    mutating func recordFrame(_ entry: SegmentIndexEntry) {
        lastFrame = entry
        guard entry.endOffset - lastEntryEnd >= entryIntervalBytes else { return }
        lastEntryEnd = entry.endOffset
        dueEntries.append(entry)
    }

    /// Appends the due entries whose frames are durable now (every record through `sequenceNumber`).
    mutating func durable(through sequenceNumber: UInt64) {
        while let entry = dueEntries.first, entry.lastSequenceNumber <= sequenceNumber {
            dueEntries.removeFirst()
            let position = SegmentIndex.entriesOffset + Int64(entryCount) * Int64(SegmentIndexEntry.size)
            guard write(entry.encoded(), at: position) else { return }
            entryCount += 1
        }
    }

    /// Writes the last frame into the tail slot, unless it is there already (at close and at
    /// rotation: the next open then verifies that one frame and scans nothing).
    mutating func writeTail() {
        guard let lastFrame, lastFrame != writtenTail else { return }
        if write(lastFrame.encoded(), at: SegmentIndex.tailSlotOffset) { writtenTail = lastFrame }
    }

    /// Replaces the file's contents (at open, before anything else is written): header, tail
    /// slot, `entries`.
    private mutating func rewrite(entries: [SegmentIndexEntry]) {
        var bytes = SegmentIndex.encodedHeader(of: header)
        bytes += writtenTail?.encoded() ?? [UInt8](repeating: 0, count: SegmentIndexEntry.size)
        for entry in entries { bytes += entry.encoded() }
        _ = write(bytes, at: 0)
    }

    /// Writes `bytes` at `offset`. A file that is not current is replaced first (emptied or
    /// created), and holds the header and an unset tail slot unless `bytes` start at 0. False,
    /// and no more writes, after a failure.
    private mutating func write(_ bytes: [UInt8], at offset: Int64) -> Bool {
        guard !isStopped else { return false }
        do throws(Errno) {
            let handle: any JournalFile
            if let file {
                handle = file
            } else {
                handle = try openFile()
                file = handle
                if !isFileCurrent && offset > 0 {
                    try handle.write(SegmentIndex.encodedHeader(of: header) + [UInt8](repeating: 0, count: SegmentIndexEntry.size), at: 0)
                }
                isFileCurrent = true
            }
            try handle.write(bytes, at: offset)
            return true
        } catch {
            isStopped = true
            return false
        }
    }

    /// Opens the index file as it is when it is current; else creates it, or empties the file
    /// of its name.
    private func openFile() throws(Errno) -> any JournalFile {
        if isFileCurrent { return try fileSystem.openFile(at: path, writable: true) }
        do {
            return try fileSystem.createFile(at: path)
        } catch where error == .fileExists {
            let handle = try fileSystem.openFile(at: path, writable: true)
            try handle.truncate(to: 0)
            return handle
        }
    }
}
