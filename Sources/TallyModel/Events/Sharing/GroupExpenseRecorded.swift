/// An expense paid by one group member for the group (S7).
///
/// Tag 503, schema version 4 (see ``EventTag/groupExpenseRecorded`` and `Docs/Events.md`).
@WireFields
public struct GroupExpenseRecorded: Hashable, Sendable {
    /// The expense.
    public let expenseID: GroupExpenseID
    /// The group.
    public let groupID: GroupID
    /// Who paid.
    public let paidBy: PersonID
    /// The total, positive.
    public let amount: Money
    /// The business date.
    public let date: LocalDate
    /// A free-text note, personal text of the event's actor (P1).
    public let note: PersonalText?
    /// The split as entered.
    public let split: GroupSplit
    /// Each member's resolved part, summing to the amount (S3, G4).
    public let owed: [PersonShare]
    /// The expense category it is filed under, if any (C1; added by version 3).
    @WireSince(3) public let categoryID: CategoryID?
    /// A short title such as "Dinner at the lake", personal text of the event's actor (P1;
    /// added by version 4).
    @WireSince(4) public let title: PersonalText?

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(
        expenseID: GroupExpenseID, groupID: GroupID, paidBy: PersonID, amount: Money, date: LocalDate,
        note: PersonalText?, split: GroupSplit, owed: [PersonShare], categoryID: CategoryID? = nil,
        title: PersonalText? = nil
    ) {
        self.expenseID = expenseID
        self.groupID = groupID
        self.paidBy = paidBy
        self.amount = amount
        self.date = date
        self.note = note
        self.split = split
        self.owed = owed
        self.categoryID = categoryID
        self.title = title
    }
}
