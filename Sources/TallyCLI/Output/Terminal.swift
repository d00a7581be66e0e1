import Foundation

/// Writing to stdout and stderr, and whether stderr is a terminal (progress is shown only then).
enum Terminal {
    /// True when stderr is a terminal.
    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Writes `text` and a newline to stdout.
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Writes bytes to stdout as they are.
    static func write(_ bytes: [UInt8]) {
        FileHandle.standardOutput.write(Data(bytes))
    }

    /// Writes `text` and a newline to stderr.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Nothing is buffered (FileHandle writes directly); kept so exits read clearly.
    static func flush() {}
}

/// A progress line on stderr, drawn only when stderr is a terminal; erased when done.
final class ProgressLine: @unchecked Sendable {
    // @unchecked: the label is immutable and `lastDrawn` is guarded by `lock`; progress
    // callbacks may come from any thread.
    private let label: String
    private let isEnabled: Bool
    private let lock = NSLock()
    private var lastDrawn = -1

    init(_ label: String) {
        self.label = label
        self.isEnabled = Terminal.stderrIsTerminal
    }

    /// Shows `done` of `total` (total 0 = unknown).
    func update(done: UInt64, total: UInt64) {
        guard isEnabled else { return }
        let percent = total == 0 ? 0 : Int(min(100, done * 100 / max(total, 1)))
        lock.lock()
        defer { lock.unlock() }
        guard percent != lastDrawn else { return }
        lastDrawn = percent
        let text = total == 0 ? "\(label): \(done)" : "\(label): \(done)/\(total) (\(percent)%)"
        FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
    }

    /// Erases the line.
    func finish() {
        guard isEnabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
