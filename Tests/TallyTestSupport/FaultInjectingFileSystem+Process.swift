import SystemPackage
import TallyJournal

extension FaultInjectingFileSystem {
    /// Starts a simulated process: a view of this file system whose every operation, file
    /// handle and lock belongs to that process. When the process dies (``kill(_:)`` or any
    /// crash), everything it still holds fails with EBADF and its locks are released, so a dead
    /// engine instance can never touch the disk again (in particular not through path-based
    /// operations such as `createFile` or `rename`, which a crash alone does not stop).
    public func startProcess() -> FaultProcess {
        let id = state.withLock { state in
            let id = state.nextProcessID
            state.nextProcessID += 1
            state.aliveProcesses.insert(id)
            return id
        }
        return FaultProcess(fileSystem: self, id: id)
    }

    /// Kills `process` (kill -9 without a power loss): written data stays in the "page cache"
    /// (live bytes are kept, nothing is synced), its locks are released, and its handles fail.
    public func kill(_ process: FaultProcess) {
        state.withLock { state in
            state.aliveProcesses.remove(process.id)
            for (token, owner) in state.lockOwners where owner == process.id {
                state.lockOwners[token] = nil
                if let path = state.locks.first(where: { $0.value == token })?.key { state.locks[path] = nil }
            }
        }
    }
}

extension FaultInjectingFileSystem.State {
    /// Throws EBADF for an operation of a process that is no longer running.
    func requireAlive(_ process: Int?) throws(Errno) {
        if let process, !aliveProcesses.contains(process) { throw .badFileDescriptor }
    }
}

/// One simulated process's view of a ``FaultInjectingFileSystem`` (see
/// ``FaultInjectingFileSystem/startProcess()``).
public struct FaultProcess: FileSystem, Sendable {
    /// The file system the process runs on.
    public let fileSystem: FaultInjectingFileSystem
    /// The process id (unique per file system).
    public let id: Int

    public func openFile(at path: FilePath, writable: Bool) throws(Errno) -> any JournalFile {
        try fileSystem.openFile(at: path, writable: writable, process: id)
    }

    public func createFile(at path: FilePath) throws(Errno) -> any JournalFile {
        try fileSystem.createFile(at: path, process: id)
    }

    public func contentsOfDirectory(at path: FilePath) throws(Errno) -> [String] {
        try fileSystem.contentsOfDirectory(at: path, process: id)
    }

    public func createDirectory(at path: FilePath) throws(Errno) {
        try fileSystem.createDirectory(at: path, process: id)
    }

    public func fileExists(at path: FilePath) -> Bool {
        fileSystem.fileExists(at: path)
    }

    public func rename(from source: FilePath, to destination: FilePath) throws(Errno) {
        try fileSystem.rename(from: source, to: destination, process: id)
    }

    public func removeFile(at path: FilePath) throws(Errno) {
        try fileSystem.removeFile(at: path, process: id)
    }

    public func removeDirectory(at path: FilePath) throws(Errno) {
        try fileSystem.removeDirectory(at: path, process: id)
    }

    public func synchronizeDirectory(at path: FilePath) throws(Errno) {
        try fileSystem.synchronizeDirectory(at: path, process: id)
    }

    public func lockExclusively(at path: FilePath) throws(Errno) -> any FileLock {
        try fileSystem.lockExclusively(at: path, process: id)
    }
}
