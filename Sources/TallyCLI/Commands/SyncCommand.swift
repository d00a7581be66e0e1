import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SystemPackage
import Tally
import TallyServer
import TallySync
import TallySyncHTTP
import TallySyncHTTPServer
import TallySyncServer
import TallySyncWire

/// `tally sync`: a device's ledger through `tally serve` (Docs/Sync.md): `run` (the default)
/// records commands in the device's outbox, pushes the outbox and pulls what the household's
/// other devices pushed; `invite` makes an invitation for a new device; `join` sets a new
/// device up from one.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync this device's ledger through `tally serve`; invite a new device; join a household from an invitation.",
        subcommands: [SyncRunCommand.self, SyncInviteCommand.self, SyncJoinCommand.self],
        defaultSubcommand: SyncRunCommand.self)
}

/// `tally sync [run]`: push the outbox (with `--push`'s commands recorded in it first), then pull.
struct SyncRunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Sync this device's ledger through `tally serve`: record a command file in the outbox (optional), push the outbox, then pull.",
        discussion: "Each command of --push prints one JSON result line as `tally apply` does: ok (its sequence numbers are the server's), rejected, invalid, or pending (in the outbox: --offline, or the server could not be reached). Outbox commands of earlier runs that the server answers print a line with their commandID instead of a line number. Exit 0 when every command was accepted or is pending, 1 when any was invalid or rejected, 2 when it could not run (the server unreachable: the outbox keeps the commands; run `tally sync` again).")

    @OptionGroup var location: LedgerOption
    @OptionGroup var key: KeyOptions

    @Option(help: ArgumentHelp("The server's address, e.g. http://127.0.0.1:8080 (not needed with --offline).", valueName: "URL"))
    var server: String?

    @Option(name: .customLong("token-file"), help: ArgumentHelp("A file holding this device's token (from `tally sync join` or `tally serve device`; not needed with --offline).", valueName: "FILE"))
    var tokenFile: String?

    @Option(help: ArgumentHelp("JSON Lines commands to record in the outbox, or - for stdin (Docs/Commands.md); the actor of each must be this device's person.", valueName: "FILE"))
    var push: String?

    @Flag(help: "Record the --push commands in the outbox only: do not reach the server.")
    var offline = false

    @Option(help: ArgumentHelp("After pushing, wait up to this long for the household's other devices (long poll).", valueName: "MILLISECONDS"))
    var wait = 0

    func validate() throws {
        guard (0...SyncBounds.waitMillisecondsMax).contains(wait) else {
            throw ValidationError("--wait must be 0...\(SyncBounds.waitMillisecondsMax) milliseconds, not \(wait)")
        }
        if !offline, server == nil || tokenFile == nil {
            throw ValidationError("--server and --token-file are needed unless --offline")
        }
        if offline, server != nil || tokenFile != nil || wait != 0 {
            throw ValidationError("--offline reaches no server: drop --server, --token-file and --wait")
        }
    }

    /// The longest token file read (a token is 43 characters).
    static let tokenFileBytesMax = 4_096

    func run() async throws {
        let path = try location.path()
        let transport: any SyncTransport = if let server, let tokenFile {
            HTTPSyncTransport(server: server, token: try Self.token(in: tokenFile))
        } else {
            SyncOfflineTransport()
        }
        var results = ResultLines()
        var counts = ApplyCommand.ApplyCounts(commands: 0)
        let parsed = try push.map { ApplyCommand.parse(try ApplyCommand.read($0), results: &results, counts: &counts) } ?? []
        let ledger = try await LedgerAccess.open(at: path, create: true, encryption: try key.encryption(), chainKey: try key.chainKey())
        do {
            let device = try await SyncDevice(ledger: ledger, transport: transport)
            // Online, the commands are validated against the household's latest history: what
            // another device pushed (a wallet it opened) may be what they need. Unreachable, they
            // are validated against what this device holds, as --offline.
            if !offline, !parsed.isEmpty { _ = try? await device.pull() }
            var submitted: [(line: Int, commandID: CommandID)] = []
            var printedRejections: [CommandID] = []
            for (line, command) in parsed {
                do {
                    try await device.submit(command)
                    submitted.append((line, command.commandID))
                } catch {
                    switch error {
                    case let error as LedgerError:
                        guard case .rejected = error else { throw CLIError.ledger(error, at: path) }
                        results.line(ApplyCommand.rejected(line: line, error))
                    case SyncError.refused(let code, let message):
                        results.line(ApplyCommand.rejected(line: line, code: code, rule: nil, message: message))  // actorNotDevicePerson
                    default:
                        throw error
                    }
                    counts.rejected += 1
                    // The server's stored rejection of an earlier run, printed now.
                    if case .rejected = try await device.status(of: command.commandID) { printedRejections.append(command.commandID) }
                }
            }
            var report = SyncDevice.Report()
            var failure: (any Error)?
            if !offline {
                do {
                    report = try await device.sync(waitMilliseconds: wait)
                } catch {
                    failure = error  // the outbox kept every answer: the lines below come from it
                }
            }
            // Each command of this run where it stands, whatever part of the sync failed.
            for (line, commandID) in submitted {
                switch try await device.status(of: commandID) {
                case .confirmed(let range), .accepted(let range):
                    counts.applied += 1
                    results.line(ApplyCommand.ok(line: line, sequenceNumbers: Array(range)))
                case .rejected(let rejection):
                    counts.rejected += 1
                    results.line(Self.rejected(rejection, line: line))
                    printedRejections.append(commandID)
                case .pending, .unknown:
                    results.line(Self.pending(line: line, commandID))
                }
            }
            // Outbox commands of earlier runs: accepted now, or rejected (now or in a run whose
            // pull failed) and not printed yet.
            let fromThisRun = Set(parsed.map(\.command.commandID))
            for (commandID, range) in report.accepted.sorted(by: { $0.value.lowerBound < $1.value.lowerBound }) where !fromThisRun.contains(commandID) {
                results.line(CanonicalJSON.text(orderedMembers: [
                    ("commandID", .string(commandID.description)), ("status", .string("ok")),
                    ("sequenceNumbers", .array(range.map { CanonicalJSON.integer(Int64($0)) })),
                ]))
            }
            for rejection in try await device.rejections() where !fromThisRun.contains(rejection.commandID) {
                counts.rejected += 1
                results.line(Self.rejected(rejection, line: nil))
                printedRejections.append(rejection.commandID)
            }
            // Printed: delivered to the user, unless stdout failed.
            if results.failure == nil {
                for commandID in printedRejections { try await device.dismissRejection(commandID) }
            }
            let waiting = await device.pendingCommandIDs.count
            if let failure {
                guard case SyncError.transport(let reason) = failure else { throw failure }
                try? await ledger.close()
                throw CLIError("\(server ?? ""): \(reason); \(waiting) command(s) wait in the outbox of \(path): run `tally sync` again")
            }
            Terminal.error("tally sync: \(path) holds the household's history through \(await device.confirmedSequenceNumber) (\(report.pulled) record(s) pulled); \(waiting) command(s) wait in its outbox")
        } catch let error as CLIError {
            try? await ledger.close()
            throw error
        } catch let error as SyncError {
            try? await ledger.close()
            throw CLIError("\(server ?? path): \(error)")
        } catch {
            try? await ledger.close()
            throw error
        }
        try await LedgerAccess.close(ledger, at: path)
        try results.requireDelivered(outcome: counts.outcome(ledger: path))
        if counts.invalid > 0 || counts.rejected > 0 { throw ExitCode(1) }
    }

    /// The device token in `file`: one line, as `tally serve device` prints it.
    static func token(in file: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: file), data.count <= Self.tokenFileBytesMax,
              let token = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines), !token.isEmpty
        else {
            throw CLIError("\(file): cannot read a device token (one line, as `tally sync join` writes it or `tally serve device` prints it)")
        }
        return token
    }

    /// `{"line":...,"status":"pending","commandID":...}`: in the outbox, not answered yet.
    static func pending(line: Int, _ commandID: CommandID) -> String {
        CanonicalJSON.text(orderedMembers: [
            ("line", .integer(Int64(line))), ("status", .string("pending")), ("commandID", .string(commandID.description)),
        ])
    }

    /// A rejection's line: apply's form for a command of this run; with its `commandID` in place
    /// of a line for one of an earlier run.
    static func rejected(_ rejection: SyncDevice.Rejection, line: Int?) -> String {
        let rule = (rejection.error as? LedgerError)?.rule
        guard let line else {
            return CanonicalJSON.text(orderedMembers: [
                ("commandID", .string(rejection.commandID.description)), ("status", .string("rejected")), ("code", .string(rejection.code)),
                ("rule", CanonicalJSON(rule)), ("message", .string(rejection.message)),
            ])
        }
        return ApplyCommand.rejected(line: line, code: rejection.code, rule: rule, message: rejection.message)
    }
}

/// `tally sync invite`: an invitation for a new device of the household (Docs/Sync.md, "Joining
/// a household"), printed as one line to hand to that device.
struct SyncInviteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invite",
        abstract: "Make an invitation for a new device acting for --person (default: this device's person).",
        discussion: "Prints `tally-invitation-1:<code>:<secret>` on one line: give it to the new device over a channel the server does not see (it holds the household's secret, which the server never receives), for `tally sync join`. The code works once. For the invitee of a pending household invitation (`inviteMember`, synced; asked by the admin) it holds until that invitation expires, and the new device accepts it when it joins; for an active member (asked by themselves or the admin), 7 days. Cancelling the invitation, removing or forgetting the person withdraws the code.")

    @OptionGroup var location: LedgerOption
    @OptionGroup var key: KeyOptions

    @Option(help: ArgumentHelp("The server's address, e.g. http://127.0.0.1:8080.", valueName: "URL"))
    var server: String

    @Option(name: .customLong("token-file"), help: ArgumentHelp("A file holding this device's token.", valueName: "FILE"))
    var tokenFile: String

    @Option(help: ArgumentHelp("The person the new device acts for: a pending invitation's invitee or an active member; default this device's person.", valueName: "ID"))
    var person: String?

    func run() async throws {
        let path = try location.path()
        let personID = try person.map { text in
            do {
                return try PersonID(parsing: text)
            } catch {
                throw ValidationError("--person must be a person's id (a UUID), not \(text)")
            }
        }
        let transport = HTTPSyncTransport(server: server, token: try SyncRunCommand.token(in: tokenFile))
        guard FileManager.default.fileExists(atPath: LedgerDirectory(FilePath(path)).syncOutbox.string) else {
            throw CLIError("\(path) is not a synced device's ledger (it has no \(LedgerDirectory.syncOutboxName)): invite from a device set up with `tally sync` or `tally sync join`")
        }
        let ledger = try await LedgerAccess.open(at: path, create: false, encryption: try key.encryption(), chainKey: try key.chainKey())
        let made: (invitation: SyncInvitation, expiresAt: Timestamp)
        do {
            let device = try await SyncDevice(ledger: ledger, transport: transport)
            made = try await device.invite(for: personID)
            try await device.close()
        } catch {
            try? await ledger.close()
            throw CLIError("\(server): the invitation cannot be made: \(error)")
        }
        var results = ResultLines()
        results.line(made.invitation.text)
        try results.requireDelivered(outcome: "an invitation was made, but it is shown only once: make another")
        Terminal.error("tally sync invite: valid once, until \(made.expiresAt); give it to the new device for `tally sync join`")
    }
}

/// `tally sync join`: a new device joins its household from an invitation (Docs/Sync.md,
/// "Joining a household"): registered with the server, given the household's keys and history,
/// and, for a new member, accepting the household invitation.
struct SyncJoinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join",
        abstract: "Set a new device up from an invitation (`tally sync invite`): register it, save its token, pull the household's history.",
        discussion: "The ledger folder must be new. Only the invitation's code goes to the server; its household secret stays on the device (it opens the people's text keys). For a new member's device, the household invitation is accepted as its last step (acceptInvitation). Prints one JSON line: {\"status\":\"joined\",\"householdID\",\"personID\",\"deviceID\",\"through\":N} and, for a new member, \"invitationID\" and \"acceptedAt\": the sequence numbers of the acceptance.")

    @OptionGroup var location: LedgerOption
    @OptionGroup var key: KeyOptions

    @Option(help: ArgumentHelp("The server's address, e.g. http://127.0.0.1:8080.", valueName: "URL"))
    var server: String

    @Option(name: .customLong("invitation-file"), help: ArgumentHelp("A file holding the invitation (one line from `tally sync invite`), or - for stdin.", valueName: "FILE"))
    var invitationFile: String

    @Option(name: .customLong("token-file"), help: ArgumentHelp("Where to save this device's token (a new file, mode 0600).", valueName: "FILE"))
    var tokenFile: String

    func run() async throws {
        let path = try location.path()
        let text = try String(decoding: ApplyCommand.read(invitationFile), as: UTF8.self)
        let invitation: SyncInvitation
        do {
            invitation = try SyncInvitation(text: text)
        } catch {
            throw CLIError("\(invitationFile): \(error)")
        }
        let folderExisted = FileManager.default.fileExists(atPath: path)
        guard !folderExisted || (try? FileManager.default.contentsOfDirectory(atPath: path))?.isEmpty == true else {
            throw CLIError("\(path) holds a ledger already, or other files: a device joins into a new (or empty) ledger folder")
        }
        // The token file exists before the server makes the token (shown once), and the ledger
        // and its outbox hold the household's secret before the code is spent.
        let descriptor = Glibc.open(tokenFile, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CLIError("\(tokenFile): cannot create the token file (\(String(cString: strerror(errno)))); give a path where no file is, in a folder that exists")
        }
        let tokenFileHandle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        /// Leaves nothing of a join that did not happen: the token file, and what the ledger
        /// folder holds (the folder too when this command made it; it was empty otherwise).
        func undo(_ ledger: Ledger?) async {
            try? tokenFileHandle.close()
            try? FileManager.default.removeItem(atPath: tokenFile)
            try? await ledger?.close()
            if folderExisted {
                for item in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                    try? FileManager.default.removeItem(atPath: path + "/" + item)
                }
            } else {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
        let ledger: Ledger
        do {
            ledger = try await LedgerAccess.open(at: path, create: true, encryption: try key.encryption(), chainKey: try key.chainKey())
        } catch {
            await undo(nil)
            throw error
        }
        var members: [(String, CanonicalJSON)] = []
        do {
            let joined: JoinedDevice
            do {
                try await SyncDevice.prepareToJoin(ledger, householdSecret: invitation.householdSecret)
                joined = try await HTTPSyncTransport.join(server: server, invitation: invitation)
            } catch {
                await undo(ledger)
                throw CLIError("\(server): cannot join: \(error)")
            }
            do {
                try tokenFileHandle.write(contentsOf: Data((joined.token + "\n").utf8))
                try tokenFileHandle.synchronize()
                try tokenFileHandle.close()
            } catch {
                await undo(ledger)
                throw CLIError("\(tokenFile): the device joined, but its token (shown once) could not be saved: \(error); nothing of it was kept here: ask for a new invitation")
            }
            members = [
                ("status", .string("joined")), ("householdID", .string(joined.device.householdID.uuidString.lowercased())),
                ("personID", .string(joined.device.personID.uuidString.lowercased())),
                ("deviceID", .string(joined.device.deviceID.uuidString.lowercased())),
            ]
            do {
                let device = try await SyncDevice(ledger: ledger, transport: HTTPSyncTransport(server: server, token: joined.token))
                try await device.sync()
                members.append(("through", .integer(Int64(clamping: await device.confirmedSequenceNumber))))
                if let invitationID = joined.invitationID {
                    let accept = Command(
                        commandID: .random(), actor: PersonID(joined.device.personID), recordedAt: .now(),
                        action: .acceptInvitation(invitationID: InvitationID(invitationID)))
                    let range = try await device.execute(accept)
                    members.append(("invitationID", .string(invitationID.uuidString.lowercased())))
                    members.append(("acceptedAt", .array(range.map { CanonicalJSON.integer(Int64(clamping: $0)) })))
                }
            } catch {
                let accept = joined.invitationID.map { " and accept invitation \($0.uuidString.lowercased()) with an acceptInvitation command (`tally sync --push`)" } ?? ""
                throw CLIError("\(server): the device joined (its token is in \(tokenFile)) but did not finish: \(error); run `tally sync --ledger \(path) --server \(server) --token-file \(tokenFile)`\(accept)")
            }
        } catch {
            try? tokenFileHandle.close()
            try? await ledger.close()
            throw error
        }
        try await LedgerAccess.close(ledger, at: path)
        var results = ResultLines()
        results.line(CanonicalJSON.text(orderedMembers: members))
        try results.requireDelivered(outcome: "the device joined its household (its token is in \(tokenFile))")
    }
}
