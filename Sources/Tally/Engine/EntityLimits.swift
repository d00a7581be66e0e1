/// Caps a host sets on how many live entities of a kind a household may hold: an app's
/// business rule such as a free tier (Drishti E11-S4, E6-S11, E8-S5: 3 accounts, 2 goals,
/// 1 scenario; Swiff Phase 5: 10 subscriptions), given through ``LedgerOptions/entityLimits``.
///
/// Not an event: a cap is the app's decision (it follows an in-app purchase, platform state
/// outside the journal), not a household fact, so it is never recorded and never replayed.
/// The executor checks it on new commands only (``RuleViolation/Code/entityLimitReached``):
/// opening, replaying (`tally replay`) or auditing a journal folds its events without the
/// executor, so history is never refused, and a ledger already above a lowered cap keeps
/// everything it holds; it only takes no more of that kind until it is back under it.
public struct EntityLimits: Sendable, Equatable {
    /// The kinds a host can cap, each counted as what is live now.
    public enum Kind: String, Sendable, CaseIterable, Comparable {
        /// Wallets not closed (a deactivated wallet counts; closing one frees a place) (W1, W4).
        case wallets
        /// Goals not deleted (R2).
        case goals
        /// Saved scenarios (R3).
        case scenarios
        /// Recurring items (templates) not cancelled (R1).
        case subscriptions
        /// Members and contacts neither archived, removed nor forgotten (H3).
        case people
        /// Groups not deleted (an archived group counts) (S7).
        case groups
        /// Active members, the admin included, and invitations pending at the command's time: a
        /// pending invitation holds a place (H6; Flow US-005's 2 members is `members=2`).
        case members

        /// Orders kinds by name, for messages and output.
        public static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The caps set, by kind; a kind absent is not capped.
    public private(set) var caps: [Kind: Int] = [:]

    /// No caps (the default).
    public static let none = EntityLimits()

    /// Caps per kind; a negative cap is taken as 0.
    public init(_ caps: [Kind: Int] = [:]) {
        for (kind, cap) in caps { self[kind] = cap }
    }

    /// The cap on `kind`, `nil` when it has none; setting a negative one sets 0.
    public subscript(kind: Kind) -> Int? {
        get { caps[kind] }
        set { caps[kind] = newValue.map { max(0, $0) } }
    }

    /// Parses `kind=count` (the CLI's `--limit wallets=3`) into this value.
    /// - Throws: ``EntityLimitsParseError`` naming the kinds accepted.
    public mutating func parse(_ text: String) throws(EntityLimitsParseError) {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let kind = Kind(rawValue: parts[0]) else {
            throw EntityLimitsParseError(text: text, message: "expected kind=count with kind one of \(Kind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let count = Int(parts[1]), count >= 0 else {
            throw EntityLimitsParseError(text: text, message: "the count must be a whole number, 0 or more")
        }
        self[kind] = count
    }
}

/// A `kind=count` entity limit that does not parse.
public struct EntityLimitsParseError: Error, Sendable, Equatable {
    /// The text given.
    public let text: String
    /// What was expected.
    public let message: String
}
