/// A payment settling debts between two people; permanent (S6).
///
/// Tag 501, schema version 1 (see ``EventTag/settlementRecorded`` and `Docs/Events.md`).
@WireFields
public struct SettlementRecorded: Hashable, Sendable {
    /// The settlement.
    public let settlementID: SettlementID
    /// Who paid.
    public let from: PersonID
    /// Who received.
    public let to: PersonID
    /// The amount paid, positive.
    public let amount: Money
    /// The business date.
    public let date: LocalDate
    /// The items settled; `nil` settles everything open between them, oldest first.
    public let covers: [SettledItem]?
    /// Whether paying more than owed was intended (S6).
    public let isAdvance: Bool
    /// The group whose balances it settles; `nil` for household debts (S5).
    public let groupID: GroupID?

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(
        settlementID: SettlementID, from: PersonID, to: PersonID, amount: Money, date: LocalDate,
        covers: [SettledItem]?, isAdvance: Bool, groupID: GroupID?
    ) {
        self.settlementID = settlementID
        self.from = from
        self.to = to
        self.amount = amount
        self.date = date
        self.covers = covers
        self.isAdvance = isAdvance
        self.groupID = groupID
    }
}
