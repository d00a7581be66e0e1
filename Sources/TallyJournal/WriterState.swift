/// The mutable state of an open `Journal`, guarded by its mutex.
struct WriterState {
    var segments: [SegmentFile]
    var currentFile: any JournalFile
    /// End of the last complete frame in the current segment.
    var writeOffset: Int64
    var nextSequenceNumber: UInt64
    var chainValue: ChainValue
    /// Every record up to here is on stable storage.
    var durableSequenceNumber: UInt64
    /// Every byte of the current segment before this offset is on stable storage.
    var durableWriteOffset: Int64 = 0
    /// True while one appender runs `fdatasync` for everybody (group commit).
    var isSyncing = false
    /// Appenders waiting for their sequence number to become durable.
    var waiters: [DurabilityWaiter] = []
    /// Set after a failed sync: the journal no longer knows what is durable.
    var failure: JournalError?
    /// Set while a rotation has begun but not finished: the next segment may already exist on
    /// disk, so nothing more may be written to the current one (its successor would then start
    /// before its end). The next append retries the rotation first.
    var isRotationPending = false
    var isClosed = false
    /// The current segment's index: an entry now and then, the last frame at close and rotation.
    var index: SegmentIndexWriter

    var writtenSequenceNumber: UInt64 { nextSequenceNumber - 1 }

    /// After a failed sync under `.synchronous` durability: cuts the current segment back to
    /// its last synced byte (best effort), so the frames whose appends fail with this sync are
    /// not found by a later open. Every one of them is unacknowledged: acknowledged means
    /// synced. Under the other policies appends returned before their sync, so nothing is cut.
    mutating func discardUnsyncedFrames(durability: DurabilityPolicy) {
        guard case .synchronous = durability, writeOffset > durableWriteOffset else { return }
        do {
            try currentFile.truncate(to: durableWriteOffset)
            writeOffset = durableWriteOffset
        } catch {
            // The journal is failed already; recovery at the next open keeps every whole frame.
        }
    }

    func checkUsable() throws(JournalError) {
        if isClosed { throw .closed }
        if let failure { throw failure }
    }
}

/// An appender suspended until `sequenceNumber` is durable.
struct DurabilityWaiter {
    var sequenceNumber: UInt64
    var continuation: CheckedContinuation<Void, any Error>
}
