/// The fields of an income or expense transaction (T1), shared by ``TransactionRecorded``,
/// ``TransactionEdited`` (full new values, T2), ``TemplateCreated`` and ``TemplateActivated``.
@WireFields
public struct TransactionDetails: Hashable, Sendable {
    /// Income or expense; must match the category's group (T1).
    public var kind: TransactionKind
    /// The amount, entered positive (T1); its currency is the wallet's.
    public var amount: Money
    /// The wallet the money moves in or out of.
    public var walletID: WalletID
    /// The category.
    public var categoryID: CategoryID
    /// The business date (for a template: the anchor date, T4).
    public var date: LocalDate
    /// A free-text note, personal text of the event's actor (P1).
    public var note: PersonalText?
    /// Free-form tags, in the order entered.
    public var tags: [String]
    /// The person who paid (expense) or received (income).
    public var payer: PersonID
    /// The split with resolved shares if the transaction is shared; `nil` if personal (S2, G4).
    public var split: TransactionSplit?

    /// Creates the fields of a transaction.
    public init(
        kind: TransactionKind, amount: Money, walletID: WalletID, categoryID: CategoryID,
        date: LocalDate, note: PersonalText?, tags: [String], payer: PersonID, split: TransactionSplit?
    ) {
        self.kind = kind
        self.amount = amount
        self.walletID = walletID
        self.categoryID = categoryID
        self.date = date
        self.note = note
        self.tags = tags
        self.payer = payer
        self.split = split
    }
}

extension TransactionDetails {
    /// What one share of a shared transaction makes someone owe (S5).
    public struct Debt: Hashable, Sendable {
        /// The person whose share it is.
        public let person: PersonID
        /// Who owes: the share's person for an expense, the payer for an income.
        public let debtor: PersonID
        /// Who is owed: the payer for an expense, the share's person for an income.
        public let creditor: PersonID
        /// The share.
        public let amount: Money
    }

    /// The debts of a shared transaction, one per non-zero share other than the payer's, in
    /// share order; none for a personal transaction. The one rule the engine (debts for H4,
    /// S6) and the debt read model use.
    public var debts: [Debt] {
        guard let split else { return [] }
        return split.shares.filter { $0.person != payer && !$0.amount.isZero }.map { share in
            kind == .expense
                ? Debt(person: share.person, debtor: share.person, creditor: payer, amount: share.amount)
                : Debt(person: share.person, debtor: payer, creditor: share.person, amount: share.amount)
        }
    }
}
