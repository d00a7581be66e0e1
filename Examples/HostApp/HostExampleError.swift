import Tally

/// Why the host example stopped: each case names what to fix.
enum HostExampleError: Error, CustomStringConvertible {
    /// The arguments are not what the example takes (exit status 2).
    case usage(String)
    /// The commands file could not be read.
    case unreadableFile(path: String, reason: String)
    /// A line of the commands file is not a command (its line number is in the parse error).
    case invalidCommand(path: String, CommandParseError)
    /// The ledger refused a command of the commands file.
    case commandRejected(path: String, lineNumber: Int, LedgerError)
    /// Opening the ledger, a query, an observation or a command failed.
    case ledger(LedgerError)
    /// The observed balances ended before the value the example waits for arrived.
    case observationEnded(waitingFor: String)

    /// Runs `body`, reporting its failure as ``ledger(_:)``.
    static func wrapping<Value>(_ body: () async throws(LedgerError) -> Value) async throws(HostExampleError) -> Value {
        do {
            return try await body()
        } catch {
            throw .ledger(error)
        }
    }

    /// 2 for a usage error, 1 otherwise.
    var exitStatus: Int32 {
        if case .usage = self { return 2 }
        return 1
    }

    var description: String {
        switch self {
        case .usage(let message):
            "\(message)\n\(HostArguments.usage)"
        case .unreadableFile(let path, let reason):
            "\(path): cannot be read: \(reason)"
        case .invalidCommand(let path, let error):
            "\(path): \(error)"
        case .commandRejected(let path, let lineNumber, let error):
            "\(path): line \(lineNumber): \(error)"
        case .ledger(let error):
            "\(error)"
        case .observationEnded(let value):
            "the observation of the balances ended before \(value) arrived (was the ledger closed?)"
        }
    }
}
