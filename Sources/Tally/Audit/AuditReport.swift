import TallyJournal

/// One problem an audit found: a stable code, where, and what is wrong.
public struct AuditProblem: Sendable, Hashable, CustomStringConvertible {
    /// A stable identifier: a journal problem kind (`checksumMismatch`, `chainMismatch`...),
    /// `eventUndecodable`, `projectionProblem`, `sharesDoNotSumToAmount`, `groupBalancesNotZero`,
    /// `checkpointDiffers`, `checkpointUnreadable`, `readSideDiffers`, `readSideDamaged`.
    public var code: String
    /// The rule (Docs/Domain.md) behind a domain problem (`S3`, `S8`...), nil for storage problems.
    public var rule: String?
    /// Segment, offset and sequence number, when the problem has a place in the journal.
    public var location: JournalLocation?
    /// The event's sequence number, for domain problems found by folding.
    public var sequenceNumber: UInt64?
    /// What is wrong, in words a person can act on.
    public var message: String

    /// Creates a problem.
    public init(code: String, rule: String? = nil, location: JournalLocation?, sequenceNumber: UInt64? = nil, message: String) {
        self.code = code
        self.rule = rule
        self.location = location
        self.sequenceNumber = sequenceNumber ?? location?.sequenceNumber
        self.message = message
    }

    public var description: String {
        var text = code
        if let rule { text += " [\(rule)]" }
        if let location {
            text += " at \(location)"
        } else if let sequenceNumber {
            text += " at sequence \(sequenceNumber)"
        }
        return text + ": " + message
    }
}

/// How the newest checkpoint compares with a replay from the journal alone.
public enum CheckpointStatus: Sendable, Hashable {
    /// The ledger has no checkpoint.
    case none
    /// The newest checkpoint equals the replayed state at its sequence number.
    case matchesReplay(sequenceNumber: UInt64)
    /// The newest checkpoint differs from the replay (the reason names the part).
    case differs(sequenceNumber: UInt64, reason: String)
    /// The newest checkpoint file could not be used.
    case unreadable(String)
    /// No checkpoint could be compared, and nothing is known to be wrong: a writer beside the
    /// audit replaced each one before it was read whole (the reason says so).
    case notCompared(String)
}

/// The result of `LedgerAudit.audit`.
public struct AuditReport: Sendable {
    /// Frames, checksums, hash chain and sequence continuity.
    public var journal: VerificationReport
    /// Events decoded and folded.
    public var eventsDecoded = 0
    /// Every problem, storage first, then domain, then checkpoint.
    public var problems: [AuditProblem] = []
    /// The checkpoint comparison.
    public var checkpoint: CheckpointStatus = .none
    /// The read-side store compared table by table with a rebuild from the journal.
    public var readSide: ReadSideStatus = .none

    /// True when nothing is wrong.
    public var isClean: Bool { problems.isEmpty }
}
