import Foundation
import Synchronization
import TallyModel

/// Where the engine takes a command's envelope from when the app gives only the action and the
/// person (`Ledger.execute(_:as:)`): a new command id (G5: each command's own) and the time it
/// is recorded at (G3). The default is the host's clock and random ids; a test or a replayed
/// script sets ``deterministic(seed:startingAt:step:)`` so that its journal is the same each run.
/// The engine's folds never read it: the envelope is made before validation, as an app would.
public struct CommandEnvelopeSource: Sendable {
    /// The time a command made now is recorded at.
    public var now: @Sendable () -> Timestamp
    /// A new command id.
    public var newCommandID: @Sendable () -> CommandID

    public init(now: @escaping @Sendable () -> Timestamp, newCommandID: @escaping @Sendable () -> CommandID) {
        self.now = now
        self.newCommandID = newCommandID
    }

    /// The host's clock (`Timestamp.now()`) and random ids (`CommandID.random()`).
    public static let system = CommandEnvelopeSource(now: { Timestamp.now() }, newCommandID: { CommandID.random() })

    /// Ids from a `DeterministicIDGenerator` seeded with `seed`, and a clock that starts at
    /// `start` and advances `step` milliseconds per command: the same commands give the same
    /// journal every run.
    public static func deterministic(seed: UInt64, startingAt start: Timestamp, step: Int64 = 1) -> CommandEnvelopeSource {
        let state = Mutex((ids: DeterministicIDGenerator(seed: seed), next: start.millisecondsSinceEpoch))
        return CommandEnvelopeSource(
            now: {
                state.withLock { state in
                    defer { state.next &+= step }
                    return Timestamp(millisecondsSinceEpoch: state.next)
                }
            },
            newCommandID: { state.withLock { $0.ids.next() } })
    }
}

extension Ledger {
    /// Executes `action` as `actor`, with the envelope filled in from
    /// ``LedgerOptions/envelope``: a new command id and the time now. See ``execute(_:)-([Command])``.
    /// - Returns: the command as executed (its id, for ``CommandAction/undo(targetCommandID:)``)
    ///   and the sequence number a read or an observed value shows it from.
    @discardableResult
    public func execute(_ action: CommandAction, as actor: PersonID) async throws(LedgerError) -> ExecutedCommand {
        let executed = try await execute([action], as: actor)
        return executed[0]
    }

    /// Executes `actions` as `actor` in one batch (all or nothing, G6), each with a new command
    /// id and the time now (``LedgerOptions/envelope``).
    @discardableResult
    public func execute(_ actions: [CommandAction], as actor: PersonID) async throws(LedgerError) -> [ExecutedCommand] {
        let envelope = options.envelope
        let commands = actions.map { Command(commandID: envelope.newCommandID(), actor: actor, recordedAt: envelope.now(), action: $0) }
        let before = lastSequenceNumber
        let positions = try await execute(commands)
        let eventsByCommand = Dictionary(grouping: positions, by: \.commandID)
        var shownFrom = positions.first.map { $0.sequenceNumber - 1 } ?? before
        return commands.map { command in
            let events = eventsByCommand[command.commandID] ?? []
            shownFrom = events.last?.sequenceNumber ?? shownFrom
            return ExecutedCommand(command: command, events: events, sequenceNumber: shownFrom)
        }
    }
}

/// A command the ledger executed with the envelope it filled in (`execute(_:as:)`).
public struct ExecutedCommand: Sendable, Hashable {
    /// The command, with its generated id and time.
    public let command: Command
    /// Its events, in order (none for a command that changed nothing).
    public let events: [EventPosition]
    /// The sequence number from which the ledger shows it: its last event's; for a command
    /// without events, that of the last event before it in its batch, or when the batch has none
    /// a number no later than the batch (the last acknowledged one when it was sent). A read of the store after the call
    /// (`ledger.read { db in ... }`) shows it, and so does an observation started after it; an
    /// older observation shows it once ``Ledger/waitForObservations(through:)`` returns.
    public let sequenceNumber: UInt64

    /// The command's id: what undo and redo name (T5).
    public var commandID: CommandID { command.commandID }
}
