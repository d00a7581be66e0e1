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
public struct PosixFileSystem: FileSystem {
    /// Creates the file system.
    public init() {}

    public func openFile(at path: FilePath, writable: Bool) throws(Errno) -> any JournalFile {
        let descriptor = try catchingErrno {
            try FileDescriptor.open(path, writable ? .readWrite : .readOnly, options: [.closeOnExec])
        }
        return PosixFile(descriptor: descriptor)
    }

    public func createFile(at path: FilePath) throws(Errno) -> any JournalFile {
        let descriptor = try catchingErrno {
            try FileDescriptor.open(
                path, .readWrite, options: [.create, .exclusiveCreate, .closeOnExec],
                permissions: [.ownerReadWrite, .groupRead])
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
            if mkdir(prefix.string, 0o755) != 0 && errno != EEXIST { throw Errno(rawValue: errno) }
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

    public func synchronizeDirectory(at path: FilePath) throws(Errno) {
        let descriptor = try catchingErrno { try FileDescriptor.open(path, .readOnly, options: [.directory, .closeOnExec]) }
        defer { try? descriptor.close() }
        guard fsync(descriptor.rawValue) == 0 else { throw Errno(rawValue: errno) }
    }

    public func lockExclusively(at path: FilePath) throws(Errno) -> any FileLock {
        let descriptor = try catchingErrno {
            try FileDescriptor.open(
                path, .readWrite, options: [.create, .closeOnExec], permissions: [.ownerReadWrite, .groupRead])
        }
        guard flock(descriptor.rawValue, LOCK_EX | LOCK_NB) == 0 else {
            let failure = Errno(rawValue: errno)
            try? descriptor.close()
            throw failure
        }
        return PosixFileLock(descriptor: descriptor)
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

/// `@unchecked Sendable`: the descriptor is immutable; unlock is idempotent under the lock.
private final class PosixFileLock: FileLock, @unchecked Sendable {
    let descriptor: FileDescriptor

    init(descriptor: FileDescriptor) {
        self.descriptor = descriptor
    }

    deinit { try? descriptor.close() }

    func unlock() {
        _ = flock(descriptor.rawValue, LOCK_UN)
    }
}
