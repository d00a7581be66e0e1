#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading stdin to its end with `read(2)`: a failure (stdin a directory, `EIO`, ...) is a
/// ``CLIError``, never a trap (Foundation's `readDataToEndOfFile()` traps on Linux when the
/// read fails).
enum StandardInput {
    /// The most bytes `tally` reads from stdin (a command file of 256 MiB).
    static let bytesMax = 256 << 20
    /// Bytes asked for per `read(2)`.
    static let chunkBytes = 64 << 10

    /// Every byte until end of file.
    ///
    /// - Throws: ``CLIError`` (exit 2) naming stdin and the errno, or the limit when stdin holds
    ///   more than ``bytesMax`` bytes.
    static func readAll(bytesMax: Int = StandardInput.bytesMax) throws(CLIError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: chunkBytes)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in read(STDIN_FILENO, buffer.baseAddress, buffer.count) }
            if count == 0 { return bytes }
            if count < 0 {
                let errorNumber = errno
                if errorNumber == EINTR { continue }
                let reason = strerror(errorNumber).map { String(cString: $0) } ?? "errno \(errorNumber)"
                throw CLIError("stdin: cannot read the command file: \(reason)")
            }
            guard bytes.count + count <= bytesMax else {
                throw CLIError("stdin: the command file is larger than \(bytesMax) bytes; split it")
            }
            bytes.append(contentsOf: chunk[..<count])
        }
    }
}
