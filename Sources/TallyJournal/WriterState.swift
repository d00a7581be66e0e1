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
    /// True while one appender runs `fdatasync` for everybody (group commit).
    var isSyncing = false
    /// Appenders waiting for their sequence number to become durable.
    var waiters: [DurabilityWaiter] = []
    /// Set after a failed sync: the journal no longer knows what is durable.
    var failure: JournalError?
    var isClosed = false

    var writtenSequenceNumber: UInt64 { nextSequenceNumber - 1 }

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
