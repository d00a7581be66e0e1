import Synchronization
import SystemPackage
import TallyJournal

/// An in-memory file system that behaves like a disk under a crashing process: data written
/// but not synced, and directory entries created but not made durable by a directory sync, may
/// be lost, torn or partly kept by `crash()`. Faults (EIO, ENOSPC) can be injected into the
/// next write, sync, read, truncate or rename, or into the n-th write or sync from now.
/// Deterministic for a given seed.
public final class FaultInjectingFileSystem: FileSystem, Sendable {
    /// What `crash()` does with each file's unsynced data.
    public enum CrashMode: Sendable, CaseIterable {
        /// Everything unsynced is lost.
        case dropUnsynced
        /// Everything written reached the disk.
        case keepEverything
        /// A random prefix of the unsynced bytes survives.
        case tornPrefix
        /// A random prefix survives, followed by zeros: blocks allocated but never written, as a
        /// power loss leaves them on file systems that never expose stale blocks (ext4 in its
        /// default data=ordered mode, XFS, btrfs, APFS; Docs/JournalFormat.md, "Torn writes").
        case tornWithZeros
        /// Each of the above, chosen at random per file.
        case random
    }

    /// The fault the next matching operation fails with.
    public enum Fault: Sendable {
        case ioError, noSpace
        var errno: Errno { self == .ioError ? .ioError : .noSpace }
    }

    struct Node {
        var live: [UInt8] = []
        var durable: [UInt8] = []
    }

    struct State {
        var nodes: [Int: Node] = [:]
        var nextNodeID = 0
        var liveEntries: [String: Int] = [:]
        var durableEntries: [String: Int] = [:]
        var directories: Set<String> = []
        /// Held locks: path -> the lock's token (one per successful `lockExclusively`).
        var locks: [String: Int] = [:]
        var nextLockToken = 0
        /// Simulated processes (see `startProcess()`) that are still running.
        var aliveProcesses: Set<Int> = []
        var lockOwners: [Int: Int] = [:]
        var nextProcessID = 0
        var generation = 0
        var random: SeededRandom
        var failNextWrite: Fault?
        /// The next write to a file whose path contains the name fails (other writes pass).
        var failNextWriteToPath: (name: String, fault: Fault)?
        var failNextSync: Fault?
        var writesUntilFailure: Int?
        var writeFault: Fault = .ioError
        var capacityBytes: Int?
        var operationsUntilCrash: Int?
        var crashModeOnTrigger: CrashMode = .random
        var crashCount = 0
        var failNextRead: Fault?
        var failNextTruncate: Fault?
        var failNextRename: Fault?
        var syncsUntilFailure: Int?
        var syncFault: Fault = .ioError
        /// File syncs (`fsync`/`fdatasync`) attempted, failed ones included.
        var fileSyncCount = 0
        /// How long each file sync takes, like a disk's flush (nil: instant).
        var fileSyncLatency: Duration?
        /// While set, file syncs wait before they complete (at most 10 seconds).
        var fileSyncsHeld = false
        /// File writes attempted, failed ones included.
        var fileWriteCount = 0
        /// Reads (`pread`) and bytes read, by path.
        var reads: [String: (count: Int, bytes: Int)] = [:]

        /// The armed sync fault, if this sync (file or directory) is the one to fail.
        mutating func takeSyncFault() -> Fault? {
            if let fault = failNextSync {
                failNextSync = nil
                return fault
            }
            guard let remaining = syncsUntilFailure else { return nil }
            if remaining <= 0 {
                syncsUntilFailure = nil
                return syncFault
            }
            syncsUntilFailure = remaining - 1
            return nil
        }

        /// Counts one mutating operation; when the armed countdown reaches zero the "machine"
        /// loses power before the operation happens.
        mutating func tick() throws(Errno) {
            guard let remaining = operationsUntilCrash else { return }
            if remaining > 0 {
                operationsUntilCrash = remaining - 1
                return
            }
            operationsUntilCrash = nil
            performCrash(crashModeOnTrigger)
            throw .badFileDescriptor
        }

        mutating func performCrash(_ mode: CrashMode) {
            operationsUntilCrash = nil  // the power is already off: an armed crash is spent
            generation += 1
            crashCount += 1
            locks.removeAll()
            lockOwners.removeAll()
            aliveProcesses.removeAll()
            liveEntries = durableEntries
            for id in Array(nodes.keys).sorted() {
                guard var node = nodes[id] else { continue }
                let chosen = mode == .random
                    ? [CrashMode.dropUnsynced, .keepEverything, .tornPrefix, .tornWithZeros].randomElement(using: &random) ?? .dropUnsynced
                    : mode
                // A file with nothing unsynced is exactly its durable bytes after a crash.
                guard node.live != node.durable else { continue }
                let common = zip(node.live, node.durable).prefix { $0 == $1 }.count
                switch chosen {
                case .dropUnsynced, .random:
                    node.live = node.durable
                case .keepEverything:
                    break
                case .tornPrefix, .tornWithZeros:
                    let kept = Int.random(in: common...node.live.count, using: &random)
                    node.live.removeSubrange(kept...)
                    if chosen == .tornWithZeros {
                        node.live += [UInt8](repeating: 0, count: Int.random(in: 1...4096, using: &random))
                    }
                }
                node.durable = node.live
                nodes[id] = node
            }
        }
    }

    let state: Mutex<State>

    /// Creates an empty file system whose crashes are drawn from `seed`.
    public init(seed: UInt64 = 1) {
        state = Mutex(State(random: SeededRandom(seed: seed)))
    }

    // MARK: Fault control

    /// The next `write` fails with `fault` after writing nothing.
    public func failNextWrite(_ fault: Fault) { state.withLock { $0.failNextWrite = fault } }

    /// The next write to a file whose path contains `name` fails with `fault`; writes to other
    /// files (a background checkpoint's, the journal's) pass, whatever their order.
    public func failNextWrite(toPathContaining name: String, with fault: Fault) {
        state.withLock { $0.failNextWriteToPath = (name, fault) }
    }

    /// The `count`-th write from now fails with `fault`.
    public func failWrite(after count: Int, with fault: Fault) {
        state.withLock { $0.writesUntilFailure = count; $0.writeFault = fault }
    }

    /// The next `fdatasync`/`fsync` fails with `fault`.
    public func failNextSync(_ fault: Fault) { state.withLock { $0.failNextSync = fault } }

    /// Removes every armed fault and crash countdown and the capacity limit.
    public func clearFaults() {
        state.withLock { state in
            state.failNextWrite = nil
            state.failNextWriteToPath = nil
            state.failNextSync = nil
            state.syncsUntilFailure = nil
            state.failNextRead = nil
            state.failNextTruncate = nil
            state.failNextRename = nil
            state.writesUntilFailure = nil
            state.capacityBytes = nil
            state.operationsUntilCrash = nil
        }
    }

    /// The `count`-th sync from now (file `fsync`/`fdatasync` or directory sync; 0 = the next)
    /// fails with `fault`.
    public func failSync(after count: Int, with fault: Fault) {
        state.withLock { $0.syncsUntilFailure = count; $0.syncFault = fault }
    }

    /// The next `read` (of any file) fails with `fault` after reading nothing.
    public func failNextRead(_ fault: Fault) { state.withLock { $0.failNextRead = fault } }

    /// The next `truncate` fails with `fault` and changes nothing.
    public func failNextTruncate(_ fault: Fault) { state.withLock { $0.failNextTruncate = fault } }

    /// The next `rename` fails with `fault` and changes nothing.
    public func failNextRename(_ fault: Fault) { state.withLock { $0.failNextRename = fault } }

    /// Writes that would make the total size of all files exceed `bytes` write what fits and
    /// fail with ENOSPC. nil removes the limit.
    public func setCapacity(_ bytes: Int?) { state.withLock { $0.capacityBytes = bytes } }

    /// Simulates a power loss: unsynced data and directory entries are lost, torn or kept as
    /// `mode` says; all handles and locks of the "dead process" become invalid.
    public func crash(_ mode: CrashMode = .random) {
        state.withLock { $0.performCrash(mode) }
    }

    /// Arms a crash: the `operations`-th mutating operation from now (write, truncate, sync,
    /// create, rename, remove) does not happen; the machine loses power instead (`mode`), and
    /// that operation and every later one on old handles fail with EBADF.
    public func crash(afterOperations operations: Int, mode: CrashMode = .random) {
        state.withLock { state in
            state.operationsUntilCrash = operations
            state.crashModeOnTrigger = mode
        }
    }

    /// Makes every file sync (`fsync`/`fdatasync`) take `latency` before it completes, as a
    /// disk flush does, so concurrent writers have time to share one (group commit). nil
    /// makes syncs instant again.
    public func setFileSyncLatency(_ latency: Duration?) { state.withLock { $0.fileSyncLatency = latency } }

    /// Makes every file sync wait (blocking its thread, at most 10 seconds) until
    /// ``releaseFileSyncs()``: a disk flush that takes as long as the test needs.
    public func holdFileSyncs() { state.withLock { $0.fileSyncsHeld = true } }

    /// Lets held and later file syncs complete.
    public func releaseFileSyncs() { state.withLock { $0.fileSyncsHeld = false } }

    /// File writes attempted so far, failed ones included.
    public var fileWriteCount: Int { state.withLock { $0.fileWriteCount } }

    /// File syncs (`fsync`/`fdatasync`) attempted so far, failed ones included.
    public var fileSyncCount: Int { state.withLock { $0.fileSyncCount } }

    /// Reads (one `pread` each, failed ones included) and the bytes they returned so far, of
    /// the files whose path ends with `suffix` (every file for ""): what a test counts to show
    /// how much of a journal an operation reads.
    public func reads(ofPathsEndingWith suffix: String = "") -> (count: Int, bytes: Int) {
        state.withLock { state in
            state.reads.filter { $0.key.hasSuffix(suffix) }.values.reduce((0, 0)) { ($0.0 + $1.count, $0.1 + $1.bytes) }
        }
    }

    /// How many crashes have happened.
    public var crashCount: Int { state.withLock { $0.crashCount } }

    /// The live size of all files together (what `setCapacity` limits).
    public var usedBytes: Int { state.withLock { $0.nodes.values.reduce(0) { $0 + $1.live.count } } }

    /// The current (live) bytes of a file, for tests that damage or inspect it.
    public func contents(of path: FilePath) -> [UInt8]? {
        state.withLock { state in state.liveEntries[path.string].flatMap { state.nodes[$0]?.live } }
    }

    /// Replaces a file's bytes, live and durable (a test damaging the disk).
    public func setContents(of path: FilePath, to bytes: [UInt8]) {
        state.withLock { state in
            guard let id = state.liveEntries[path.string] else { return }
            state.nodes[id] = Node(live: bytes, durable: bytes)
        }
    }

    // MARK: FileSystem

    public func openFile(at path: FilePath, writable: Bool) throws(Errno) -> any JournalFile {
        try openFile(at: path, writable: writable, process: nil)
    }

    func openFile(at path: FilePath, writable: Bool, process: Int?) throws(Errno) -> any JournalFile {
        try state.withLock { state throws(Errno) in
            try state.requireAlive(process)
            guard let id = state.liveEntries[path.string] else { throw .noSuchFileOrDirectory }
            return FaultFile(fileSystem: self, nodeID: id, generation: state.generation, writable: writable, process: process, path: path.string)
        }
    }

    public func createFile(at path: FilePath) throws(Errno) -> any JournalFile {
        try createFile(at: path, process: nil)
    }

    func createFile(at path: FilePath, process: Int?) throws(Errno) -> any JournalFile {
        try state.withLock { state throws(Errno) in
            try state.requireAlive(process)
            try state.tick()
            guard state.liveEntries[path.string] == nil else { throw .fileExists }
            guard state.directories.contains(path.removingLastComponent().string) else {
                throw .noSuchFileOrDirectory
            }
            let id = state.nextNodeID
            state.nextNodeID += 1
            state.nodes[id] = Node()
            state.liveEntries[path.string] = id
            return FaultFile(fileSystem: self, nodeID: id, generation: state.generation, writable: true, process: process, path: path.string)
        }
    }

    public func contentsOfDirectory(at path: FilePath) throws(Errno) -> [String] {
        try contentsOfDirectory(at: path, process: nil)
    }

    func contentsOfDirectory(at path: FilePath, process: Int?) throws(Errno) -> [String] {
        try state.withLock { state throws(Errno) in
            try state.requireAlive(process)
            guard state.directories.contains(path.string) else { throw .noSuchFileOrDirectory }
            return state.liveEntries.keys.compactMap { key in childName(of: key, in: path.string) }
        }
    }

    public func createDirectory(at path: FilePath) throws(Errno) {
        try createDirectory(at: path, process: nil)
    }

    func createDirectory(at path: FilePath, process: Int?) throws(Errno) {
        try state.withLock { state throws(Errno) in
            try state.requireAlive(process)
            var prefix = FilePath(path.root?.string ?? "")
            for component in path.components {
                prefix.append(component)
                state.directories.insert(prefix.string)
            }
        }
    }

    public func fileExists(at path: FilePath) -> Bool {
        state.withLock { $0.liveEntries[path.string] != nil || $0.directories.contains(path.string) }
    }

    public func rename(from source: FilePath, to destination: FilePath) throws(Errno) {
        try rename(from: source, to: destination, process: nil)
    }

    func rename(from source: FilePath, to destination: FilePath, process: Int?) throws(Errno) {
        try state.withLock { state throws(Errno) in
            try state.requireAlive(process)
            try state.tick()
            if let fault = state.failNextRename {
                state.failNextRename = nil
                throw fault.errno
            }
            guard let id = state.liveEntries.removeValue(forKey: source.string) else { throw .noSuchFileOrDirectory }
            state.liveEntries[destination.string] = id
        }
    }

    public func removeFile(at path: FilePath) throws(Errno) {
        try removeFile(at: path, process: nil)
    }

    func removeFile(at path: FilePath, process: Int?) throws(Errno) {
        try state.withLock { state throws(Errno) in
            try state.requireAlive(process)
            try state.tick()
            guard state.liveEntries.removeValue(forKey: path.string) != nil else { throw .noSuchFileOrDirectory }
        }
    }

    public func removeDirectory(at path: FilePath) throws(Errno) {
        try removeDirectory(at: path, process: nil)
    }

    func removeDirectory(at path: FilePath, process: Int?) throws(Errno) {
        try state.withLock { state throws(Errno) in
            try state.requireAlive(process)
            try state.tick()
            guard state.directories.contains(path.string) else { throw .noSuchFileOrDirectory }
            let prefix = path.string.hasSuffix("/") ? path.string : path.string + "/"
            guard !state.liveEntries.keys.contains(where: { $0.hasPrefix(prefix) }),
                  !state.directories.contains(where: { $0.hasPrefix(prefix) }) else { throw .directoryNotEmpty }
            state.directories.remove(path.string)
        }
    }

    public func synchronizeDirectory(at path: FilePath) throws(Errno) {
        try synchronizeDirectory(at: path, process: nil)
    }

    func synchronizeDirectory(at path: FilePath, process: Int?) throws(Errno) {
        try state.withLock { state throws(Errno) in
            try state.requireAlive(process)
            try state.tick()
            if let fault = state.takeSyncFault() { throw fault.errno }
            let directory = path.string
            let inDirectory = { (key: String) in childName(of: key, in: directory) != nil }
            state.durableEntries = state.durableEntries.filter { !inDirectory($0.key) }
            for (key, id) in state.liveEntries where inDirectory(key) { state.durableEntries[key] = id }
        }
    }

    public func lockExclusively(at path: FilePath) throws(Errno) -> any FileLock {
        try lockExclusively(at: path, process: nil)
    }

    func lockExclusively(at path: FilePath, process: Int?) throws(Errno) -> any FileLock {
        try state.withLock { state throws(Errno) in
            try state.requireAlive(process)
            guard state.locks[path.string] == nil else { throw .wouldBlock }
            let token = state.nextLockToken
            state.nextLockToken += 1
            state.locks[path.string] = token
            if let process { state.lockOwners[token] = process }
            return FaultLock(fileSystem: self, path: path.string, token: token)
        }
    }

    // MARK: File operations

    func withNode<T>(
        _ file: FaultFile, mutating: Bool = true, _ body: (inout State, inout Node) throws(Errno) -> T
    ) throws(Errno) -> T {
        try state.withLock { state throws(Errno) in
            guard file.generation == state.generation, state.nodes[file.nodeID] != nil else { throw .badFileDescriptor }
            try state.requireAlive(file.process)
            if mutating { try state.tick() }
            // Taken out of the dictionary while it changes, so the bytes are not copied.
            guard var node = state.nodes.removeValue(forKey: file.nodeID) else { throw .badFileDescriptor }
            defer { state.nodes[file.nodeID] = node }
            return try body(&state, &node)
        }
    }

    /// Releases the lock `token` on `path`, if it is still held under that token (a lock lost in
    /// a crash or released before is not released again, so a stale handle never drops the lock
    /// of a later holder).
    func unlock(_ path: String, token: Int) {
        state.withLock { state in
            if state.locks[path] == token {
                state.locks[path] = nil
                state.lockOwners[token] = nil
            }
        }
    }
}

/// The name of `key` when it is a direct child of `directory` (plain string work: FilePath is
/// slow in debug builds and this runs for every simulated directory operation).
private func childName(of key: String, in directory: String) -> String? {
    let prefix = directory.hasSuffix("/") ? directory : directory + "/"
    guard key.hasPrefix(prefix) else { return nil }
    let name = key.dropFirst(prefix.count)
    return name.isEmpty || name.contains("/") ? nil : String(name)
}
