import Synchronization
import SystemPackage

/// The append-only log of opaque records, open for writing.
///
/// One `append` of N records writes one frame: LZ4-compressed when that is smaller, checked by
/// CRC32C, linked into a SHA-256 (or HMAC) hash chain. Under the default durability policy
/// `append` returns only after `fdatasync`, and concurrent appends share one sync.
///
/// Only one `Journal` may be open for writing on a directory (an advisory `flock` on the
/// directory itself, which cannot be unlinked the way a lock file can); readers (`reader()`,
/// `JournalReader.open`) never block it.
public final class Journal: Sendable {
    /// The journal's directory.
    public let directory: FilePath
    /// What opening found and repaired.
    public let recoveryReport: RecoveryReport
    let options: JournalOptions
    let fileSystem: any FileSystem
    let chain: HashChain
    let lock: any FileLock
    let state: Mutex<WriterState>
    let syncTask: Mutex<Task<Void, Never>?> = Mutex(nil)

    /// Opens (and if allowed creates) the journal in `directory` for writing.
    ///
    /// Recovery: a torn frame at the end of the last segment is cut off and reported in
    /// `recoveryReport`; a damaged frame followed by a valid one is corruption and throws
    /// `JournalError.corruption` naming segment, offset and sequence. So is a segment that does
    /// not continue the one before it (the first must start at sequence 1; each later one at
    /// the sequence and chain value where its predecessor ended): a deleted, renamed or foreign
    /// segment is refused, never written after.
    ///
    /// Only the frames after the newest hint of each segment's index (`<first sequence>.index`,
    /// Docs/JournalFormat.md "Segment index") that verifies against the frame it names are read;
    /// damage before it is found when that frame is read, and by `JournalVerifier`. Indexes that
    /// are missing or behind are rewritten here (never synced: an index is a hint).
    ///
    /// - Throws: `JournalError.journalLocked` when another writer holds the directory,
    ///   `.corruption`, `.journalNotFound`, `.invalidOptions`, `.ioFailure`.
    public static func open(
        at directory: FilePath, options: JournalOptions = JournalOptions(),
        fileSystem: any FileSystem = PosixFileSystem()
    ) throws(JournalError) -> Journal {
        try options.validate()
        if !fileSystem.fileExists(at: directory) {
            try options.evidence?.check(journalEndsAt: 0)
            guard options.createIfMissing else { throw .journalNotFound(directory: directory.string) }
            try withErrno("create directory", directory) { () throws(Errno) in try fileSystem.createDirectory(at: directory) }
        }
        let lock = try lockWriter(at: directory, fileSystem: fileSystem)
        do {
            let (writer, report) = try recover(directory: directory, options: options, fileSystem: fileSystem)
            return Journal(directory: directory, options: options, fileSystem: fileSystem,
                           lock: lock, state: writer, report: report)
        } catch {
            lock.unlock()
            throw error
        }
    }

    /// Takes the writer lock of the journal in `directory` (the one `open` takes), for tools
    /// that change the journal's files without appending (`JournalRepair`).
    /// - Throws: `JournalError.journalLocked` when a writer holds it; I/O errors.
    public static func lockWriter(at directory: FilePath, fileSystem: any FileSystem = PosixFileSystem()) throws(JournalError) -> any FileLock {
        do {
            return try fileSystem.lockExclusively(at: directory)
        } catch {
            if error == .wouldBlock || error == .resourceTemporarilyUnavailable {
                throw .journalLocked(directory: directory.string)
            }
            if error == .staleNFSFileHandle {
                throw .ioFailure(operation: "lock (the journal directory was renamed or replaced while it was being locked; open again)", path: directory.string, errno: error.rawValue)
            }
            throw JournalError(error, operation: "lock", path: directory)
        }
    }

    private init(
        directory: FilePath, options: JournalOptions, fileSystem: any FileSystem, lock: any FileLock,
        state: WriterState, report: RecoveryReport
    ) {
        self.directory = directory
        self.options = options
        self.fileSystem = fileSystem
        self.chain = HashChain(key: options.chainKey)
        self.lock = lock
        self.state = Mutex(state)
        self.recoveryReport = report
        startIntervalSyncIfNeeded()
    }

    deinit {
        syncTask.withLock { $0?.cancel() }
        lock.unlock()
    }

    /// The sequence number the next record will get (1 for an empty journal).
    public var nextSequenceNumber: UInt64 { state.withLock { $0.nextSequenceNumber } }

    /// The last sequence number written (0 for an empty journal).
    public var lastSequenceNumber: UInt64 { state.withLock { $0.nextSequenceNumber - 1 } }

    /// The chain value after the last frame.
    public var chainValue: ChainValue { state.withLock { $0.chainValue } }

    /// Appends `records` as one frame (all or nothing) and returns their sequence numbers.
    ///
    /// Under `.synchronous` durability this returns after the frame is on stable storage.
    /// - Throws: `JournalError.emptyBatch`, `.recordTooLarge`, `.frameTooLarge` (nothing written);
    ///   `.diskFull`, `.ioFailure` (nothing of this frame kept); `.journalFailed` after a failed
    ///   sync; `.closed`.
    @discardableResult
    public func append(_ records: [NewRecord]) async throws(JournalError) -> AppendReceipt {
        let receipt = try write(records)
        if acknowledgesAfterSync {
            try await waitUntilDurable(receipt.lastSequenceNumber)
        }
        return receipt
    }

    /// The first half of ``append(_:)``: assigns sequence numbers and writes `records` as one
    /// frame, without waiting for it to be durable. Pair it with
    /// ``waitUntilDurable(_:)`` (under `.synchronous` durability) before acknowledging the
    /// records: an engine that writes under its own lock and waits outside it lets concurrent
    /// writers share one `fdatasync` (group commit).
    /// - Throws: as ``append(_:)`` (the limits, `.diskFull`, `.ioFailure`, `.journalFailed`,
    ///   `.closed`), all before anything of this frame is kept.
    public func write(_ records: [NewRecord]) throws(JournalError) -> AppendReceipt {
        var pending = try PendingFrame.make(records, limits: options.limits)
        return try write(&pending)
    }

    /// Whether ``append(_:)`` waits for durability before returning: true under
    /// `.synchronous`, false under `.interval` and `.none` (acknowledged after the write).
    public var acknowledgesAfterSync: Bool {
        if case .synchronous = options.durability { return true }
        return false
    }

    /// The last sequence number known to be on stable storage (0 when nothing is). After a
    /// failed sync it stays at the last successful one.
    public var durableSequenceNumber: UInt64 { state.withLock { $0.durableSequenceNumber } }

    /// Checks `records` against every frame limit without writing anything: what `append`
    /// would throw for them before touching the disk.
    /// - Throws: `JournalError.emptyBatch`, `.recordTooLarge`, `.frameTooLarge`.
    public func checkLimits(_ records: [NewRecord]) throws(JournalError) {
        _ = try PendingFrame.payloadBytes(of: records, limits: options.limits)
    }

    /// Makes everything appended so far durable, whatever the policy.
    public func synchronize() throws(JournalError) {
        try syncNow()
    }

    /// Syncs, stops background work and releases the writer lock. Later appends throw `.closed`.
    public func close() throws(JournalError) {
        syncTask.withLock { task in
            task?.cancel()
            task = nil
        }
        let alreadyClosed = state.withLock { $0.isClosed }
        if alreadyClosed { return }
        defer {
            state.withLock { $0.isClosed = true }
            lock.unlock()
        }
        try syncNow()
        // The next open then verifies the last frame and scans nothing.
        state.withLock { $0.index.writeTail() }
    }

    /// A reader over everything appended so far. It reads through its own file handles and
    /// never blocks this writer.
    public func reader() throws(JournalError) -> JournalReader {
        let snapshot = state.withLock { state in
            (state.segments, state.writeOffset, state.nextSequenceNumber - 1)
        }
        return JournalReader(
            directory: directory, fileSystem: fileSystem, segments: snapshot.0,
            lastSegmentEnd: snapshot.1, lastSequenceNumber: snapshot.2, encryption: options.encryption,
            recoveryReport: RecoveryReport())
    }
}
