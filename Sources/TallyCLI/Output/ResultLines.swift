/// The stdout lines of a writing subcommand (`apply`, `init`, `import`, `demo`), which must
/// never stop the work they report on.
///
/// Lines are written while stdout takes them. After the first failed write the rest are
/// counted but not written, and the subcommand carries on: what it appends to the ledger is
/// durable whatever happens to stdout. At the end ``requireDelivered(outcome:)`` turns a lost
/// output into ``CLIError/outputLost(_:linesWritten:outcome:)`` (exit 3).
struct ResultLines {
    /// Lines that reached stdout.
    private(set) var linesWritten = 0
    /// Lines not written because stdout had failed.
    private(set) var linesLost = 0
    /// The first failed write, if any.
    private(set) var failure: OutputError?

    /// An empty result stream.
    init() {}

    /// Writes `text` and a newline to stdout unless an earlier write failed.
    mutating func line(_ text: String) {
        guard failure == nil else {
            linesLost += 1
            return
        }
        do {
            try Terminal.line(text)
            linesWritten += 1
        } catch {
            failure = error
            linesLost += 1
        }
    }

    /// Returns when every line was written.
    ///
    /// - Parameter outcome: what the subcommand did, for the stderr message (`all 58 commands
    ///   were applied`).
    /// - Throws: ``CLIError/outputLost(_:linesWritten:outcome:)`` when a line was lost.
    func requireDelivered(outcome: @autoclosure () -> String) throws(CLIError) {
        guard let failure else { return }
        throw CLIError.outputLost(failure, linesWritten: linesWritten, outcome: outcome())
    }
}
