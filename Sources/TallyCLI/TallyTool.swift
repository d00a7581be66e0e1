import ArgumentParser
import Foundation

/// The `tally` command: replays, audits, inspects and exports a Tally ledger.
///
/// Exit codes: 0 success, 1 the command ran and found problems (rejected commands, audit
/// problems, a golden mismatch), 2 the command could not run (bad arguments, missing or
/// unreadable ledger, I/O).
@main
struct TallyTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tally",
        abstract: "Replay, audit, inspect and export a Tally household ledger.",
        discussion: "Exit codes: 0 ok, 1 problems found, 2 could not run. See Docs/CLI.md.",
        subcommands: [
            InitCommand.self, ApplyCommand.self, ReplayCommand.self, AuditCommand.self, LogCommand.self,
            StatsCommand.self, BalancesCommand.self, DebtsCommand.self, BudgetCommand.self, NetWorthCommand.self,
            ExportCommand.self, ImportCommand.self, DiffCommand.self, VerifyCommand.self, DemoCommand.self,
            RepairCommand.self,

        ]
    )

    /// Runs the command and maps every failure to the documented exit codes: usage errors and
    /// errors that stop a command from running print to stderr and exit 2.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let code as ExitCode {
            Terminal.flush()
            Foundation.exit(code.rawValue)
        } catch let error as CLIError {
            Terminal.error("tally: \(error.message)")
            Foundation.exit(2)
        } catch {
            let exitCode = exitCode(for: error)
            if exitCode == .success {
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            Terminal.error(fullMessage(for: error))
            Foundation.exit(2)
        }
        Terminal.flush()
    }
}
