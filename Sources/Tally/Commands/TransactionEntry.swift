import TallyModel

/// The fields a user enters for an income or expense (T1), used by `recordTransaction`,
/// `editTransaction` (all fields after the edit, T2) and `createTemplate` (T4).
///
/// Its fields are the JSON schema's, with the same defaults (Docs/Commands.md,
/// `recordTransaction`). The engine resolves `isShared` and `ratioOverride` into a `TransactionSplit` with exact
/// shares (S2, S3) and stores that in the event (G4).
public struct TransactionEntry: Sendable, Hashable {
    /// Income or expense; must match the category's group (T1).
    public var kind: TransactionKind
    /// The amount, positive, in the wallet's currency (T1).
    public var amount: Money
    /// The wallet the money moves in or out of.
    public var walletID: WalletID
    /// The category.
    public var categoryID: CategoryID
    /// The business date (for a template: the anchor date).
    public var date: LocalDate
    /// A free-text note.
    public var note: String?
    /// Free-form tags.
    public var tags: [String]
    /// Who paid (expense) or received (income); a member. `nil` (the JSON's absent `payer`):
    /// the command's actor.
    public var payer: PersonID?
    /// Whether the transaction is shared among the household's members (S2); the JSON field
    /// `shared`.
    public var isShared: Bool
    /// A ratio for this transaction only (S2); `nil` uses the household ratio. Ignored unless shared.
    public var ratioOverride: [MemberRatio]?
    /// A split with chosen people (members or contacts) instead of the household ratio: equal,
    /// exact, percentage or shares, resolved like a group expense's split (S3); their parts become
    /// household debts to the payer (S5). Not with `ratioOverride`; not for templates (R1 sharing).
    public var splitWith: GroupSplit?
    /// What was charged in another currency (T7, Swiff Phase 5 currency): the amount as paid
    /// abroad, in a currency other than the wallet's; ``amount`` stays what the wallet moved.
    /// `nil` for a transaction in the wallet's own currency. Not for templates.
    public var originalAmount: Money?
    /// Who was paid (expense) or paid (income): the title a list shows (Swiff 1.1.2
    /// Transaction's title, Flow's merchant, US-072), personal text of the actor (P1). Not for
    /// templates (an occurrence's title is its template's name).
    public var payee: String?
    /// A second line under the title (Swiff 1.1.2 Transaction's subtitle), personal text of the
    /// actor (P1). Not for templates.
    public var subtitle: String?

    /// Creates the entry.
    public init(
        kind: TransactionKind, amount: Money, walletID: WalletID, categoryID: CategoryID, date: LocalDate,
        note: String? = nil, tags: [String] = [], payer: PersonID? = nil, shared: Bool = false,
        ratioOverride: [MemberRatio]? = nil, splitWith: GroupSplit? = nil, originalAmount: Money? = nil,
        payee: String? = nil, subtitle: String? = nil
    ) {
        self.kind = kind
        self.amount = amount
        self.walletID = walletID
        self.categoryID = categoryID
        self.date = date
        self.note = note
        self.tags = tags
        self.payer = payer
        self.isShared = shared
        self.ratioOverride = ratioOverride
        self.splitWith = splitWith
        self.originalAmount = originalAmount
        self.payee = payee
        self.subtitle = subtitle
    }
}
