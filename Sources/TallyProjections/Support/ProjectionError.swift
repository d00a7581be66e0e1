import TallyModel

/// An error raised by a read-model query or by restoring a checkpoint.
///
/// Folding never throws and never traps: events a projection cannot apply are recorded as
/// ``ProjectionProblem``s. Queries add amounts in 128-bit accumulators and throw
/// ``overflow(rule:subject:)`` only when a result does not fit the `Int64` minor units of `Money` (G1).
public enum ProjectionError: Error, Hashable, Sendable {
    /// A derived amount does not fit in `Int64` minor units (G1); names the rule and what was summed.
    case overflow(rule: String, subject: String)
    /// Checkpoint bytes could not be decoded; `reason` names the field or offset.
    case invalidCheckpoint(reason: String)

    /// A stable, machine-readable code.
    public var code: String {
        switch self {
        case .overflow: "overflow"
        case .invalidCheckpoint: "invalidCheckpoint"
        }
    }

    /// A message a user or developer can act on.
    public var message: String {
        switch self {
        case .overflow(let rule, let subject):
            "G1/\(rule): \(subject) overflows the 64-bit minor-unit range"
        case .invalidCheckpoint(let reason):
            "projection checkpoint is damaged or from another version: \(reason); replay the journal instead"
        }
    }
}

extension ProjectionError: CustomStringConvertible {
    /// The ``code`` followed by the ``message``.
    public var description: String { "\(code): \(message)" }
}
