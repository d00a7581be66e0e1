import SystemPackage
import TallyJournal

/// `@unchecked Sendable`: immutable fields; unlocking goes through the file system's mutex.
final class FaultLock: FileLock, @unchecked Sendable {
    let fileSystem: FaultInjectingFileSystem
    let path: String
    let token: Int

    init(fileSystem: FaultInjectingFileSystem, path: String, token: Int) {
        self.fileSystem = fileSystem
        self.path = path
        self.token = token
    }

    func unlock() { fileSystem.unlock(path, token: token) }

    /// The simulated file system has no folder identity: a folder renamed away is gone.
    func isStillAtItsPath() -> Bool { fileSystem.fileExists(at: FilePath(path)) }
}
