import Synchronization
import SystemPackage
import TallyJournal

/// The operating system's file system with one fault at one step of what happens to one
/// folder's entries: how the swap of a restore or reset (and its recovery) is crash-tested.
///
/// A *step* is an operation that changes or syncs an entry directly inside `watched` (the
/// folder holding a ledger): creating, removing or renaming such an entry, a directory sync of
/// `watched` or of an entry in it, and a write, truncate or sync of a file created or opened
/// there (the intent record). Whatever happens deeper inside a ledger folder (journal frames,
/// key file) is not a step. Steps are counted from 0 and listed in ``steps``.
///
/// At the armed step the fault happens:
/// - ``Fault/ioError``: the step fails with EIO and changes nothing; the process goes on.
/// - ``Fault/crashBefore``: the process dies before the step (a `kill -9`, or a power loss
///   that loses the step): it and every later operation fail with EBADF, and every lock it
///   held is released.
/// - ``Fault/crashAfter``: the step is done, then the process dies as above (its effect
///   reached the disk; the sync that would make it durable did not run).
///
/// After a crash the folders stay exactly as the dead process left them; a test "restarts" by
/// opening them through another file system (`PosixFileSystem`).
public final class StepFaultFileSystem: FileSystem, Sendable {
    /// What happens at the armed step.
    public enum Fault: Sendable, CaseIterable, CustomStringConvertible {
        case ioError, crashBefore, crashAfter

        public var description: String {
            switch self {
            case .ioError: "EIO at"
            case .crashBefore: "crash before"
            case .crashAfter: "crash after"
            }
        }
    }

    struct State {
        var steps: [String] = []
        var crashed = false
        var heldLocks: [Int: any FileLock] = [:]
        var nextLockID = 0
    }

    /// The folder whose entries' operations are steps.
    public let watched: String
    let base = PosixFileSystem()
    let armed: (step: Int, fault: Fault)?
    let state = Mutex(State())

    /// A file system that fails with `fault` at step `step` of `watched` (nil: never).
    public init(watching watched: FilePath, failing step: Int? = nil, with fault: Fault = .ioError) {
        self.watched = watched.string
        armed = step.map { ($0, fault) }
    }

    /// The steps seen so far, in order, each described (`rename a -> b`).
    public var steps: [String] { state.withLock { $0.steps } }

    /// Whether the simulated process has died.
    public var hasCrashed: Bool { state.withLock { $0.crashed } }

    public var isOperatingSystemFileSystem: Bool { true }

    /// Whether `path` names an entry directly inside the watched folder.
    func isEntry(_ path: FilePath) -> Bool {
        let parent = path.removingLastComponent()
        return (parent.isEmpty ? "." : parent.string) == watched
    }

    /// Runs `body` as a step when `isStep`, applying the armed fault; every operation fails
    /// once the process has died.
    func perform<T>(_ isStep: Bool, _ description: @autoclosure () -> String, _ body: () throws(Errno) -> T) throws(Errno) -> T {
        let fault: Fault? = try state.withLock { state throws(Errno) -> Fault? in
            guard !state.crashed else { throw .badFileDescriptor }
            guard isStep else { return nil }
            let index = state.steps.count
            state.steps.append(description())
            guard let armed, armed.step == index else { return nil }
            return armed.fault
        }
        switch fault {
        case nil:
            return try body()
        case .ioError:
            throw .ioError
        case .crashBefore:
            die()
            throw .badFileDescriptor
        case .crashAfter:
            _ = try body()
            die()
            throw .badFileDescriptor
        }
    }

    /// The process dies: its locks are released (by the kernel, as for a killed process).
    func die() {
        let locks = state.withLock { state in
            state.crashed = true
            defer { state.heldLocks.removeAll() }
            return Array(state.heldLocks.values)
        }
        for lock in locks { lock.unlock() }
    }

    func releaseLock(_ id: Int) {
        let lock = state.withLock { $0.heldLocks.removeValue(forKey: id) }
        lock?.unlock()
    }

    /// Whether the underlying lock `id` (released when its process died) still names its folder.
    func lockIsStillAtItsPath(_ id: Int) -> Bool {
        state.withLock { $0.heldLocks[id] }?.isStillAtItsPath() ?? false
    }

    // MARK: FileSystem

    public func openFile(at path: FilePath, writable: Bool) throws(Errno) -> any JournalFile {
        let file = try perform(false, "") { () throws(Errno) in try base.openFile(at: path, writable: writable) }
        return StepFaultFile(fileSystem: self, base: file, path: path, isStep: isEntry(path))
    }

    public func createFile(at path: FilePath) throws(Errno) -> any JournalFile {
        let file = try perform(isEntry(path), "create \(path)") { () throws(Errno) in try base.createFile(at: path) }
        return StepFaultFile(fileSystem: self, base: file, path: path, isStep: isEntry(path))
    }

    public func contentsOfDirectory(at path: FilePath) throws(Errno) -> [String] {
        try perform(false, "") { () throws(Errno) in try base.contentsOfDirectory(at: path) }
    }

    public func createDirectory(at path: FilePath) throws(Errno) {
        let isStep = isEntry(path) && !base.fileExists(at: path)
        try perform(isStep, "create directory \(path)") { () throws(Errno) in try base.createDirectory(at: path) }
    }

    public func fileExists(at path: FilePath) -> Bool { base.fileExists(at: path) }

    public func rename(from source: FilePath, to destination: FilePath) throws(Errno) {
        try perform(isEntry(source) || isEntry(destination), "rename \(source) -> \(destination)") { () throws(Errno) in
            try base.rename(from: source, to: destination)
        }
    }

    public func removeFile(at path: FilePath) throws(Errno) {
        try perform(isEntry(path), "remove \(path)") { () throws(Errno) in try base.removeFile(at: path) }
    }

    public func removeDirectory(at path: FilePath) throws(Errno) {
        try perform(isEntry(path), "remove directory \(path)") { () throws(Errno) in try base.removeDirectory(at: path) }
    }

    public func synchronizeDirectory(at path: FilePath) throws(Errno) {
        try perform(path.string == watched || isEntry(path), "sync directory \(path)") { () throws(Errno) in
            try base.synchronizeDirectory(at: path)
        }
    }

    public func lockExclusively(at path: FilePath) throws(Errno) -> any FileLock {
        let lock = try perform(false, "") { () throws(Errno) in try base.lockExclusively(at: path) }
        let id = state.withLock { state in
            let id = state.nextLockID
            state.nextLockID += 1
            state.heldLocks[id] = lock
            return id
        }
        return StepFaultLock(fileSystem: self, id: id)
    }
}

/// A lock taken through a ``StepFaultFileSystem``: released by `unlock` or by the process's death.
final class StepFaultLock: FileLock, Sendable {
    let fileSystem: StepFaultFileSystem
    let id: Int

    init(fileSystem: StepFaultFileSystem, id: Int) {
        self.fileSystem = fileSystem
        self.id = id
    }

    func unlock() { fileSystem.releaseLock(id) }

    func isStillAtItsPath() -> Bool { fileSystem.lockIsStillAtItsPath(id) }
}

/// A file opened through a ``StepFaultFileSystem``: its writes and syncs are steps when it is an
/// entry of the watched folder, and it fails once the process has died.
final class StepFaultFile: JournalFile, Sendable {
    let fileSystem: StepFaultFileSystem
    let base: any JournalFile
    let path: FilePath
    let isStep: Bool

    init(fileSystem: StepFaultFileSystem, base: any JournalFile, path: FilePath, isStep: Bool) {
        self.fileSystem = fileSystem
        self.base = base
        self.path = path
        self.isStep = isStep
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(Errno) -> Int {
        try fileSystem.perform(false, "") { () throws(Errno) in try base.read(into: buffer, at: offset) }
    }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(Errno) {
        try fileSystem.perform(isStep, "write \(path)") { () throws(Errno) in try base.write(bytes, at: offset) }
    }

    func size() throws(Errno) -> Int64 {
        try fileSystem.perform(false, "") { () throws(Errno) in try base.size() }
    }

    func truncate(to size: Int64) throws(Errno) {
        try fileSystem.perform(isStep, "truncate \(path)") { () throws(Errno) in try base.truncate(to: size) }
    }

    func synchronizeData() throws(Errno) {
        try fileSystem.perform(isStep, "fdatasync \(path)") { () throws(Errno) in try base.synchronizeData() }
    }

    func synchronize() throws(Errno) {
        try fileSystem.perform(isStep, "fsync \(path)") { () throws(Errno) in try base.synchronize() }
    }
}
