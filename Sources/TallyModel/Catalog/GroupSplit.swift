/// How a group expense was divided, as entered (S7). The resolved amounts are stored next to it
/// in ``GroupExpenseRecorded/owed`` (G4).
public enum GroupSplit: Hashable, Sendable {
    /// Equally among these members.
    case equal([PersonID])
    /// Exact amounts per member, summing to the total.
    case exact([PersonShare])
    /// Percentages in basis points, summing to 10000.
    case percentage([MemberRatio])
    /// Weights such as 2:1:1.
    case shares([MemberWeight])

    /// The kind of split without its inputs.
    public var kind: GroupSplitKind {
        switch self {
        case .equal: .equal
        case .exact: .exact
        case .percentage: .percentage
        case .shares: .shares
        }
    }
}

/// The kinds of ``GroupSplit``. The raw values are stored: never change or reuse one.
public enum GroupSplitKind: UInt8, CaseIterable, Hashable, Sendable {
    /// Equal parts.
    case equal = 0
    /// Exact amounts.
    case exact = 1
    /// Percentages.
    case percentage = 2
    /// Weighted shares.
    case shares = 3
}
