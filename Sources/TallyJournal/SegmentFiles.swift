import SystemPackage

/// Naming and listing of segment files: `<first sequence, 20 digits>.segment`, created as
/// `.segment.tmp` and renamed into place once their header is durable.
enum SegmentFiles {
    static let suffix = ".segment"
    static let temporarySuffix = ".segment.tmp"

    static func name(firstSequenceNumber: UInt64) -> String {
        let digits = String(firstSequenceNumber)
        return String(repeating: "0", count: max(0, 20 - digits.count)) + digits + suffix
    }

    /// The first sequence number a segment's name announces, or nil for other files.
    static func firstSequenceNumber(inName name: String) -> UInt64? {
        guard name.hasSuffix(suffix), name.utf8.count == 20 + suffix.utf8.count else { return nil }
        let digits = name.prefix(20)
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return UInt64(digits)
    }

    /// The segments in a directory, ordered by first sequence number.
    static func list(in directory: FilePath, fileSystem: any FileSystem) throws(JournalError) -> [SegmentFile] {
        let names = try withErrno("list directory", directory) { () throws(Errno) in
            try fileSystem.contentsOfDirectory(at: directory)
        }
        return names.compactMap { name in
            firstSequenceNumber(inName: name).map { SegmentFile(name: name, firstSequenceNumber: $0) }
        }.sorted { $0.firstSequenceNumber < $1.firstSequenceNumber }
    }

    /// Temporary segment files left by a crash during rotation.
    static func temporaryFiles(in directory: FilePath, fileSystem: any FileSystem) throws(JournalError) -> [String] {
        try withErrno("list directory", directory) { () throws(Errno) in
            try fileSystem.contentsOfDirectory(at: directory).filter { $0.hasSuffix(temporarySuffix) }
        }
    }
}

/// A segment file known by name.
struct SegmentFile: Sendable, Hashable {
    var name: String
    var firstSequenceNumber: UInt64
}

func withErrno<T>(_ operation: String, _ path: FilePath, _ body: () throws(Errno) -> T) throws(JournalError) -> T {
    try JournalError.catching(operation, path, body)
}

extension JournalError {
    /// The error for a failed file-system call: `ENOSPC` becomes `diskFull`; a symbolic link,
    /// special file or directory where a regular file belongs (`ELOOP` from `O_NOFOLLOW`,
    /// `EISDIR`, ``Errno/notARegularFile``) becomes `notARegularFile`; anything else
    /// `ioFailure` naming the operation and path. Every file operation of the journal and the
    /// ledger maps its errors here, so one fault reads the same on every path.
    public init(_ error: Errno, operation: String, path: FilePath) {
        if error == .noSpace {
            self = .diskFull(path: path.string)
        } else if error == .notARegularFile || error == .tooManySymbolicLinkLevels || error == .isDirectory {
            self = .notARegularFile(path: path.string)
        } else {
            self = .ioFailure(operation: operation, path: path.string, errno: error.rawValue)
        }
    }

    /// Runs a file-system call and maps its `Errno` with ``init(_:operation:path:)``.
    public static func catching<T>(
        _ operation: String, _ path: FilePath, _ body: () throws(Errno) -> T
    ) throws(JournalError) -> T {
        do {
            return try body()
        } catch {
            throw JournalError(error, operation: operation, path: path)
        }
    }
}

extension JournalReader {
    /// The segment file names in the journal folder `directory`, oldest first (other files,
    /// such as a `.segment.tmp` a crash left, are not listed).
    /// - Throws: `JournalError` when the folder cannot be listed.
    public static func segmentNames(in directory: FilePath, fileSystem: any FileSystem = PosixFileSystem()) throws(JournalError) -> [String] {
        try SegmentFiles.list(in: directory, fileSystem: fileSystem).map(\.name)
    }
}
