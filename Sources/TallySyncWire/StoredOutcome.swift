/// A ``CommandOutcome`` as the `commands.outcome` column holds it (jsonb):
/// `{"kind":"accepted","firstSequenceNumber":4,"lastSequenceNumber":6}` or
/// `{"kind":"rejected","code":"...","message":"..."}`. The keys are the stored format: renaming
/// one needs a schema version.
package struct StoredOutcome: Codable, Sendable {
    var kind: String
    var firstSequenceNumber: UInt64?
    var lastSequenceNumber: UInt64?
    var code: String?
    var message: String?

    package init(_ outcome: CommandOutcome) {
        switch outcome {
        case .accepted(let first, let last):
            self.kind = "accepted"
            self.firstSequenceNumber = first
            self.lastSequenceNumber = last
        case .rejected(let code, let message):
            self.kind = "rejected"
            self.code = code
            self.message = message
        }
    }

    /// The outcome, or nil when the stored value is not one this build writes.
    package var outcome: CommandOutcome? {
        switch kind {
        case "accepted":
            guard let firstSequenceNumber, let lastSequenceNumber else { return nil }
            return .accepted(firstSequenceNumber: firstSequenceNumber, lastSequenceNumber: lastSequenceNumber)
        case "rejected":
            guard let code, let message else { return nil }
            return .rejected(code: code, message: message)
        default:
            return nil
        }
    }
}

/// A command outcome in JSON is its stored form (``StoredOutcome``): the same keys in the
/// `commands` table and on the wire (Docs/Sync.md).
extension CommandOutcome: Codable {
    public init(from decoder: any Decoder) throws {
        guard let outcome = try StoredOutcome(from: decoder).outcome else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath,
                debugDescription: "an outcome is {kind: accepted, firstSequenceNumber, lastSequenceNumber} or {kind: rejected, code, message}"))
        }
        self = outcome
    }

    public func encode(to encoder: any Encoder) throws {
        try StoredOutcome(self).encode(to: encoder)
    }
}
