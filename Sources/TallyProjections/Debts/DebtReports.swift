import TallyModel

/// One unsettled (or settled) share behind a household debt (S5): `debtor` owes `creditor`
/// `amount` because of a shared transaction.
public struct DebtItem: Hashable, Sendable {
    /// The shared transaction (or group expense) the share comes from.
    public let source: SettledItem
    /// Who owes.
    public let debtor: PersonID
    /// Who is owed: the payer of a shared expense, or the sharer of a shared income.
    public let creditor: PersonID
    /// The resolved share (S3, stored in the event, G4).
    public let amount: Money
    /// The business date of the transaction.
    public let date: LocalDate
    /// The settlement that covered it (S6), `nil` while open.
    public let settledBy: SettlementID?
}

/// The net household debt between two people in one currency (S5).
public struct PairBalance: Hashable, Sendable {
    /// The person with the lower id.
    public let personA: PersonID
    /// The person with the higher id.
    public let personB: PersonID
    /// What A owes B, net of everything (negative: B owes A).
    public let aOwesB: Money
    /// The unsettled items between the two, oldest first (both directions).
    public let openItems: [DebtItem]

    /// The person who owes, `nil` when the balance is zero.
    public var debtor: PersonID? { aOwesB.isZero ? nil : (aOwesB.isPositive ? personA : personB) }
    /// The person who is owed, `nil` when the balance is zero.
    public var creditor: PersonID? { aOwesB.isZero ? nil : (aOwesB.isPositive ? personB : personA) }
    /// The amount owed, never negative.
    public var amount: Money { Money(minorUnits: aOwesB.minorUnits.magnitude > UInt64(Int64.max) ? .max : abs(aOwesB.minorUnits), currency: aOwesB.currency) }
}

/// A group member's balance in one currency (S7): paid minus owed, adjusted by settlements.
/// Positive: the group owes them; negative: they owe the group.
public struct GroupMemberBalance: Hashable, Sendable {
    /// The member.
    public let person: PersonID
    /// What they paid for the group.
    public let paid: Money
    /// Their resolved parts of the group's expenses.
    public let owed: Money
    /// Settlements they paid to other members.
    public let settlementsPaid: Money
    /// Settlements they received from other members.
    public let settlementsReceived: Money
    /// `paid - owed + settlementsPaid - settlementsReceived`; a group's balances sum to zero (S8).
    public let balance: Money
}

/// One transfer of a simplified settlement plan (S8).
public struct PlannedTransfer: Hashable, Sendable {
    /// Who pays (a debtor).
    public let from: PersonID
    /// Who receives (a creditor).
    public let to: PersonID
    /// How much.
    public let amount: Money

    /// Creates a planned transfer.
    public init(from: PersonID, to: PersonID, amount: Money) {
        (self.from, self.to, self.amount) = (from, to, amount)
    }
}

/// One live group expense as a group's expense list shows it (S7; Swiff 1.3.2, 2.1.4).
public struct GroupExpenseSummary: Hashable, Sendable {
    /// The expense.
    public let expenseID: GroupExpenseID
    /// Its group.
    public let groupID: GroupID
    /// Who paid.
    public let paidBy: PersonID
    /// The total.
    public let amount: Money
    /// The business date.
    public let date: LocalDate
    /// Its title, if any (personal text of whoever recorded or last edited it).
    public let title: PersonalText?
    /// Its note, if any.
    public let note: PersonalText?
    /// Its category, if any.
    public let categoryID: CategoryID?
    /// Each member's resolved part (S3).
    public let owed: [PersonShare]
    /// Whether it was marked settled (`GroupExpenseSettledMarked`; record-keeping only).
    public let isMarkedSettled: Bool
    /// Whether it is settled: marked so, or every part of a member other than the payer is
    /// covered by a settlement that lists it (S6). Balances never depend on it.
    public let isSettled: Bool
    /// Each member's part with its paid state (Swiff 2.1.4), in the order of ``owed``: which
    /// parts are covered, not only whether all are.
    public let parts: [GroupExpensePart]
}

/// One member's part of a group expense and whether it is paid (Swiff 2.1.4 "paid state per
/// participant").
public struct GroupExpensePart: Hashable, Sendable {
    /// The member.
    public let person: PersonID
    /// Their resolved part (S3).
    public let amount: Money
    /// The settlement that covers this part (a settlement that lists it, S6); `nil` while
    /// none does (and for the payer's own part, which nobody owes).
    public let settlement: SettlementID?
    /// Whether the part is paid: the payer's own part or a zero part (owed to nobody), a part a
    /// settlement covers, or any part of an expense marked settled (record-keeping only:
    /// balances never depend on it).
    public let isPaid: Bool
}

/// One person's balance with another in one currency across the household and every group
/// they share (Swiff 1.3.1 "owes you / you owe"): the household debt (S5) plus, per group, the
/// transfer between the two in the group's simplified settlement plan (S8).
public struct PersonBalance: Hashable, Sendable {
    /// Whose balance it is.
    public let person: PersonID
    /// The other person.
    public let other: PersonID
    /// What `other` owes `person` in all (negative: `person` owes `other`).
    public let owedToPerson: Money
    /// The household part (S5), signed as `owedToPerson`.
    public let household: Money
    /// The part from each group's plan (S8), signed as `owedToPerson`, by group id; groups
    /// without a transfer between the two are left out.
    public let groups: [GroupID: Money]
}

/// One recorded settlement (S6) as a settlement history lists it (Flow US-040).
public struct SettlementEntry: Hashable, Sendable {
    /// The settlement.
    public let settlementID: SettlementID
    /// Who paid.
    public let from: PersonID
    /// Who received.
    public let to: PersonID
    /// How much.
    public let amount: Money
    /// Its business date.
    public let date: LocalDate
    /// The group it settles in, `nil` for a household settlement.
    public let groupID: GroupID?
    /// Whether it was recorded as an advance (more than was owed, S6).
    public let isAdvance: Bool
    /// The sequence number of the event that recorded it.
    public let sequenceNumber: UInt64
    /// Its note, `[redacted]` when its author is forgotten (P3).
    public let note: String?
    /// How it was paid.
    public let paymentMethod: String?
}
