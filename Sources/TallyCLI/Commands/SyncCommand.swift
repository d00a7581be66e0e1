import ArgumentParser
import Foundation
import Tally
import TallySync
import TallySyncHTTP

/// `tally sync`: a device's ledger through `tally serve` (Docs/Sync.md): pushes commands, pulls
/// what the household's other devices pushed.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync this device's ledger through `tally serve`: push a command file (optional), then pull.",
        discussion: "Each pushed command prints one JSON result line as `tally apply` does (its sequence numbers are the server's). Exit 0 when every command was accepted, 1 when any was invalid or rejected, 2 when it could not run (the server unreachable: retry, a push is idempotent by command id).")

    @OptionGroup var location: LedgerOption
    @OptionGroup var key: KeyOptions

    @Option(help: ArgumentHelp("The server's address, e.g. http://127.0.0.1:8080.", valueName: "URL"))
    var server: String

    @Option(name: .customLong("token-file"), help: ArgumentHelp("A file holding this device's token (from `tally serve device`).", valueName: "FILE"))
    var tokenFile: String

    @Option(help: ArgumentHelp("JSON Lines commands to execute through the server, or - for stdin (Docs/Commands.md); the actor of each must be this device's person.", valueName: "FILE"))
    var push: String?

    @Option(help: ArgumentHelp("After pushing, wait up to this long for the household's other devices (long poll).", valueName: "MILLISECONDS"))
    var wait = 0

    func validate() throws {
        guard (0...SyncServer.waitMillisecondsMax).contains(wait) else {
            throw ValidationError("--wait must be 0...\(SyncServer.waitMillisecondsMax) milliseconds, not \(wait)")
        }
    }

    /// The longest token file read (a token is 43 characters).
    static let tokenFileBytesMax = 4_096

    func run() async throws {
        let path = try location.path()
        guard let tokenData = FileManager.default.contents(atPath: tokenFile), tokenData.count <= Self.tokenFileBytesMax,
              let token = String(data: tokenData, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines), !token.isEmpty
        else {
            throw CLIError("\(tokenFile): cannot read a device token (one line, as `tally serve device` prints it)")
        }
        var results = ResultLines()
        var counts = ApplyCommand.ApplyCounts(commands: 0)
        let parsed = try push.map { ApplyCommand.parse(try ApplyCommand.read($0), results: &results, counts: &counts) } ?? []
        let ledger = try await LedgerAccess.open(at: path, create: true, encryption: try key.encryption(), chainKey: try key.chainKey())
        do {
            let device = try await SyncDevice(ledger: ledger, transport: HTTPSyncTransport(server: server, token: token))
            for (line, command) in parsed {
                do {
                    let range = try await device.execute(command)
                    counts.applied += 1
                    results.line(ApplyCommand.ok(line: line, sequenceNumbers: Array(range)))
                } catch let error as LedgerError {
                    guard case .rejected = error else { throw CLIError.ledger(error, at: path) }
                    counts.rejected += 1
                    results.line(ApplyCommand.rejected(line: line, error))
                } catch let SyncError.refused(code, message) {
                    // Refused by the server unread (actorNotDevicePerson, commandInvalid): a
                    // rejection of this command; a refused request (a token) ends the run.
                    counts.rejected += 1
                    results.line(ApplyCommand.rejected(line: line, code: code, rule: nil, message: message))
                }
            }
            let pulled = try await device.pull(waitMilliseconds: wait)
            Terminal.error("tally sync: \(path) holds the household's history through \(await device.confirmedSequenceNumber) (\(pulled) record(s) pulled)")
        } catch let error as SyncError {
            try? await ledger.close()
            throw CLIError("\(server): \(error)")
        } catch {
            try? await ledger.close()
            throw error
        }
        try await LedgerAccess.close(ledger, at: path)
        try results.requireDelivered(outcome: counts.outcome(ledger: path))
        if counts.invalid > 0 || counts.rejected > 0 { throw ExitCode(1) }
    }
}
