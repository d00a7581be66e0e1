import TallyModel

/// An event a projection could not apply, recorded instead of trapping or throwing.
///
/// Events reach projections after command validation, so a problem means a damaged, hostile or
/// out-of-order journal: an unknown wallet, a currency that does not match the wallet, shares
/// that do not sum to the amount, a duplicate id. The event's effect on that read model is
/// skipped as a whole; the problem is listed in the read model's canonical JSON.
@StateFields
public struct ProjectionProblem: Hashable, Sendable {
    /// The journal sequence number of the event.
    public let sequenceNumber: UInt64
    /// The rule (Docs/Domain.md) the event breaks, e.g. `"W1"` or `"S3"`.
    public let rule: String
    /// What is wrong, naming the ids involved.
    public let message: String

    /// Creates a problem record.
    public init(sequenceNumber: UInt64, rule: String, message: String) {
        self.sequenceNumber = sequenceNumber
        self.rule = rule
        self.message = message
    }
}
