/// What another file of the ledger proves about the journal: that every record through
/// `lastSequenceNumber` was acknowledged, so a journal that ends earlier lost records.
///
/// The engine gathers it before opening the journal (checkpoint names, the personal-key
/// store); the writer and readers refuse a journal shorter than it with
/// `JournalError.journalShorterThanEvidence`, before anything is cut or created.
public struct JournalEvidence: Sendable, Hashable {
    /// The last sequence number the evidence proves was acknowledged.
    public var lastSequenceNumber: UInt64
    /// Which file proves it, for the error message (e.g. `checkpoints/…381.checkpoint`).
    public var source: String

    /// Creates evidence.
    public init(lastSequenceNumber: UInt64, source: String) {
        self.lastSequenceNumber = lastSequenceNumber
        self.source = source
    }

    /// The strongest of several pieces of evidence (nil when there is none).
    public static func strongest(_ pieces: [JournalEvidence]) -> JournalEvidence? {
        pieces.filter { $0.lastSequenceNumber > 0 }.max { $0.lastSequenceNumber < $1.lastSequenceNumber }
    }

    /// Throws when a journal ending at `lastSequenceNumber` is shorter than this evidence.
    func check(journalEndsAt lastSequenceNumber: UInt64) throws(JournalError) {
        guard lastSequenceNumber >= self.lastSequenceNumber else {
            throw .journalShorterThanEvidence(lastSequenceNumber: lastSequenceNumber, evidence: self)
        }
    }
}
