import ArgumentParser
import Foundation
import Tally
import TallyModel
import TallyProjections

/// `tally apply`: executes a JSON Lines command file and prints one JSON result per command.
struct ApplyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Execute JSON Lines commands (Docs/Commands.md); one JSON result line per command.",
        discussion: "Exit 0 when every command was applied, 1 when any was invalid or rejected, 2 when it could not run, 3 when stdout failed (the commands were still applied; stderr gives the counts).")

    @OptionGroup var location: LedgerOption
    @OptionGroup var key: KeyOptions

    @Argument(help: ArgumentHelp("The command file, or - for stdin.", valueName: "FILE"))
    var file: String

    @Flag(help: "Apply every command in one batch: all or nothing (G6).")
    var atomic = false

    @Option(name: .customLong("limit"), help: ArgumentHelp(
        "Cap live entities of a kind for these commands (the host's LedgerOptions.entityLimits), e.g. wallets=3; repeatable. Kinds: wallets, goals, scenarios, subscriptions, people, groups, members (active members and pending invitations).",
        valueName: "KIND=COUNT"))
    var limits: [String] = []

    /// The `--limit` values as ``EntityLimits``.
    func entityLimits() throws -> EntityLimits {
        var result = EntityLimits.none
        for text in limits {
            do {
                try result.parse(text)
            } catch {
                throw ValidationError("--limit \(error.text): \(error.message)")
            }
        }
        return result
    }

    func validate() throws {
        _ = try entityLimits()
    }

    func run() async throws {
        let path = try location.path()
        var results = ResultLines()
        var tally = ApplyCounts(commands: 0)
        let parsed = Self.parse(try Self.read(file), results: &results, counts: &tally)
        if atomic && tally.invalid > 0 {
            try results.requireDelivered(outcome: "nothing was applied (--atomic) because a line is invalid")
            Terminal.error("tally: \(file): nothing applied (--atomic) because a line is invalid")
            throw ExitCode(1)
        }
        if atomic {
            // One batch is one journal frame: a file that cannot fit is refused before the
            // ledger is opened or any command validated (Docs/Engine.md "Batches and frames").
            do {
                try LedgerOptions().checkBatchFitsOneFrame(commandCount: parsed.count)
            } catch {
                throw CLIError.ledger(error, at: path)
            }
        }
        let ledger = try await LedgerAccess.open(
            at: path, create: true, encryption: try key.encryption(), chainKey: try key.chainKey(), batchLimit: atomic ? parsed.count : nil,
            entityLimits: try entityLimits())
        if atomic {
            try await applyAtomically(parsed, to: ledger, path: path, results: &results, tally: &tally)
        } else {
            try await applyEach(parsed, to: ledger, path: path, results: &results, tally: &tally)
        }
        try await LedgerAccess.close(ledger, at: path)
        try results.requireDelivered(outcome: tally.outcome(ledger: path))
        if tally.invalid > 0 || tally.rejected > 0 { throw ExitCode(1) }
    }

    /// Commands handed to the ledger at once by ``applyEach(_:to:path:results:tally:)``: each
    /// is still its own atomic batch (`Ledger.execute(each:)`), but the frames of one window
    /// share one `fdatasync`, so a file costs about one sync per window instead of one per
    /// line. Within `LedgerOptions.commandsPerBatchMax` (1000); at 512 the sync is a small
    /// share of a window's time, and a window's results wait for stdout no longer than that.
    static let readAheadCommandsMax = 512

    /// One batch per command, in file order, read ahead in windows of
    /// ``readAheadCommandsMax`` commands; a rejected command does not stop the ones after it,
    /// and neither does a stdout that cannot be written (`results` keeps count). Any other
    /// failure stops at that command, after the lines of the ones before it.
    private func applyEach(
        _ parsed: [(line: Int, command: Command)], to ledger: Ledger, path: String, results: inout ResultLines, tally: inout ApplyCounts
    ) async throws {
        var windowStart = parsed.startIndex
        while windowStart < parsed.endIndex {
            let window = parsed[windowStart..<min(windowStart + Self.readAheadCommandsMax, parsed.endIndex)]
            windowStart = window.endIndex
            let outcomes: [Result<[EventPosition], LedgerError>]
            do {
                outcomes = try await ledger.execute(each: window.map(\.command))
            } catch {
                throw CLIError.ledger(error, at: path)
            }
            for ((line, _), outcome) in zip(window, outcomes) {
                switch outcome {
                case .success(let positions):
                    tally.applied += 1
                    results.line(Self.ok(line: line, positions))
                case .failure(let error):
                    guard case .rejected = error else { throw CLIError.ledger(error, at: path) }
                    tally.rejected += 1
                    results.line(Self.rejected(line: line, error))
                }
            }
            // The ledger lists fewer outcomes only after a failure, which threw above.
            guard outcomes.count == window.count else {
                throw CLIError("\(path): the ledger executed \(outcomes.count) of \(window.count) commands from line \(window.first?.line ?? 0) without saying why")
            }
        }
    }

    /// One batch for the whole file; on a rejection nothing is appended and the rejection names
    /// the command at fault (`RuleViolation.commandIndex`).
    private func applyAtomically(
        _ parsed: [(line: Int, command: Command)], to ledger: Ledger, path: String, results: inout ResultLines, tally: inout ApplyCounts
    ) async throws {
        guard !parsed.isEmpty else { return }
        do {
            let positions = try await ledger.execute(parsed.map(\.command))
            tally.applied = parsed.count
            for (line, command) in parsed {
                results.line(Self.ok(line: line, positions.filter { $0.commandID == command.commandID }))
            }
        } catch {
            guard case .rejected(let violation) = error, parsed.indices.contains(violation.commandIndex) else {
                throw CLIError.ledger(error, at: path)
            }
            tally.rejected = 1
            let culprit = parsed[violation.commandIndex].line
            for (line, _) in parsed where line != culprit {
                results.line(CanonicalJSON.text(orderedMembers: [("line", .integer(Int64(line))), ("status", .string("notApplied"))]))
            }
            results.line(Self.rejected(line: culprit, error))
            Terminal.error("tally: \(file): nothing applied (--atomic): line \(culprit): \(error.description)")
        }
    }

    /// The commands of a JSON Lines file with their line numbers; each line that does not
    /// parse is counted and answered with its `invalid` result line.
    static func parse(_ bytes: [UInt8], results: inout ResultLines, counts: inout ApplyCounts) -> [(line: Int, command: Command)] {
        let lines = CommandParser.commandLines(in: bytes)
        counts.commands += lines.count
        var parsed: [(line: Int, command: Command)] = []
        for (number, line) in lines {
            do {
                parsed.append((number, try CommandParser.parse(lineBytes: line)))
            } catch {
                counts.invalid += 1
                results.line(invalid(line: number, error))
            }
        }
        return parsed
    }

    /// What happened to the commands of the file, for the message of a lost stdout.
    struct ApplyCounts {
        var commands: Int
        var applied = 0
        var rejected = 0
        var invalid = 0

        /// `all 69 commands were applied; see `tally log --ledger DIR``, or the counts when
        /// some were not.
        func outcome(ledger: String) -> String {
            let applied = applied == commands
                ? "all \(commands) command\(commands == 1 ? " was" : "s were") applied"
                : "\(self.applied) of \(commands) commands were applied, \(rejected) rejected, \(invalid) invalid"
            return "\(applied); see `tally log --ledger \(ledger)`"
        }
    }

    /// The command file's bytes, undecoded: `CommandParser.parse(lineBytes:)` validates each
    /// line's UTF-8 and reports a bad byte with its line and column (never U+FFFD).
    static func read(_ file: String) throws -> [UInt8] {
        if file == "-" {
            return try StandardInput.readAll()
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw CLIError("\(file): cannot read the command file")
        }
        return Array(data)
    }

    /// `{"line":...,"status":"ok","sequenceNumbers":[...]}`.
    static func ok(line: Int, _ positions: [EventPosition]) -> String {
        ok(line: line, sequenceNumbers: positions.map(\.sequenceNumber))
    }

    /// `{"line":...,"status":"ok","sequenceNumbers":[...]}`.
    static func ok(line: Int, sequenceNumbers: [UInt64]) -> String {
        CanonicalJSON.text(orderedMembers: [
            ("line", .integer(Int64(line))), ("status", .string("ok")),
            ("sequenceNumbers", .array(sequenceNumbers.map { .integer(Int64($0)) })),
        ])
    }

    /// `{"line":...,"status":"rejected","code":...,"rule":...,"message":...}`.
    static func rejected(line: Int, _ error: LedgerError) -> String {
        rejected(line: line, code: error.code, rule: error.rule, message: error.message)
    }

    /// `{"line":...,"status":"rejected","code":...,"rule":...,"message":...}`; a refusal that names
    /// no rule (a sync server's `actorNotDevicePerson`) has `"rule":null`.
    static func rejected(line: Int, code: String, rule: String?, message: String) -> String {
        CanonicalJSON.text(orderedMembers: [
            ("line", .integer(Int64(line))), ("status", .string("rejected")), ("code", .string(code)),
            ("rule", CanonicalJSON(rule)), ("message", .string(message)),
        ])
    }

    /// `{"line":...,"status":"invalid","code":...,"field":...[,"column":...],"message":...}`.
    static func invalid(line: Int, _ error: CommandParseError) -> String {
        var members: [(key: String, value: CanonicalJSON)] = [
            ("line", .integer(Int64(line))), ("status", .string("invalid")), ("code", .string(error.code.rawValue)),
            ("field", CanonicalJSON(error.field)),
        ]
        if let column = error.column { members.append(("column", .integer(Int64(column)))) }
        members.append(("message", .string(error.message)))
        return CanonicalJSON.text(orderedMembers: members)
    }
}
