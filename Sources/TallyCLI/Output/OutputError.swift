#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A write to stdout or stderr that the operating system refused: a closed pipe (`EPIPE`), a
/// full disk (`ENOSPC`), an I/O error (`EIO`), a closed descriptor (`EBADF`), ...
///
/// Thrown by ``FileDescriptorWriter`` instead of trapping. Read-only subcommands stop on it
/// (exit 3, ``CLIError/outputLostExitCode``); writing subcommands finish their work first
/// (``ResultLines``).
struct OutputError: Error, Sendable, Equatable {
    /// Which standard stream failed.
    enum Stream: String, Sendable {
        case stdout, stderr
    }

    /// The stream that could not be written.
    let stream: Stream
    /// The `errno` of the failed `write(2)`.
    let errorNumber: Int32
    /// Bytes of the failed write that did reach the stream before it failed.
    let bytesWritten: Int

    /// The errno's symbolic name (`EPIPE`, `ENOSPC`, `EIO`, ...), or `errno N` for others.
    var code: String {
        switch errorNumber {
        case EPIPE: "EPIPE"
        case ENOSPC: "ENOSPC"
        case EIO: "EIO"
        case EBADF: "EBADF"
        case EFBIG: "EFBIG"
        case EDQUOT: "EDQUOT"
        case EINVAL: "EINVAL"
        case ECONNRESET: "ECONNRESET"
        default: "errno \(errorNumber)"
        }
    }

    /// `stdout: write failed: No space left on device (ENOSPC)`.
    var description: String {
        let reason = strerror(errorNumber).map { String(cString: $0) } ?? "unknown error"
        return "\(stream.rawValue): write failed: \(reason) (\(code))"
    }
}
