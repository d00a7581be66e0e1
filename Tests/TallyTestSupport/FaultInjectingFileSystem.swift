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
        /// A random prefix survives, followed by garbage or zeros (blocks allocated, not written).
        case tornWithGarbage
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
        var locks: Set<String> = []
        var generation = 0
        var random: SeededRandom
        var failNextWrite: Fault?
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
            generation += 1
            crashCount += 1
            locks.removeAll()
            liveEntries = durableEntries
            for id in Array(nodes.keys).sorted() {
                guard var node = nodes[id] else { continue }
                let chosen = mode == .random
                    ? [CrashMode.dropUnsynced, .keepEverything, .tornPrefix, .tornWithGarbage].randomElement(using: &random) ?? .dropUnsynced
                    : mode
                // A file with nothing unsynced is exactly its durable bytes after a crash.
                guard node.live != node.durable else { continue }
                let common = zip(node.live, node.durable).prefix { $0 == $1 }.count
                switch chosen {
                case .dropUnsynced, .random:
                    node.live = node.durable
                case .keepEverything:
                    break
                case .tornPrefix, .tornWithGarbage:
                    let kept = Int.random(in: common...node.live.count, using: &random)
                    node.live.removeSubrange(kept...)
                    if chosen == .tornWithGarbage {
                        let count = Int.random(in: 1...300, using: &random)
                        let zeros = Bool.random(using: &random)
                        node.live += zeros ? [UInt8](repeating: 0, count: count) : random.bytes(count)
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

    /// The `count`-th write from now fails with `fault`.
    public func failWrite(after count: Int, with fault: Fault) {
        state.withLock { $0.writesUntilFailure = count; $0.writeFault = fault }
    }

    /// The next `fdatasync`/`fsync` fails with `fault`.
    public func failNextSync(_ fault: Fault) { state.withLock { $0.failNextSync = fault } }

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

    /// How many crashes have happened.
    public var crashCount: Int { state.withLock { $0.crashCount } }

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
        try state.withLock { state throws(Errno) in
            guard let id = state.liveEntries[path.string] else { throw .noSuchFileOrDirectory }
            return FaultFile(fileSystem: self, nodeID: id, generation: state.generation, writable: writable)
        }
    }

    public func createFile(at path: FilePath) throws(Errno) -> any JournalFile {
        try state.withLock { state throws(Errno) in
            try state.tick()
            guard state.liveEntries[path.string] == nil else { throw .fileExists }
            guard state.directories.contains(path.removingLastComponent().string) else {
                throw .noSuchFileOrDirectory
            }
            let id = state.nextNodeID
            state.nextNodeID += 1
            state.nodes[id] = Node()
            state.liveEntries[path.string] = id
            return FaultFile(fileSystem: self, nodeID: id, generation: state.generation, writable: true)
        }
    }

    public func contentsOfDirectory(at path: FilePath) throws(Errno) -> [String] {
        try state.withLock { state throws(Errno) in
            guard state.directories.contains(path.string) else { throw .noSuchFileOrDirectory }
            return state.liveEntries.keys.compactMap { key in childName(of: key, in: path.string) }
        }
    }

    public func createDirectory(at path: FilePath) throws(Errno) {
        state.withLock { state in
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
        try state.withLock { state throws(Errno) in
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
        try state.withLock { state throws(Errno) in
            try state.tick()
            guard state.liveEntries.removeValue(forKey: path.string) != nil else { throw .noSuchFileOrDirectory }
        }
    }

    public func synchronizeDirectory(at path: FilePath) throws(Errno) {
        try state.withLock { state throws(Errno) in
            try state.tick()
            if let fault = state.takeSyncFault() { throw fault.errno }
            let directory = path.string
            let inDirectory = { (key: String) in childName(of: key, in: directory) != nil }
            state.durableEntries = state.durableEntries.filter { !inDirectory($0.key) }
            for (key, id) in state.liveEntries where inDirectory(key) { state.durableEntries[key] = id }
        }
    }

    public func lockExclusively(at path: FilePath) throws(Errno) -> any FileLock {
        try state.withLock { state throws(Errno) in
            guard state.locks.insert(path.string).inserted else { throw .wouldBlock }
            return FaultLock(fileSystem: self, path: path.string, generation: state.generation)
        }
    }

    // MARK: File operations

    func withNode<T>(
        _ file: FaultFile, mutating: Bool = true, _ body: (inout State, inout Node) throws(Errno) -> T
    ) throws(Errno) -> T {
        try state.withLock { state throws(Errno) in
            guard file.generation == state.generation, state.nodes[file.nodeID] != nil else { throw .badFileDescriptor }
            if mutating { try state.tick() }
            // Taken out of the dictionary while it changes, so the bytes are not copied.
            guard var node = state.nodes.removeValue(forKey: file.nodeID) else { throw .badFileDescriptor }
            defer { state.nodes[file.nodeID] = node }
            return try body(&state, &node)
        }
    }

    func unlock(_ path: String, generation: Int) {
        state.withLock { state in
            if state.generation == generation { state.locks.remove(path) }
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

/// `@unchecked Sendable`: immutable fields; all access goes through the file system's mutex.
final class FaultFile: JournalFile, @unchecked Sendable {
    let fileSystem: FaultInjectingFileSystem
    let nodeID: Int
    let generation: Int
    let writable: Bool

    init(fileSystem: FaultInjectingFileSystem, nodeID: Int, generation: Int, writable: Bool) {
        self.fileSystem = fileSystem
        self.nodeID = nodeID
        self.generation = generation
        self.writable = writable
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(Errno) -> Int {
        try fileSystem.withNode(self, mutating: false) { state, node throws(Errno) in
            if let fault = state.failNextRead {
                state.failNextRead = nil
                throw fault.errno
            }
            guard offset >= 0 else { throw .invalidArgument }
            let start = min(Int(offset), node.live.count)
            let count = min(buffer.count, node.live.count - start)
            node.live.withUnsafeBytes { bytes in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count)]))
            }
            return count
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(Errno) {
        try fileSystem.withNode(self) { state, node throws(Errno) in
            guard writable else { throw .badFileDescriptor }
            if let fault = state.failNextWrite {
                state.failNextWrite = nil
                throw fault.errno
            }
            if let remaining = state.writesUntilFailure {
                if remaining <= 0 {
                    state.writesUntilFailure = nil
                    throw state.writeFault.errno
                }
                state.writesUntilFailure = remaining - 1
            }
            var toWrite = Array(bytes)
            var failure: Errno?
            if let capacity = state.capacityBytes {
                let used = state.nodes.filter { $0.key != nodeID }.values.reduce(0) { $0 + $1.live.count }
                let room = max(0, capacity - used - Int(offset))
                if toWrite.count > room {
                    toWrite.removeSubrange(room...)
                    failure = .noSpace
                }
            }
            let start = Int(offset)
            if node.live.count < start { node.live += [UInt8](repeating: 0, count: start - node.live.count) }
            let overlap = min(toWrite.count, node.live.count - start)
            node.live.replaceSubrange(start..<(start + overlap), with: toWrite[0..<overlap])
            node.live += toWrite[overlap...]
            if let failure { throw failure }
        }
    }

    func size() throws(Errno) -> Int64 {
        try fileSystem.withNode(self, mutating: false) { _, node throws(Errno) in Int64(node.live.count) }
    }

    func truncate(to size: Int64) throws(Errno) {
        try fileSystem.withNode(self) { state, node throws(Errno) in
            if let fault = state.failNextTruncate {
                state.failNextTruncate = nil
                throw fault.errno
            }
            let size = Int(size)
            if size < node.live.count {
                node.live.removeSubrange(size...)
            } else {
                node.live += [UInt8](repeating: 0, count: size - node.live.count)
            }
        }
    }

    func synchronizeData() throws(Errno) { try sync() }

    func synchronize() throws(Errno) { try sync() }

    private func sync() throws(Errno) {
        try fileSystem.withNode(self) { state, node throws(Errno) in
            if let fault = state.takeSyncFault() { throw fault.errno }
            node.durable = node.live
        }
    }
}

/// `@unchecked Sendable`: immutable fields; unlocking goes through the file system's mutex.
final class FaultLock: FileLock, @unchecked Sendable {
    let fileSystem: FaultInjectingFileSystem
    let path: String
    let generation: Int

    init(fileSystem: FaultInjectingFileSystem, path: String, generation: Int) {
        self.fileSystem = fileSystem
        self.path = path
        self.generation = generation
    }

    func unlock() { fileSystem.unlock(path, generation: generation) }
}
