import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The `tally` command: replays, audits, inspects and exports a Tally ledger.
///
/// Exit codes: 0 success, 1 the command ran and found problems (rejected commands, audit
/// problems, a golden mismatch), 2 the command could not run (bad arguments, missing or
/// unreadable ledger, I/O), 3 stdout could not be written (read-only subcommands stopped,
/// writing subcommands finished their work; Docs/CLI.md).
@main
struct TallyTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tally",
        abstract: "Replay, audit, inspect and export a Tally household ledger.",
        discussion: "Exit codes: 0 ok, 1 problems found, 2 could not run, 3 output lost. See Docs/CLI.md.",
        subcommands: [
            InitCommand.self, ApplyCommand.self, ReplayCommand.self, AuditCommand.self, LogCommand.self,
            StatsCommand.self, BalancesCommand.self, DebtsCommand.self, BudgetCommand.self, NetWorthCommand.self, FlowsCommand.self, GoalsCommand.self, ScenariosCommand.self, AlertsCommand.self, AnalyticsCommand.self, ViewsCommand.self, InvitationsCommand.self, TaxCommand.self, HealthCommand.self,
            ExportCommand.self, ImportCommand.self, ImportMappingCommand.self, DiffCommand.self, VerifyCommand.self, DemoCommand.self,
            RepairCommand.self, RebuildCommand.self, TransactionsCommand.self, SettlementsCommand.self, ReportCommand.self, StatementCommand.self, ActivityCommand.self, SearchCommand.self,
            SubscriptionsCommand.self, AttachmentsCommand.self, ResetCommand.self, PeopleCommand.self, InvestmentsCommand.self,
            SuggestCategoryCommand.self, SampleCommand.self, ServeCommand.self, SyncCommand.self,

        ]
    )

    /// Runs the command and maps every failure to the documented exit codes: usage errors and
    /// errors that stop a command from running print to stderr and exit 2; a stdout that cannot
    /// be written exits 3.
    ///
    /// `SIGPIPE` is ignored first, so a reader that goes away (`tally ... | head -1`) turns into
    /// `EPIPE` from `write(2)` (an ``OutputError``), which every subcommand handles, instead of
    /// killing the process in the middle of its work.
    static func main() async {
        signal(SIGPIPE, SIG_IGN)
        let status = await runReportingFailures()
        #if canImport(Glibc)
        Glibc.exit(status)
        #elseif canImport(Musl)
        Musl.exit(status)
        #else
        Darwin.exit(status)
        #endif
    }

    /// Parses and runs the command; returns the exit code after reporting any failure on stderr.
    static func runReportingFailures() async -> Int32 {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return 0
        } catch let code as ExitCode {
            return code.rawValue
        } catch let error as CLIError {
            Terminal.error("tally: \(error.message)")
            return error.exitCode
        } catch let error as OutputError {
            let failure = CLIError.outputFailed(error)
            Terminal.error("tally: \(failure.message)")
            return failure.exitCode
        } catch {
            guard exitCode(for: error) == .success else {
                Terminal.error(fullMessage(for: error))
                return CLIError.couldNotRunExitCode
            }
            // --help and similar: the text belongs on stdout.
            do {
                try Terminal.line(fullMessage(for: error))
                return 0
            } catch {
                Terminal.error("tally: \(CLIError.outputFailed(error).message)")
                return CLIError.outputLostExitCode
            }
        }
    }
}
