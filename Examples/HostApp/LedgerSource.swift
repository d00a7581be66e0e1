import Foundation
import Tally

/// Where the example's ledger comes from: a commands file executed into a new temporary
/// ledger, or an existing ledger directory opened in place.
enum LedgerSource {
    /// A JSON Lines commands file (Sources/Tally/Tally.docc/Commands.md).
    case commands(path: String)
    /// A ledger directory (it holds `journal/`), such as one `tally apply` or `tally-scale` made.
    case directory(path: String)

    /// The source `path` names: a directory is a ledger, anything else a commands file.
    /// - Throws: ``HostExampleError/usage(_:)`` when nothing is at `path`.
    init(path: String) throws(HostExampleError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .usage("\(path) does not exist: give a commands file (.jsonl) or a ledger directory")
        }
        self = isDirectory.boolValue ? .directory(path: path) : .commands(path: path)
    }

    /// Opens the ledger: an existing directory as it is (never creating one), or a new
    /// temporary ledger with every command of the file executed, one batch per line as
    /// `tally apply` does.
    /// - Throws: ``HostExampleError`` naming the file and line of a command that cannot be read
    ///   or was refused, or the ledger's error.
    func open() async throws(HostExampleError) -> OpenedLedger {
        switch self {
        case .directory(let path):
            var options = LedgerOptions()
            options.createIfMissing = false
            let ledger = try await HostExampleError.wrapping { () async throws(LedgerError) in
                try await Ledger.open(at: FilePath(path), options: options)
            }
            return OpenedLedger(ledger: ledger, temporaryDirectory: nil, summary: "the ledger in \(FilePath(path).lastComponent?.string ?? path)")
        case .commands(let path):
            let lines = try Self.commandLines(in: path)
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-host-\(UUID().uuidString)").path
            let ledger = try await HostExampleError.wrapping { () async throws(LedgerError) in try await Ledger.open(at: FilePath(directory)) }
            let name = FilePath(path).lastComponent?.string ?? path
            let opened = OpenedLedger(ledger: ledger, temporaryDirectory: directory, summary: "\(lines.count) commands of \(name), executed into a new ledger")
            do {
                try await Self.execute(lines, path: path, on: ledger)
            } catch {
                await opened.discard()
                throw error
            }
            return opened
        }
    }

    /// The commands of the file at `path`, each with its line number.
    private static func commandLines(in path: String) throws(HostExampleError) -> [(lineNumber: Int, command: Command)] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadableFile(path: path, reason: "it is not a readable file")
        }
        var commands: [(lineNumber: Int, command: Command)] = []
        for line in CommandParser.commandLines(in: Array(data)) {
            do {
                commands.append((line.lineNumber, try CommandParser.parse(lineBytes: line.bytes)))
            } catch {
                var located = error
                located.lineNumber = line.lineNumber
                throw .invalidCommand(path: path, located)
            }
        }
        return commands
    }

    /// Executes `lines` in order, each command its own batch (``Ledger/execute(each:)``,
    /// `commandsPerBatchMax` at a time); stops at the first one refused.
    private static func execute(_ lines: [(lineNumber: Int, command: Command)], path: String, on ledger: Ledger) async throws(HostExampleError) {
        let chunkSize = LedgerOptions().commandsPerBatchMax
        for start in stride(from: 0, to: lines.count, by: chunkSize) {
            let chunk = lines[start..<min(start + chunkSize, lines.count)]
            let outcomes = try await HostExampleError.wrapping { () async throws(LedgerError) in
                try await ledger.execute(each: chunk.map(\.command))
            }
            for (line, outcome) in zip(chunk, outcomes) {
                if case .failure(let error) = outcome { throw .commandRejected(path: path, lineNumber: line.lineNumber, error) }
            }
        }
    }
}
