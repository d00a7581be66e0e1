#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes bytes to a file descriptor with `write(2)` and reports failure as an ``OutputError``,
/// never a trap (Foundation's `FileHandle.write(_: Data)` traps on Linux when the write fails).
///
/// Loops until every byte is written: a short write continues with the rest, `EINTR` retries,
/// `EAGAIN` on a non-blocking descriptor waits with `poll(2)` until it is writable. Any other
/// error stops and is thrown. The CLI ignores `SIGPIPE` (``TallyTool/main()``), so a closed pipe
/// is `EPIPE` here rather than the death of the process.
struct FileDescriptorWriter: Sendable {
    /// One `write(2)` call: the descriptor and the bytes; returns the count written, or -1 and
    /// the `errno`.
    typealias SystemWrite = @Sendable (_ fileDescriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> (count: Int, errorNumber: Int32)

    /// Zero-byte writes tolerated in a row before the stream counts as failed (`EIO`); a
    /// blocking `write(2)` of a non-empty buffer never legitimately returns 0 forever.
    static let zeroWritesInARowMax = 16

    /// The descriptor written to.
    let fileDescriptor: Int32
    /// The stream named in errors.
    let stream: OutputError.Stream
    private let systemWrite: SystemWrite

    /// A writer for `fileDescriptor`, reporting failures as `stream`; `systemWrite` is replaced
    /// only by tests that inject short writes and errors.
    init(fileDescriptor: Int32, stream: OutputError.Stream, systemWrite: @escaping SystemWrite = FileDescriptorWriter.posixWrite) {
        self.fileDescriptor = fileDescriptor
        self.stream = stream
        self.systemWrite = systemWrite
    }

    /// The writer of stdout.
    static let standardOutput = FileDescriptorWriter(fileDescriptor: STDOUT_FILENO, stream: .stdout)
    /// The writer of stderr.
    static let standardError = FileDescriptorWriter(fileDescriptor: STDERR_FILENO, stream: .stderr)

    /// Writes all of `bytes`.
    ///
    /// - Throws: ``OutputError`` naming the stream, the errno and how many of these bytes were
    ///   written before the failure.
    func write(_ bytes: [UInt8]) throws(OutputError) {
        var written = 0
        var zeroWrites = 0
        while written < bytes.count {
            let (count, errorNumber) = bytes.withUnsafeBytes { buffer in
                systemWrite(fileDescriptor, UnsafeRawBufferPointer(rebasing: buffer[written...]))
            }
            if count > 0 {
                written += min(count, bytes.count - written)
                zeroWrites = 0
                continue
            }
            if count == 0 {
                zeroWrites += 1
                guard zeroWrites < Self.zeroWritesInARowMax else {
                    throw OutputError(stream: stream, errorNumber: EIO, bytesWritten: written)
                }
                continue
            }
            switch errorNumber {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                try waitUntilWritable(bytesWritten: written)
            default:
                throw OutputError(stream: stream, errorNumber: errorNumber, bytesWritten: written)
            }
        }
    }

    /// Waits for a non-blocking descriptor to accept bytes again.
    private func waitUntilWritable(bytesWritten: Int) throws(OutputError) {
        var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
        while poll(&descriptor, 1, -1) < 0 {
            let errorNumber = errno
            guard errorNumber == EINTR else {
                throw OutputError(stream: stream, errorNumber: errorNumber, bytesWritten: bytesWritten)
            }
        }
    }

    /// `write(2)` itself.
    static let posixWrite: SystemWrite = { fileDescriptor, bytes in
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return (0, 0) }
        #if canImport(Darwin)
        let count = Darwin.write(fileDescriptor, base, bytes.count)
        #elseif canImport(Musl)
        let count = Musl.write(fileDescriptor, base, bytes.count)
        #else
        let count = Glibc.write(fileDescriptor, base, bytes.count)
        #endif
        return (count, count < 0 ? errno : 0)
    }
}
