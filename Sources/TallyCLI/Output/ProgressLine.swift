import Foundation

/// A progress line on stderr, drawn only when stderr is a terminal; erased when done.
///
/// Drawing never fails the work it reports on: the first failed write to stderr turns the
/// line off (``Terminal/error(_:)`` reports nothing further either).
final class ProgressLine: @unchecked Sendable {
    // @unchecked: the label is immutable and `lastDrawn` and `isEnabled` are guarded by
    // `lock`; progress callbacks may come from any thread.
    private let label: String
    private let lock = NSLock()
    private var isEnabled: Bool
    private var lastDrawn = -1

    /// A progress line labelled `label`, enabled when stderr is a terminal.
    init(_ label: String) {
        self.label = label
        self.isEnabled = Terminal.stderrIsTerminal
    }

    /// Shows `done` of `total` (total 0 = unknown).
    func update(done: UInt64, total: UInt64) {
        let percent = total == 0 ? 0 : Int(min(100, done.multipliedReportingOverflow(by: 100).partialValue / max(total, 1)))
        lock.lock()
        defer { lock.unlock() }
        guard isEnabled, percent != lastDrawn else { return }
        lastDrawn = percent
        let text = total == 0 ? "\(label): \(done)" : "\(label): \(done)/\(total) (\(percent)%)"
        draw("\r\u{1B}[K\(text)")
    }

    /// Erases the line.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        guard isEnabled else { return }
        draw("\r\u{1B}[K")
    }

    /// Writes to stderr; a failure disables the line. Called with `lock` held.
    private func draw(_ text: String) {
        do {
            try FileDescriptorWriter.standardError.write(Array(text.utf8))
        } catch {
            isEnabled = false
        }
    }
}
