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
    @discardableResult
    public func execute(_ action: CommandAction, as actor: PersonID) async throws(LedgerError) -> [EventPosition] {
        try await execute([action], as: actor)
    }

    /// Executes `actions` as `actor` in one batch (all or nothing, G6), each with a new command
    /// id and the time now (``LedgerOptions/envelope``).
    @discardableResult
    public func execute(_ actions: [CommandAction], as actor: PersonID) async throws(LedgerError) -> [EventPosition] {
        let envelope = options.envelope
        return try await execute(actions.map { Command(commandID: envelope.newCommandID(), actor: actor, recordedAt: envelope.now(), action: $0) })
    }
}
