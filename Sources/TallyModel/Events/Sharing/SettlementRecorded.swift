/// A payment settling debts between two people; permanent (S6).
///
/// Tag 501, schema version 2 (see ``EventTag/settlementRecorded`` and `Docs/Events.md`).
/// Version 2 added `note` and `paymentMethod` (Swiff 1.3.1, 2.1.3).
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
    /// A note, personal text of the event's actor (P1); `nil` in version 1.
    @WireSince(2) public let note: PersonalText?
    /// How it was paid ("bank transfer", "TWINT", "cash"); `nil` in version 1.
    @WireSince(2) public let paymentMethod: String?

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(
        settlementID: SettlementID, from: PersonID, to: PersonID, amount: Money, date: LocalDate,
        covers: [SettledItem]?, isAdvance: Bool, groupID: GroupID?, note: PersonalText? = nil, paymentMethod: String? = nil
    ) {
        self.settlementID = settlementID
        self.from = from
        self.to = to
        self.amount = amount
        self.date = date
        self.covers = covers
        self.isAdvance = isAdvance
        self.groupID = groupID
        self.note = note
        self.paymentMethod = paymentMethod
    }
}
