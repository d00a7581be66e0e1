import SystemPackage

extension Journal {
    /// Finds the end of the journal, removes crash leftovers and cuts a torn tail (only a torn
    /// tail: see `TornWrite`). Refuses damage anywhere, a last segment shorter than its header,
    /// and a journal shorter than `options.evidence`, before writing anything.
    static func recover(
        directory: FilePath, options: JournalOptions, fileSystem: any FileSystem
    ) throws(JournalError) -> (WriterState, RecoveryReport) {
        var report = RecoveryReport()
        for name in try SegmentFiles.temporaryFiles(in: directory, fileSystem: fileSystem) {
            let path = directory.appending(name)
            try withErrno("remove", path) { () throws(Errno) in try fileSystem.removeFile(at: path) }
            report.removedTemporaryFiles.append(name)
        }
        var segments = try SegmentFiles.list(in: directory, fileSystem: fileSystem)
        if let last = segments.last {
            try JournalTail.requireCompleteHeader(last, in: directory, fileSystem: fileSystem)
        }
        if segments.isEmpty {
            // An emptied journal directory is not a new journal when other files prove records.
            try options.evidence?.check(journalEndsAt: 0)
            guard options.createIfMissing else { throw .journalNotFound(directory: directory.string) }
            let header = SegmentHeader(firstSequenceNumber: 1, chainStart: .genesis, isKeyedChain: options.chainKey != nil)
            try createSegment(header, in: directory, fileSystem: fileSystem)
            segments = [SegmentFile(name: SegmentFiles.name(firstSequenceNumber: 1), firstSequenceNumber: 1)]
        }
        guard let last = segments.last else { preconditionFailure("a segment exists") }
        let lastPath = directory.appending(last.name)
        let lastFile = try withErrno("open", lastPath) { () throws(Errno) in
            try fileSystem.openFile(at: lastPath, writable: true)
        }
        let entryIntervalBytes = SegmentIndex.entryIntervalBytes(segmentBytesMax: options.segmentBytesMax)
        let tail = try JournalTail.scan(
            directory: directory, segments: segments, lastFile: lastFile, fileSystem: fileSystem,
            entryIntervalBytes: entryIntervalBytes)
        // A writer never extends a journal that cannot be replayed, and never cuts below what
        // other files prove was acknowledged: both are checked before anything is written.
        if let damage = tail.damage, !tail.isTornTail { throw .corruption(damage) }
        try options.evidence?.check(journalEndsAt: tail.nextSequenceNumber - 1)
        guard tail.lastSegmentHeader.isKeyedChain == (options.chainKey != nil) else {
            throw .chainKeyMismatch(segment: last.name)
        }
        try tail.checkEncryptionKey(options.encryption, file: lastFile, path: lastPath)
        if let damage = tail.damage {
            report.savedTornBytes = try saveTornBytes(
                of: lastFile, segment: last.name, from: tail.validEnd, to: tail.fileSize, in: directory, fileSystem: fileSystem)
            try withErrno("truncate torn tail", lastPath) { () throws(Errno) in
                try lastFile.truncate(to: tail.validEnd)
                try lastFile.synchronize()
            }
            report.bytesDropped += tail.fileSize - tail.validEnd
            report.truncatedAt = damage.location
        } else {
            // The tail may be data a killed process wrote but never synced (it is still in the
            // page cache). Open reports it as committed and readers fold it, so it must be on
            // stable storage before anything builds on it: a power loss after this open must not
            // take back records this open already exposed.
            try withErrno("sync recovered tail", lastPath) { () throws(Errno) in try lastFile.synchronize() }
        }
        report.segmentCount = segments.count
        report.lastSequenceNumber = tail.nextSequenceNumber - 1
        // The indexes are brought up to date only now, after every check passed and the cut.
        for plan in tail.indexPlans.dropLast() {
            _ = SegmentIndexWriter.open(plan, in: directory, fileSystem: fileSystem, entryIntervalBytes: entryIntervalBytes)
        }
        // The scan plans every segment's index unless damage ended it early, refused above.
        let lastPlan = tail.indexPlans.last ?? SegmentIndexPlan(
            segment: last, header: tail.lastSegmentHeader, entries: [], tail: nil, isCurrent: false, hasFile: false)
        let index = SegmentIndexWriter.open(
            lastPlan, in: directory, fileSystem: fileSystem, entryIntervalBytes: entryIntervalBytes)
        var state = WriterState(
            segments: segments, currentFile: lastFile, writeOffset: tail.validEnd,
            nextSequenceNumber: tail.nextSequenceNumber, chainValue: tail.chainValue,
            durableSequenceNumber: tail.nextSequenceNumber - 1, index: index)
        state.durableWriteOffset = tail.validEnd
        return (state, report)
    }

    /// The folder inside the journal directory where cut torn tails are kept.
    static let tornDirectoryName = "torn"

    /// Before a torn tail is cut, its bytes are kept in
    /// `torn/<segment>.from-<offset>`: a torn write was never acknowledged, but a cut must never
    /// be the only copy of bytes a misjudged case (Docs/JournalFormat.md) would need. Copied a
    /// MiB at a time. Returns the file's path inside the journal directory, or nil when the tail
    /// was only zeros (nothing to keep).
    static func saveTornBytes(
        of file: any JournalFile, segment: String, from offset: Int64, to end: Int64, in directory: FilePath,
        fileSystem: any FileSystem
    ) throws(JournalError) -> String? {
        let path = directory.appending(segment)
        let chunkBytes: Int64 = 1 << 20
        var position = offset
        var holdsData = false
        while position < end && !holdsData {
            let chunk = try withErrno("read torn tail", path) { () throws(Errno) in
                try file.readBytes(count: Int(min(chunkBytes, end - position)), at: position)
            }
            guard !chunk.isEmpty else { break }
            holdsData = chunk.contains { $0 != 0 }
            position += Int64(chunk.count)
        }
        guard holdsData else { return nil }
        // A later cut at the same offset (new records written there, torn again) gets its own
        // file: a kept copy is never overwritten.
        var name = "\(tornDirectoryName)/\(segment).from-\(offset)"
        var copy = 1
        while fileSystem.fileExists(at: directory.appending(name)) {
            copy += 1
            name = "\(tornDirectoryName)/\(segment).from-\(offset).\(copy)"
        }
        let saved = directory.appending(name)
        try withErrno("save torn tail", saved) { () throws(Errno) in
            try fileSystem.copyAtomically(file, from: offset, count: end - offset, to: saved)
        }
        return name
    }

    /// Creates a segment atomically: header into a temporary file, fsync, rename, fsync the
    /// directory. A crash leaves either no segment or a complete header.
    static func createSegment(
        _ header: SegmentHeader, in directory: FilePath, fileSystem: any FileSystem
    ) throws(JournalError) {
        let name = SegmentFiles.name(firstSequenceNumber: header.firstSequenceNumber)
        let final = directory.appending(name)
        try withErrno("create segment", final) { () throws(Errno) in
            try fileSystem.replaceAtomically(final, with: header.encoded())
        }
    }
}
