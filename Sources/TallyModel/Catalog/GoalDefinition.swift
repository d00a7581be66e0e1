/// What a savings goal is (R2, Drishti E8-S1): a name, a target amount, an optional target date,
/// and either the wallets whose summed value is its progress or, with none, an amount the user
/// sets by hand (``GoalAmountSet``).
@WireFields
public struct GoalDefinition: Hashable, Sendable {
    /// What the user calls it (household vocabulary, like wallet names).
    public let name: String
    /// The amount to reach; linked wallets are converted into its currency (G2).
    public let target: Money
    /// When the user wants to reach it, if they said.
    public let targetDate: LocalDate?
    /// The wallets whose summed value is the progress; empty for a goal tracked by hand.
    public let walletIDs: [WalletID]

    /// Creates a definition; the engine validates it against the ledger before recording.
    public init(name: String, target: Money, targetDate: LocalDate? = nil, walletIDs: [WalletID] = []) {
        self.name = name
        self.target = target
        self.targetDate = targetDate
        self.walletIDs = walletIDs
    }

    /// Whether progress is the linked wallets' value (else amounts set by hand).
    public var isLinked: Bool { !walletIDs.isEmpty }
}
