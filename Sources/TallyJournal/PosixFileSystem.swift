#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

/// The operating system's file system: swift-system's `FileDescriptor` for open, read, write
/// and truncate; libc for `fdatasync`, `flock` and directory listing, which swift-system lacks.
///
/// Only regular files are opened: `O_NOFOLLOW` refuses a symbolic link, `O_NONBLOCK` keeps a
/// FIFO from blocking the open, and `fstat` refuses anything that is not a regular file
/// (``Errno/notARegularFile``). Files are created `0600` and directories `0700` whatever the
/// umask: a ledger holds personal data and, unencrypted, the keys that seal it.
public struct PosixFileSystem: FileSystem {
    /// The operating system's files.
    public var isOperatingSystemFileSystem: Bool { true }

    /// Creates the file system.
    public init() {}

    /// The permissions of every file created (owner read and write only).
    public static let filePermissions: FilePermissions = .ownerReadWrite
    /// The permissions of every directory created (owner only).
    public static let directoryPermissions: FilePermissions = .ownerReadWriteExecute

    public func openFile(at path: FilePath, writable: Bool) throws(Errno) -> any JournalFile {
        let descriptor = try catchingErrno {
            try FileDescriptor.open(
                path, writable ? .readWrite : .readOnly, options: [.closeOnExec, .noFollow, .nonBlocking])
        }
        try requireRegularFile(descriptor)
        return PosixFile(descriptor: descriptor)
    }

    public func createFile(at path: FilePath) throws(Errno) -> any JournalFile {
        let descriptor = try catchingErrno {
            try FileDescriptor.open(
                path, .readWrite, options: [.create, .exclusiveCreate, .closeOnExec, .noFollow],
                permissions: Self.filePermissions)
        }
        // The umask can only take bits away; set the mode exactly (0600) all the same.
        guard fchmod(descriptor.rawValue, mode_t(Self.filePermissions.rawValue)) == 0 else {
            let failure = Errno(rawValue: errno)
            try? descriptor.close()
            throw failure
        }
        return PosixFile(descriptor: descriptor)
    }

    public func contentsOfDirectory(at path: FilePath) throws(Errno) -> [String] {
        guard let directory = opendir(path.string) else { throw Errno(rawValue: errno) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    public func createDirectory(at path: FilePath) throws(Errno) {
        var prefix = FilePath(path.root?.string ?? "")
        for component in path.components {
            prefix.append(component)
            let mode = mode_t(Self.directoryPermissions.rawValue)
            if mkdir(prefix.string, mode) == 0 {
                guard chmod(prefix.string, mode) == 0 else { throw Errno(rawValue: errno) }
                // The new entry is durable before anything is written into the folder.
                let parent = prefix.removingLastComponent()
                try synchronizeDirectory(at: parent.isEmpty ? "." : parent)
            } else if errno != EEXIST {
                throw Errno(rawValue: errno)
            }
        }
    }

    public func fileExists(at path: FilePath) -> Bool {
        access(path.string, F_OK) == 0
    }

    public func rename(from source: FilePath, to destination: FilePath) throws(Errno) {
        guard renameFile(source.string, destination.string) == 0 else { throw Errno(rawValue: errno) }
    }

    public func removeFile(at path: FilePath) throws(Errno) {
        guard unlink(path.string) == 0 else { throw Errno(rawValue: errno) }
    }

    public func removeDirectory(at path: FilePath) throws(Errno) {
        guard rmdir(path.string) == 0 else { throw Errno(rawValue: errno) }
    }

    public func synchronizeDirectory(at path: FilePath) throws(Errno) {
        let descriptor = try catchingErrno { try FileDescriptor.open(path, .readOnly, options: [.directory, .closeOnExec]) }
        defer { try? descriptor.close() }
        guard fsync(descriptor.rawValue) == 0 else { throw Errno(rawValue: errno) }
    }

    /// Locks the directory at `path` itself (`flock` on a descriptor of the directory), not a
    /// lock file beside the data: a file can be unlinked while its lock is held, letting a
    /// second writer lock a new file of the same name; a directory holding the journal cannot
    /// be replaced unnoticed, and the identity check after locking catches one that was
    /// renamed or replaced between the open and the lock (`ESTALE`). `flock` locks belong to
    /// the open file description, so closing other descriptors of the directory (a directory
    /// sync) never releases it, unlike POSIX `fcntl` locks.
    public func lockExclusively(at path: FilePath) throws(Errno) -> any FileLock {
        let descriptor = try catchingErrno {
            try FileDescriptor.open(path, .readOnly, options: [.directory, .closeOnExec, .noFollow])
        }
        guard flock(descriptor.rawValue, LOCK_EX | LOCK_NB) == 0 else {
            let failure = Errno(rawValue: errno)
            try? descriptor.close()
            throw failure
        }
        var locked = stat()
        var current = stat()
        guard fstat(descriptor.rawValue, &locked) == 0, stat(path.string, &current) == 0,
              locked.st_dev == current.st_dev, locked.st_ino == current.st_ino
        else {
            try? descriptor.close()
            throw Errno.staleNFSFileHandle
        }
        return PosixFileLock(descriptor: descriptor, path: path, device: locked.st_dev, inode: locked.st_ino)
    }
}

extension Errno {
    /// What ``PosixFileSystem`` throws for a path that exists but is not a regular file (a
    /// FIFO, device or socket; `ELOOP` and `EISDIR` come from the system for links and
    /// directories). Linux has no `EFTYPE`; `ENXIO` ("no such device or address") is what
    /// opening a FIFO without a reader reports, so it stands for all special files.
    public static var notARegularFile: Errno { .noSuchAddressOrDevice }
}

/// Throws ``Errno/notARegularFile`` (closing the descriptor) unless it is a regular file.
private func requireRegularFile(_ descriptor: FileDescriptor) throws(Errno) {
    var status = stat()
    guard fstat(descriptor.rawValue, &status) == 0 else {
        let failure = Errno(rawValue: errno)
        try? descriptor.close()
        throw failure
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
        try? descriptor.close()
        throw Errno.notARegularFile
    }
}

private func renameFile(_ source: String, _ destination: String) -> Int32 {
    rename(source, destination)
}

private func catchingErrno<T>(_ body: () throws -> T) throws(Errno) -> T {
    do { return try body() } catch let error as Errno { throw error } catch { throw Errno.ioError }
}

/// `@unchecked Sendable`: the descriptor is immutable and POSIX calls on it are thread-safe
/// (`pread`/`pwrite` take explicit offsets, so no shared file position is used).
private final class PosixFile: JournalFile, @unchecked Sendable {
    let descriptor: FileDescriptor

    init(descriptor: FileDescriptor) {
        self.descriptor = descriptor
    }

    deinit { try? descriptor.close() }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(Errno) -> Int {
        var total = 0
        while total < buffer.count {
            let count = try catchingErrno {
                try descriptor.read(
                    fromAbsoluteOffset: offset + Int64(total),
                    into: UnsafeMutableRawBufferPointer(rebasing: buffer[total...]))
            }
            if count == 0 { break }
            total += count
        }
        return total
    }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(Errno) {
        _ = try catchingErrno { try descriptor.writeAll(toAbsoluteOffset: offset, bytes) }
    }

    func size() throws(Errno) -> Int64 {
        var status = stat()
        guard fstat(descriptor.rawValue, &status) == 0 else { throw Errno(rawValue: errno) }
        return Int64(status.st_size)
    }

    func truncate(to size: Int64) throws(Errno) {
        try catchingErrno { try descriptor.resize(to: size) }
    }

    func synchronizeData() throws(Errno) {
        guard fdatasync(descriptor.rawValue) == 0 else { throw Errno(rawValue: errno) }
    }

    func synchronize() throws(Errno) {
        guard fsync(descriptor.rawValue) == 0 else { throw Errno(rawValue: errno) }
    }
}

/// `@unchecked Sendable`: the fields are immutable; unlock is idempotent under the lock.
private final class PosixFileLock: FileLock, @unchecked Sendable {
    let descriptor: FileDescriptor
    /// Where it was locked, and the identity of the folder locked there.
    let path: FilePath
    let device: dev_t
    let inode: ino_t

    init(descriptor: FileDescriptor, path: FilePath, device: dev_t, inode: ino_t) {
        self.descriptor = descriptor
        self.path = path
        self.device = device
        self.inode = inode
    }

    /// One `stat` of the path (a microsecond): the same device and inode as the locked folder.
    func isStillAtItsPath() -> Bool {
        var current = stat()
        return stat(path.string, &current) == 0 && current.st_dev == device && current.st_ino == inode
    }

    deinit { try? descriptor.close() }

    func unlock() {
        _ = flock(descriptor.rawValue, LOCK_UN)
    }
}
