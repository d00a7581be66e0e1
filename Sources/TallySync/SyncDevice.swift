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
    private var sequenceNumber: UInt64
    private var chain: ChainValue

    /// How many frames one pull asks for at a time.
    private static let pullFramesMax = 256

    /// The sync side of `ledger` (its journal holds only history confirmed by the server, from
    /// the household's first record), reaching its server through `transport`. Reads the
    /// journal once to compute where its record chain ends.
    public init(ledger: Ledger, transport: any SyncTransport) async throws {
        self.ledger = ledger
        self.transport = transport
        var sequenceNumber: UInt64 = 0
        var chain = ChainValue.genesis
        for frame in try await ledger.journalFrames(from: 1) {
            chain = SyncRecords.chain(after: chain, records: SyncRecords.records(of: frame), from: frame.firstSequenceNumber)
            sequenceNumber = frame.lastSequenceNumber
        }
        self.sequenceNumber = sequenceNumber
        self.chain = chain
    }

    /// The last sequence number the server confirmed to this device.
    public var confirmedSequenceNumber: UInt64 { sequenceNumber }

    /// Executes `command` through the server and returns the sequence numbers of its events,
    /// once they are in this device's ledger.
    /// - Throws: `LedgerError.rejected` when the command breaks a rule (on the device, or on the
    ///   server against a history that moved on); ``SyncError/refused(code:message:)`` when the
    ///   server refused it unread; what the transport throws (retry: a push is idempotent by
    ///   command id); ``SyncError/historyInvalid(_:)`` when what the server sent does not verify.
    @discardableResult
    public func execute(_ command: Command) async throws -> ClosedRange<UInt64> {
        let texts = try await ledger.sealedTexts(of: command)
        let push = PushedCommand(pushing: command, texts: texts)
        let outcomes = try await transport.push([SubmittedCommand(commandID: command.commandID.value.uuid, body: push.body)])
        guard outcomes.count == 1, let outcome = outcomes.first else {
            throw SyncError.transport("the server answered one push with \(outcomes.count) outcomes")
        }
        try await pull()
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
    @discardableResult
    public func pull() async throws -> UInt64 {
        let start = sequenceNumber
        while true {
            let frames = try await transport.pull(after: sequenceNumber, limit: Self.pullFramesMax)
            guard !frames.isEmpty else { break }
            var verified: [[NewRecord]] = []
            var next = (sequenceNumber: sequenceNumber, chain: chain)
            for frame in frames {
                let records = try SyncRecords.decode(frame.records)
                guard frame.firstSequenceNumber == next.sequenceNumber + 1,
                      frame.lastSequenceNumber == next.sequenceNumber + UInt64(records.count)
                else {
                    throw SyncError.historyInvalid("the server's frame \(frame.firstSequenceNumber)...\(frame.lastSequenceNumber) with \(records.count) record(s) does not follow record \(next.sequenceNumber)")
                }
                let chain = SyncRecords.chain(after: next.chain, records: records, from: frame.firstSequenceNumber)
                guard chain.bytes == frame.chain else {
                    throw SyncError.historyInvalid("the chain after the server's record \(frame.lastSequenceNumber) does not match its records: the history was altered, or this device's ledger is not of this household")
                }
                verified.append(records)
                next = (frame.lastSequenceNumber, chain)
            }
            try await ledger.appendConfirmed(verified)
            (sequenceNumber, chain) = next
        }
        return sequenceNumber - start
    }
}
