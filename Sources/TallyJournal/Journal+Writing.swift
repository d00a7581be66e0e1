import SystemPackage

extension Journal {
    /// Assigns sequence numbers, links the chain and writes the frame, rotating first when the
    /// segment is full. On a failed write the file is cut back, so nothing half-written stays.
    func write(_ pending: inout PendingFrame) throws(JournalError) -> AppendReceipt {
        try state.withLock { state throws(JournalError) -> AppendReceipt in
            try state.checkUsable()
            try checkFolder(&state)  // before a rotation creates a segment by path
            let frameBytes = Int64(pending.bytes.count + (options.encryption == nil ? 0 : JournalEncryption.tagBytes))
            if state.isRotationPending
                || (state.writeOffset > Int64(SegmentHeader.size) && state.writeOffset + frameBytes > options.segmentBytesMax) {
                try rotate(&state)
            }
            let first = state.nextSequenceNumber
            pending.header.unsyncedRecordsBefore = UInt32(clamping: first - 1 - state.durableSequenceNumber)
            let bytes = try pending.seal(
                firstSequenceNumber: first, after: state.chainValue, chain: chain, encryption: options.encryption)
            let file = state.currentFile
            let offset = state.writeOffset
            let path = currentPath(state)
            do throws(JournalError) {
                try withErrno("write", path) { () throws(Errno) in try file.write(bytes, at: offset) }
            } catch let writeError {
                do {
                    try file.truncate(to: offset)
                } catch {
                    state.failure = .journalFailed(reason: "a write failed and the partial frame could not be cut back (\(error))")
                }
                throw writeError
            }
            state.writeOffset = offset + Int64(bytes.count)
            state.nextSequenceNumber = first + UInt64(pending.header.recordCount)
            state.chainValue = pending.header.chainValue
            state.index.recordFrame(SegmentIndexEntry(
                offset: offset, firstSequenceNumber: first, recordCount: pending.header.recordCount,
                frameBytes: bytes.count, chainValue: pending.header.chainValue))
            return AppendReceipt(
                firstSequenceNumber: first, lastSequenceNumber: state.nextSequenceNumber - 1,
                chainValue: state.chainValue)
        }
    }

    /// Fails the journal with `folderReplaced` when its folder is no longer at its path (a
    /// tool moved it, or put a copy in its place): what is written from then on would go to a
    /// folder that is not the ledger's, or create segments in the copy (issue 29). Checked
    /// before every frame is written and after every sync, before anything is acknowledged.
    func checkFolder(_ state: inout WriterState) throws(JournalError) {
        guard lock.isStillAtItsPath() else {
            let replaced = JournalError.folderReplaced(directory: directory.string)
            state.failure = state.failure ?? replaced
            throw replaced
        }
    }

    /// Throws `folderReplaced`, and refuses every later append, when the journal's folder was
    /// moved or replaced since it was locked: for the ledger, before it writes a file of its own
    /// (personal keys, a checkpoint) by a path beside the journal.
    public func verifyFolder() throws(JournalError) {
        try state.withLock { state throws(JournalError) in try checkFolder(&state) }
    }

    /// Seals the current segment (fsync) and starts a new one that records the chain value and
    /// sequence number it continues from.
    ///
    /// A failure after the sealing sync (creating, renaming or opening the next segment) leaves
    /// the journal usable, but the rotation pending: the next segment may exist already, so no
    /// later append may go to the sealed one; the next append retries the rotation.
    private func rotate(_ state: inout WriterState) throws(JournalError) {
        let sealed = state.currentFile
        do {
            try withErrno("sync sealed segment", currentPath(state)) { () throws(Errno) in try sealed.synchronize() }
        } catch {
            state.failure = .journalFailed(reason: "syncing a full segment failed (\(error))")
            state.discardUnsyncedFrames(durability: options.durability)
            throw error
        }
        state.durableSequenceNumber = state.writtenSequenceNumber
        state.durableWriteOffset = state.writeOffset
        state.isRotationPending = true
        let header = SegmentHeader(
            firstSequenceNumber: state.nextSequenceNumber, chainStart: state.chainValue,
            isKeyedChain: chain.isKeyed)
        try Journal.createSegment(header, in: directory, fileSystem: fileSystem)
        let segment = SegmentFile(
            name: SegmentFiles.name(firstSequenceNumber: header.firstSequenceNumber),
            firstSequenceNumber: header.firstSequenceNumber)
        let path = directory.appending(segment.name)
        let fileSystem = self.fileSystem
        state.currentFile = try withErrno("open", path) { () throws(Errno) in
            try fileSystem.openFile(at: path, writable: true)
        }
        state.segments.append(segment)
        // The sealed segment's index names its last frame: the next open reads that one frame.
        state.index.durable(through: state.durableSequenceNumber)
        state.index.writeTail()
        state.index = SegmentIndexWriter.forNewSegment(
            segment, header: header, in: directory, fileSystem: fileSystem,
            entryIntervalBytes: SegmentIndex.entryIntervalBytes(segmentBytesMax: options.segmentBytesMax))
        state.writeOffset = Int64(SegmentHeader.size)
        state.durableWriteOffset = state.writeOffset
        state.isRotationPending = false
    }

    func currentPath(_ state: WriterState) -> FilePath {
        directory.appending(state.segments[state.segments.count - 1].name)
    }
}
