/// What became of one pushed command, stored with the command id so that a retry is answered
/// with it instead of a second execution (Docs/Sync.md, "Push: commands").
public enum CommandOutcome: Sendable, Hashable {
    /// The command was executed; its events are the records
    /// `firstSequenceNumber...lastSequenceNumber`.
    case accepted(firstSequenceNumber: UInt64, lastSequenceNumber: UInt64)
    /// The command was refused. `code` is the rule's stable code (the engine's
    /// `RuleViolation`), `message` what the user can do about it.
    case rejected(code: String, message: String)
}
