import Foundation
import Tally
import TallyJournal
import TallyModel
import TallyServer

/// A device's side of sync (Docs/Sync.md, "Devices"): its ledger holds the household's confirmed
/// history, the server's records in the server's order, and its commands go through the server.
///
/// ``execute(_:)`` validates a command on the device (with its strings, so every rule on a
/// text's content runs here), seals the texts it enters with their owners' keys, pushes the
/// command's push form with them, then pulls: the command's events come back as the server
/// committed them, with whatever the household's other devices pushed before it. A rejection
/// is thrown as the engine's typed `LedgerError.rejected`, whichever side found it.
///
/// Built so far: online only. A command is confirmed before ``execute(_:)`` returns; the
/// durable outbox of commands made offline, shown on top of the confirmed state and rebased on
/// a pull, is not built yet (Docs/Sync.md, "Still to build").
public actor SyncDevice {
    /// The device's ledger: read it as any ledger; write to it only through this device.
    public let ledger: Ledger
    private let transport: any SyncTransport
    /// Where the confirmed history ends: sequence number and record chain.
    private var end: SyncRecords.End
    /// One push or pull at a time: each continues from where the one before left ``end``.
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// The sync side of `ledger` (its journal holds only history confirmed by the server, from
    /// the household's first record), reaching its server through `transport`. Reads the
    /// journal once, a frame at a time, to compute where its record chain ends.
    public init(ledger: Ledger, transport: any SyncTransport) async throws {
        self.ledger = ledger
        self.transport = transport
        let end = try await ledger.recordChainEnd()
        self.end = SyncRecords.End(sequenceNumber: end.sequenceNumber, chain: end.chain)
    }

    /// The last sequence number the server confirmed to this device.
    public var confirmedSequenceNumber: UInt64 { end.sequenceNumber }

    /// Executes `command` through the server and returns the sequence numbers of its events,
    /// once they are in this device's ledger. Retrying a command (same id) after an error is
    /// safe: the server answers a command it holds with its stored outcome, and a command this
    /// device already holds returns where it is.
    /// - Throws: `LedgerError.rejected` when the command breaks a rule (on the device, or on the
    ///   server against a history that moved on); ``SyncError/refused(code:message:)`` when the
    ///   server refused it unread; what the transport throws (retry: a push is idempotent by
    ///   command id); ``SyncError/historyInvalid(_:)`` when what the server sent does not verify.
    @discardableResult
    public func execute(_ command: Command) async throws -> ClosedRange<UInt64> {
        await acquire()
        defer { release() }
        // A retry of a push whose answer was lost, after a pull brought the command: it was
        // accepted, and executing it again here would be duplicateCommandID.
        if let executed = try await ledger.sequenceNumbers(ofCommand: command.commandID) { return executed }
        let texts = try await ledger.sealedTexts(of: command)
        let push = PushedCommand(pushing: command, texts: texts)
        let outcomes = try await transport.push([SubmittedCommand(commandID: command.commandID.uuid, body: push.body)])
        guard outcomes.count == 1, let outcome = outcomes.first else {
            throw SyncError.transport("the server answered one push with \(outcomes.count) outcomes")
        }
        try await pullFrames(waitMilliseconds: 0)
        switch outcome {
        case .accepted(let first, let last):
            return first...last
        case .rejected(let code, let message):
            if let rule = RuleViolation.Code(rawValue: code) {
                throw LedgerError.rejected(RuleViolation(code: rule, message: message))
            }
            throw SyncError.refused(code: code, message: message)
        }
    }

    /// Appends what the server committed since this device's last confirmed record, checking
    /// that every frame continues the history (sequence numbers and chain) before anything of
    /// it is written. Returns how many records were appended.
    /// - Parameter waitMilliseconds: when nothing is new, wait up to this long for the
    ///   household's other devices (long poll); 0 answers at once.
    @discardableResult
    public func pull(waitMilliseconds: Int = 0) async throws -> UInt64 {
        await acquire()
        defer { release() }
        return try await pullFrames(waitMilliseconds: waitMilliseconds)
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
