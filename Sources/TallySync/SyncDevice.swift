import Foundation
import Tally
import TallyJournal
import TallyModel
import TallyProjections
import TallyServer
import TallyStore

/// A device's side of sync (Docs/Sync.md, "Devices"): its ledger holds the household's confirmed
/// history, the server's records in the server's order, and its commands wait in a durable
/// outbox until the server answers them.
///
/// Local first: ``submit(_:)`` validates a command on the device against the confirmed state
/// with the outbox on top, seals the texts it enters with their owners' keys and records it in
/// the outbox (`sync-outbox.sqlite` in the ledger folder, synced before it returns), with or
/// without a network. ``read(_:)`` shows the confirmed read models with the outbox applied on
/// top. ``sync(waitMilliseconds:)`` pushes the outbox in order and pulls: each command is
/// accepted (its events come back in the household's history, and it leaves the outbox) or
/// rejected with the rule it breaks (it leaves the outbox for ``rejections()``, until the app
/// dismisses it). Nothing is rewritten on a pull: the confirmed journal only grows, and the
/// outbox is applied on top of it again at the next read (O(pending)).
///
/// ``execute(_:)`` is both at once, for a device that is online.
public actor SyncDevice {
    /// The device's ledger: read it as any ledger (it shows confirmed history only); its
    /// commands go through this device (a command executed on it directly is refused with
    /// `LedgerError.syncedLedger`).
    public nonisolated let ledger: Ledger
    private let transport: any SyncTransport
    private let outbox: SyncOutboxStore
    /// The outbox's commands, in order, decoded once: O(pending) in memory.
    private var pending: [(position: Int64, push: PushedCommand)]
    /// Commands the server accepted whose events this device has not pulled yet (a pull failed
    /// after the push): submitting one again does nothing. In memory: after a restart such a
    /// command is validated and pushed again, and the server answers it with its stored outcome.
    private var acceptedAwaitingPull: [CommandID: ClosedRange<UInt64>] = [:]
    /// Where the confirmed history ends: sequence number and record chain.
    private var end: SyncRecords.End
    /// One submit, push or pull at a time: each continues from where the one before left.
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// The most outbox commands one push carries.
    public static let commandsPerPushMax = 100

    /// The sync side of `ledger` (its journal holds only history confirmed by the server, from
    /// the household's first record), reaching its server through `transport`. Opens the
    /// ledger's outbox, creating it when new (which marks the ledger as synced), and reads the
    /// journal once, a frame at a time, to compute where its record chain ends.
    /// - Throws: `LedgerError.syncedLedger` when the outbox cannot be opened;
    ///   ``SyncError/commandInvalid(_:)`` for an outbox entry that does not decode.
    public init(ledger: Ledger, transport: any SyncTransport) async throws {
        self.ledger = ledger
        self.transport = transport
        let end = try await ledger.recordChainEnd()
        self.end = SyncRecords.End(sequenceNumber: end.sequenceNumber, chain: end.chain)
        outbox = try await ledger.openSyncOutbox()
        pending = try outbox.pending().map { entry in (entry.position, try PushedCommand(body: entry.body)) }
    }

    /// The last sequence number the server confirmed to this device.
    public var confirmedSequenceNumber: UInt64 { end.sequenceNumber }

    /// The ids of the commands in the outbox, in the order they were made.
    public var pendingCommandIDs: [CommandID] { pending.map(\.push.command.commandID) }

    /// What one ``sync(waitMilliseconds:)`` learned.
    public struct Report: Sendable, Equatable {
        /// Commands of the outbox the server accepted, with the sequence numbers of their events.
        public var accepted: [CommandID: ClosedRange<UInt64>] = [:]
        /// Commands of the outbox the server rejected, in outbox order.
        public var rejected: [Rejection] = []
        /// How many records the pull appended.
        public var pulled: UInt64 = 0

        public init() {}
    }

    /// A command the server rejected: the rule it breaks, kept until the app dismisses it.
    public struct Rejection: Sendable, Equatable {
        public var commandID: CommandID
        /// The rule's code (`RuleViolation.Code`), or a refusal's (`actorNotDevicePerson`,
        /// `commandInvalid`).
        public var code: String
        public var message: String

        /// The engine's error for it: `LedgerError.rejected` for a rule, else ``SyncError/refused(code:message:)``.
        public var error: any Error {
            if let rule = RuleViolation.Code(rawValue: code) { return LedgerError.rejected(RuleViolation(code: rule, message: message)) }
            return SyncError.refused(code: code, message: message)
        }
    }

    /// Records `command` in the outbox, durably, whether or not the server can be reached: it
    /// is validated on the device against the confirmed state with the outbox on top (with its
    /// strings, so every rule on a text's content runs here), and the texts it enters are
    /// sealed with their owners' keys (a new key is durable first, P2). Submitting a command
    /// already in the outbox or in the confirmed history does nothing.
    /// - Throws: `LedgerError.rejected` when it breaks a rule here (nothing is recorded); the
    ///   stored rejection's error when the server rejected it before (``Rejection/error``);
    ///   `LedgerError.syncedLedger` when the outbox cannot be written.
    public func submit(_ command: Command) async throws {
        await acquire()
        defer { release() }
        try await enqueue(command)
    }

    /// Pushes the outbox, in order, then pulls what the household's devices committed since this
    /// device's last confirmed record, checking that every frame continues the history
    /// (sequence numbers and chain) before anything of it is written. The server's answers are
    /// recorded in the outbox before the pull, so a failed pull loses none.
    /// - Parameter waitMilliseconds: when nothing is new, wait up to this long for the
    ///   household's other devices (long poll); 0 answers at once.
    /// - Throws: what the transport throws (the outbox keeps what was not answered: sync again);
    ///   ``SyncError/historyInvalid(_:)`` when what the server sent does not verify.
    @discardableResult
    public func sync(waitMilliseconds: Int = 0) async throws -> Report {
        await acquire()
        defer { release() }
        var report = Report()
        try await push(into: &report)
        report.pulled = try await pullFrames(waitMilliseconds: waitMilliseconds)
        return report
    }

    /// Submits `command` and syncs: for a device that is online. Returns the sequence numbers of
    /// its events once they are in this device's ledger. Retrying a command (same id) after an
    /// error is safe: it is in the outbox, and the server answers a command it holds with its
    /// stored outcome.
    /// - Throws: `LedgerError.rejected` when the command breaks a rule (on the device, or on the
    ///   server against a history that moved on); ``SyncError/refused(code:message:)`` when the
    ///   server refused it unread; what the transport throws (the command stays in the outbox);
    ///   ``SyncError/historyInvalid(_:)`` when what the server sent does not verify.
    @discardableResult
    public func execute(_ command: Command) async throws -> ClosedRange<UInt64> {
        await acquire()
        defer { release() }
        try await enqueue(command)
        var report = Report()
        try await push(into: &report)
        try await pullFrames(waitMilliseconds: 0)
        if let range = report.accepted[command.commandID] { return range }
        if let rejection = report.rejected.first(where: { $0.commandID == command.commandID }) {
            _ = try dismiss(rejection.commandID)  // delivered to its caller as the error
            throw rejection.error
        }
        if let range = try await ledger.sequenceNumbers(ofCommand: command.commandID) { return range }
        throw SyncError.transport("command \(command.commandID) is still in the outbox; sync again")
    }

    /// Pulls without pushing: see ``sync(waitMilliseconds:)``. Returns how many records were appended.
    @discardableResult
    public func pull(waitMilliseconds: Int = 0) async throws -> UInt64 {
        await acquire()
        defer { release() }
        return try await pullFrames(waitMilliseconds: waitMilliseconds)
    }

    /// Runs `body` with the read models this device shows: the confirmed history's, with the
    /// outbox's commands applied on top in order (their texts opened with this device's keys).
    /// An outbox command that no longer applies on the confirmed state (another device changed
    /// what it edits) is left out; the server will answer it. Costs O(pending) per read.
    public func read<Value: Sendable>(_ body: @Sendable (Projections) -> Value) async throws -> Value {
        try await ledger.readPending(pendingCommands, body).value
    }

    /// The rejections the server answered that the app has not dismissed.
    public func rejections() throws -> [Rejection] {
        try outbox.rejections().map { stored in
            Rejection(commandID: try CommandID(parsing: stored.commandID), code: stored.code, message: stored.message)
        }
    }

    /// Forgets a rejection the app has shown. Returns whether there was one.
    @discardableResult
    public func dismissRejection(_ commandID: CommandID) throws -> Bool {
        try dismiss(commandID)
    }

    private func dismiss(_ commandID: CommandID) throws -> Bool {
        try outbox.dismiss(commandID: commandID.description)
    }

    // MARK: - Under the lock

    /// The outbox as the engine applies it.
    private var pendingCommands: [PendingCommand] { pending.map { (command: $0.push.command, texts: $0.push.texts) } }

    private func enqueue(_ command: Command) async throws {
        if pending.contains(where: { $0.push.command.commandID == command.commandID }) || acceptedAwaitingPull[command.commandID] != nil { return }
        if try await ledger.sequenceNumbers(ofCommand: command.commandID) != nil { return }
        if let rejection = try rejections().first(where: { $0.commandID == command.commandID }) { throw rejection.error }
        let texts = try await ledger.sealedTexts(of: command, after: pendingCommands)
        let push = PushedCommand(pushing: command, texts: texts)
        let position: Int64
        do {
            position = try outbox.append(commandID: command.commandID.description, body: push.body)
        } catch {
            throw LedgerError.syncedLedger("the sync outbox cannot record command \(command.commandID): \(error); nothing was recorded")
        }
        pending.append((position, push))
    }

    /// Pushes the outbox in pages, recording each page's answers before the next: accepted
    /// commands leave it, rejected ones move to the rejections. A command the ledger already
    /// holds (its answer was lost, a pull brought it) leaves it without a push.
    private func push(into report: inout Report) async throws {
        var held: [String] = []
        for entry in pending {
            let id = entry.push.command.commandID
            if let range = try await ledger.sequenceNumbers(ofCommand: id) {
                report.accepted[id] = range
                held.append(id.description)
            }
        }
        try resolve(accepted: held, rejected: [])
        while !pending.isEmpty {
            let page = Array(pending.prefix(Self.commandsPerPushMax))
            let outcomes = try await transport.push(page.map { SubmittedCommand(commandID: $0.push.command.commandID.uuid, body: $0.push.body) })
            guard outcomes.count == page.count else {
                throw SyncError.transport("the server answered a push of \(page.count) command(s) with \(outcomes.count) outcome(s)")
            }
            var accepted: [String] = []
            var rejected: [SyncOutboxStore.Rejection] = []
            for (entry, outcome) in zip(page, outcomes) {
                let id = entry.push.command.commandID
                switch outcome {
                case .accepted(let first, let last):
                    report.accepted[id] = first...last
                    acceptedAwaitingPull[id] = first...last
                    accepted.append(id.description)
                case .rejected(let code, let message):
                    report.rejected.append(Rejection(commandID: id, code: code, message: message))
                    rejected.append(SyncOutboxStore.Rejection(commandID: id.description, body: entry.push.body, code: code, message: message))
                }
            }
            try resolve(accepted: accepted, rejected: rejected)
        }
    }

    /// Records answers in the outbox, then drops them from memory.
    private func resolve(accepted: [String], rejected: [SyncOutboxStore.Rejection]) throws {
        guard !accepted.isEmpty || !rejected.isEmpty else { return }
        do {
            try outbox.resolve(accepted: accepted, rejected: rejected)
        } catch {
            throw LedgerError.syncedLedger("the sync outbox cannot record the server's answers: \(error); sync again (the server answers them again)")
        }
        let answered = Set(accepted + rejected.map(\.commandID))
        pending.removeAll { answered.contains($0.push.command.commandID.description) }
    }

    private func pullFrames(waitMilliseconds: Int) async throws -> UInt64 {
        let start = end.sequenceNumber
        var wait = waitMilliseconds
        while true {
            let frames = try await transport.pull(after: end.sequenceNumber, chain: end.chain.bytes, limit: SyncServer.framesPerPageMax, waitMilliseconds: wait)
            wait = 0
            guard frames.count <= SyncServer.framesPerPageMax else {
                throw SyncError.historyInvalid("the server answered a pull of at most \(SyncServer.framesPerPageMax) frames with \(frames.count)")
            }
            let verified = try SyncRecords.verify(frames, after: end)
            guard let reached = verified.last?.end else { break }
            do {
                try await ledger.appendConfirmed(verified.map(\.records), after: end.sequenceNumber)
            } catch {
                // The frames before the failing one are appended: continue from there.
                let last = await ledger.lastSequenceNumber
                if let appended = verified.last(where: { $0.end.sequenceNumber == last }) { end = appended.end }
                throw error
            }
            end = reached
        }
        acceptedAwaitingPull = acceptedAwaitingPull.filter { $0.value.upperBound > end.sequenceNumber }
        return end.sequenceNumber - start
    }

    private func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()  // the lock passes to the next waiter
        }
    }
}
