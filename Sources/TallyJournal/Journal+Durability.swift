import SystemPackage

extension Journal {
    /// Suspends until `sequenceNumber` is durable. The first waiter becomes the sync leader and
    /// runs `fdatasync` for everyone who wrote before it started; waiters that arrive during a
    /// sync are covered by the leader's next round (group commit). The leader syncs on its
    /// own thread: call this outside any lock or actor that other writers need.
    /// - Throws: `JournalError.journalFailed` when a sync failed (then for every waiter and
    ///   every later append: the journal is failed).
    public func waitUntilDurable(_ sequenceNumber: UInt64) async throws(JournalError) {
        // Fast path: nobody is syncing, so sync here without suspending; appends that arrive
        // meanwhile queue up and this caller's rounds cover them too.
        let leadInline: Bool = state.withLock { state in
            guard state.durableSequenceNumber < sequenceNumber, state.failure == nil, !state.isSyncing else { return false }
            state.isSyncing = true
            return true
        }
        if leadInline {
            runSyncRounds()
            let outcome: JournalError? = state.withLock { state in
                state.durableSequenceNumber >= sequenceNumber ? nil : (state.failure ?? .journalFailed(reason: "sync failed"))
            }
            if let outcome { throw outcome }
            return
        }
        do {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let decision: LeaderDecision = state.withLock { state in
                    if state.durableSequenceNumber >= sequenceNumber { return .resume(nil) }
                    if let failure = state.failure { return .resume(failure) }
                    state.waiters.append(DurabilityWaiter(sequenceNumber: sequenceNumber, continuation: continuation))
                    if state.isSyncing { return .wait }
                    state.isSyncing = true
                    return .lead
                }
                switch decision {
                case .resume(nil): continuation.resume()
                case .resume(let failure?): continuation.resume(throwing: failure)
                case .wait: break
                case .lead: runSyncRounds()
                }
            }
        } catch let error as JournalError {
            throw error
        } catch {
            throw .journalFailed(reason: "\(error)")
        }
    }

    private enum LeaderDecision {
        case resume(JournalError?), wait, lead
    }

    /// Syncs until no waiter is left (at least once); after a failed sync every waiter gets the
    /// error and the journal refuses further appends.
    private func runSyncRounds() {
        while true {
            let (file, target, path, offset) = state.withLock { state in
                (state.currentFile, state.writtenSequenceNumber, currentPath(state), state.writeOffset)
            }
            var syncError: JournalError?
            do {
                try withErrno("fdatasync", path) { () throws(Errno) in try file.synchronizeData() }
            } catch {
                syncError = .journalFailed(reason: "fdatasync failed (\(error))")
            }
            // Durable, but in the ledger's folder only if that is still where it was locked.
            let folderError: JournalError? = syncError == nil && !lock.isStillAtItsPath()
                ? .folderReplaced(directory: directory.string) : nil
            let (ready, failed, more) = state.withLock { state -> ([DurabilityWaiter], [DurabilityWaiter], Bool) in
                // A failure recorded while this sync ran (a rotation's sync failed and cut the
                // unsynced frames back) fails this round too: Linux reports a writeback error
                // once per file, so this fdatasync may succeed for frames that are gone.
                if let failure = syncError ?? folderError ?? state.failure {
                    state.failure = state.failure ?? failure
                    if syncError != nil, state.currentFile === file { state.discardUnsyncedFrames(durability: options.durability) }
                    let all = state.waiters
                    state.waiters = []
                    state.isSyncing = false
                    return ([], all, false)
                }
                state.durableSequenceNumber = max(state.durableSequenceNumber, target)
                if state.currentFile === file {
                    state.durableWriteOffset = max(state.durableWriteOffset, offset)
                    state.index.durable(through: state.durableSequenceNumber)
                }
                let durable = state.durableSequenceNumber
                let ready = state.waiters.filter { $0.sequenceNumber <= durable }
                state.waiters.removeAll { $0.sequenceNumber <= durable }
                let more = !state.waiters.isEmpty
                if !more { state.isSyncing = false }
                return (ready, [], more)
            }
            for waiter in ready { waiter.continuation.resume() }
            let failure = syncError ?? folderError ?? state.withLock { $0.failure } ?? .journalFailed(reason: "sync failed")
            for waiter in failed { waiter.continuation.resume(throwing: failure) }
            if !more { return }
        }
    }

    /// Syncs the current segment now and marks everything written as durable.
    func syncNow() throws(JournalError) {
        try state.withLock { state throws(JournalError) in
            if state.isClosed { return }
            try state.checkUsable()
            let target = state.writtenSequenceNumber
            guard state.durableSequenceNumber < target else { return }
            let file = state.currentFile
            do throws(JournalError) {
                try withErrno("fdatasync", currentPath(state)) { () throws(Errno) in try file.synchronizeData() }
            } catch let syncError {
                state.failure = .journalFailed(reason: "fdatasync failed (\(syncError))")
                state.discardUnsyncedFrames(durability: options.durability)
                throw syncError
            }
            state.durableSequenceNumber = target
            state.durableWriteOffset = state.writeOffset
            state.index.durable(through: target)
            try checkFolder(&state)
        }
    }

    /// Under `.interval` durability, a background task syncs every interval while there is
    /// unsynced data. A failed sync marks the journal failed (`syncNow` records it), so the
    /// next `append`, `synchronize` or `close` throws `journalFailed`; the task then stops.
    func startIntervalSyncIfNeeded() {
        guard case .interval(let milliseconds) = options.durability else { return }
        let task = Task.detached { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(milliseconds))
                guard let self else { return }
                do {
                    try self.syncNow()
                } catch {
                    return
                }
            }
        }
        syncTask.withLock { $0 = task }
    }
}
