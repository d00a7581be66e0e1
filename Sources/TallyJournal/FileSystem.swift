import SystemPackage

/// The file operations the journal uses: the seam where tests inject faults (dropped, torn or
/// partial unsynced writes, EIO, ENOSPC) and where another storage could be plugged in.
///
/// Every method throws `Errno` on failure; the journal turns it into a `JournalError` that
/// names the operation and path.
public protocol FileSystem: Sendable {
    /// Opens an existing file for reading, or for reading and writing.
    func openFile(at path: FilePath, writable: Bool) throws(Errno) -> any JournalFile
    /// Creates a new, empty file for reading and writing; fails if it exists.
    func createFile(at path: FilePath) throws(Errno) -> any JournalFile
    /// The names of the entries in a directory.
    func contentsOfDirectory(at path: FilePath) throws(Errno) -> [String]
    /// Creates a directory and missing parents.
    func createDirectory(at path: FilePath) throws(Errno)
    /// Whether a file or directory exists.
    func fileExists(at path: FilePath) -> Bool
    /// Atomically renames a file.
    func rename(from source: FilePath, to destination: FilePath) throws(Errno)
    /// Removes a file (or a symbolic link, which is not followed).
    func removeFile(at path: FilePath) throws(Errno)
    /// Removes an empty directory.
    func removeDirectory(at path: FilePath) throws(Errno)
    /// Makes a directory's entries (created, renamed, removed files) durable.
    func synchronizeDirectory(at path: FilePath) throws(Errno)
    /// Takes an exclusive advisory lock, or fails with `EWOULDBLOCK` when another holder has it.
    /// The lock is released when the returned object is released or `unlock` is called.
    func lockExclusively(at path: FilePath) throws(Errno) -> any FileLock
    /// Whether paths name files of the operating system, so that a library doing its own file
    /// I/O (SQLite for the read side) sees the same files. `false` for simulated file systems.
    var isOperatingSystemFileSystem: Bool { get }
}

extension FileSystem {
    /// Simulated or wrapped file systems are not the operating system's unless they say so.
    public var isOperatingSystemFileSystem: Bool { false }

    /// A file system that models no directory removal refuses it (`ENOTSUP`).
    public func removeDirectory(at path: FilePath) throws(Errno) { throw .notSupported }

    /// Removes `path` and, when it is a directory, everything inside it, through this file
    /// system's own operations (so a fault or a crash injected into it stops the removal as
    /// it would stop a process). A symbolic link is removed, never followed. At most
    /// `depthMax` levels of folders are descended (`ELOOP` below that); a missing `path` is
    /// not an error.
    public func removeTree(at path: FilePath, depthMax: Int = 16) throws(Errno) {
        do {
            try removeFile(at: path)
            return
        } catch where error == .noSuchFileOrDirectory {
            return
        } catch where error == .isDirectory || error == .notPermitted {
            // unlink(2) refuses a directory: EISDIR on Linux, EPERM on Darwin.
        }
        guard depthMax > 0 else { throw .tooManySymbolicLinkLevels }
        for name in try contentsOfDirectory(at: path) {
            try removeTree(at: path.appending(name), depthMax: depthMax - 1)
        }
        try removeDirectory(at: path)
    }
}

/// An open file. It closes when the last reference to it goes away, so a sync in flight never
/// races a close.
public protocol JournalFile: AnyObject, Sendable {
    /// Reads up to `buffer.count` bytes at `offset`; returns fewer only at the end of the file.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(Errno) -> Int
    /// Writes all of `bytes` at `offset`.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(Errno)
    /// The file's current size.
    func size() throws(Errno) -> Int64
    /// Cuts or extends the file to `size` bytes.
    func truncate(to size: Int64) throws(Errno)
    /// Makes the file's data durable (`fdatasync`).
    func synchronizeData() throws(Errno)
    /// Makes the file's data and metadata durable (`fsync`).
    func synchronize() throws(Errno)
}

/// A held lock.
public protocol FileLock: AnyObject, Sendable {
    /// Releases the lock.
    func unlock()
    /// Whether the path the lock was taken at still names the locked folder: false once a tool
    /// moved it away or put another folder in its place (issue 29), so a writer stops before it
    /// acknowledges what it wrote into a folder that is no longer the ledger's.
    func isStillAtItsPath() -> Bool
}

extension JournalFile {
    /// Reads exactly `count` bytes at `offset`, or fewer at the end of the file.
    public func readBytes(count: Int, at offset: Int64) throws(Errno) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var result: Result<Int, Errno> = .success(0)
        bytes.withUnsafeMutableBytes { buffer in
            result = Result { () throws(Errno) in try self.read(into: buffer, at: offset) }
        }
        let read = try result.get()
        if read < count { bytes.removeSubrange(read...) }
        return bytes
    }

    /// Writes all of `bytes` at `offset`.
    public func write(_ bytes: [UInt8], at offset: Int64) throws(Errno) {
        var result: Result<Void, Errno> = .success(())
        bytes.withUnsafeBytes { buffer in
            result = Result { () throws(Errno) in try self.write(buffer, at: offset) }
        }
        try result.get()
    }
}

extension FileSystem {
    /// Replaces the file at `path` with `bytes` so that a crash leaves either the old or the new
    /// contents: write a temporary file beside it, fsync, rename over, fsync the directory
    /// (creating the directory first if needed). A failure removes the temporary file (it may
    /// hold data that must not linger, such as texts of a forgotten person).
    public func replaceAtomically(_ path: FilePath, with bytes: [UInt8]) throws(Errno) {
        try replaceAtomically(path) { file throws(Errno) in try file.write(bytes, at: 0) }
    }

    /// ``replaceAtomically(_:with:)`` for contents that `write` puts into the new file.
    public func replaceAtomically(_ path: FilePath, writing write: (any JournalFile) throws(Errno) -> Void) throws(Errno) {
        let parent = path.removingLastComponent()
        let directory = parent.isEmpty ? FilePath(".") : parent  // a bare file name is in the current folder
        let temporary = FilePath(path.string + AtomicReplacement.temporarySuffix)
        if !fileExists(at: directory) { try createDirectory(at: directory) }
        if fileExists(at: temporary) { try removeFile(at: temporary) }
        do throws(Errno) {
            let file = try createFile(at: temporary)
            try write(file)
            try file.synchronize()
            try rename(from: temporary, to: path)
        } catch {
            try? removeFile(at: temporary)
            throw error
        }
        try synchronizeDirectory(at: directory)
    }

    /// Copies `count` bytes of `source` from `offset` into a new file at `path`, atomically and
    /// durably like ``replaceAtomically(_:with:)``, one MiB at a time (memory stays bounded
    /// however much is copied). Throws `EIO` when `source` holds fewer bytes.
    public func copyAtomically(_ source: any JournalFile, from offset: Int64, count: Int64, to path: FilePath) throws(Errno) {
        let chunkBytes: Int64 = 1 << 20
        try replaceAtomically(path) { file throws(Errno) in
            var copied: Int64 = 0
            while copied < count {
                let chunk = try source.readBytes(count: Int(min(chunkBytes, count - copied)), at: offset + copied)
                guard !chunk.isEmpty else { throw Errno.ioError }
                try file.write(chunk, at: copied)
                copied += Int64(chunk.count)
            }
        }
    }
}

/// What ``FileSystem/replaceAtomically(_:with:)`` leaves beside a file while it writes it.
public enum AtomicReplacement {
    /// The suffix of the file written before the rename (`<name>.tmp`); a crash can leave one,
    /// which the next replacement removes.
    public static let temporarySuffix = ".tmp"
}
