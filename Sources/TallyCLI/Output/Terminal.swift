#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing to stdout and stderr, and whether stderr is a terminal (progress is shown only then).
///
/// Every byte the CLI prints goes through ``FileDescriptorWriter``: a failed write is an
/// ``OutputError``, never a trap. Nothing is buffered, so nothing is left to flush at exit.
enum Terminal {
    /// True when stderr is a terminal.
    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Writes `text` and a newline to stdout.
    ///
    /// - Throws: ``OutputError`` when stdout cannot be written (closed pipe, full disk, ...).
    static func line(_ text: String) throws(OutputError) {
        try FileDescriptorWriter.standardOutput.write(Array((text + "\n").utf8))
    }

    /// Writes bytes to stdout as they are.
    ///
    /// - Throws: ``OutputError`` when stdout cannot be written.
    static func write(_ bytes: [UInt8]) throws(OutputError) {
        try FileDescriptorWriter.standardOutput.write(bytes)
    }

    /// Writes `text` and a newline to stderr. A failure is returned, not thrown: stderr is where
    /// failures are reported, so when it fails there is nowhere left to say so and the exit
    /// code alone tells.
    @discardableResult
    static func error(_ text: String) -> OutputError? {
        do {
            try FileDescriptorWriter.standardError.write(Array((text + "\n").utf8))
            return nil
        } catch {
            return error
        }
    }
}
