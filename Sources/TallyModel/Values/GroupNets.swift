import HashTreeCollections
/// Each group member's running totals per currency (S7, S8): what they paid for the group's live
/// expenses, their parts of them, and the group settlements they paid and received. The one
/// running sum, kept by the debt read model (member balances, the settlement plan) and read by
/// the engine (S6's "not more than is owed" in a group, S8's settled member, H4), so a balance is read in
/// O(members of the group), never by a scan of the group's history.
///
/// A live expense adds its amount to its payer's `paid` and each part to its member's `owed`, all
/// in the expense's currency; an edit, a deletion or a restoration removes (`sign` -1) what the
/// expense added and adds (`sign` 1) what it adds now. A group settlement from `A` to `B` adds its
/// amount to `A`'s `settlementsPaid` and to `B`'s `settlementsReceived`. Sums are `Int128`,
/// exact (checked, never wrapping) for any number of `Int64` amounts.
///
/// An entry lives while a live expense or a settlement names its member (``Totals/mentions``):
/// a member whose part is zero is still listed, as the group's expenses list them, and an entry
/// that nothing names any more is dropped, so none is empty.
package struct GroupNets: Hashable, Sendable {
    /// A person and a currency inside one group.
    @WireFields
    package struct Member: Hashable, Comparable, Sendable {
        /// The currency.
        package let currency: Currency
        /// The person.
        package let person: PersonID

        /// Creates a member key.
        package init(currency: Currency, person: PersonID) {
            (self.currency, self.person) = (currency, person)
        }

        /// Orders by currency, then person.
        package static func < (lhs: Member, rhs: Member) -> Bool {
            (lhs.currency, lhs.person) < (rhs.currency, rhs.person)
        }
    }

    /// A member's totals in one group and currency, in minor units.
    @WireFields
    package struct Totals: Hashable, Sendable {
        /// What they paid for the group's live expenses.
        package internal(set) var paid: Int128 = 0
        /// Their parts of the group's live expenses.
        package internal(set) var owed: Int128 = 0
        /// The group settlements they paid.
        package internal(set) var settlementsPaid: Int128 = 0
        /// The group settlements they received.
        package internal(set) var settlementsReceived: Int128 = 0
        /// How many live expense payers, live expense parts and settlements name them.
        package internal(set) var mentions: Int = 0

        /// Nothing paid, owed or settled.
        package init() {}

        /// `paid - owed + settlementsPaid - settlementsReceived` (S7): positive, the group owes
        /// them; negative, they owe the group.
        package var balance: Int128 { paid - owed + settlementsPaid - settlementsReceived }
    }

    /// The totals per group and member; no group is empty, no entry has `mentions` 0.
    package private(set) var groups: TreeDictionary<GroupID, [Member: Totals]> = [:]

    /// No group expense and no group settlement.
    package init() {}

    /// Totals restored from a checkpoint (empty entries are dropped).
    package init(groups: [GroupID: [Member: Totals]]) {
        self.groups = TreeDictionary(uniqueKeysWithValues: groups.compactMapValues { members in
            let kept = members.filter { $0.value != Totals() }
            return kept.isEmpty ? nil : kept
        }.map { ($0.key, $0.value) })
    }

    /// Adds (`sign` 1) or removes (-1) what a live group expense contributes.
    package mutating func add(_ expense: GroupExpenseRecorded, sign: Int128) {
        add(expenseIn: expense.groupID, paidBy: expense.paidBy, amount: expense.amount, owed: expense.owed, sign: sign)
    }

    /// Adds (`sign` 1) or removes (-1) what a live group expense contributes: `amount` paid by
    /// `paidBy`, and each part of `owed` owed by its person, in `amount`'s currency.
    package mutating func add(expenseIn group: GroupID, paidBy: PersonID, amount: Money, owed: [PersonShare], sign: Int128) {
        let currency = amount.currency
        let mentions = Int(sign)
        change(group, Member(currency: currency, person: paidBy), mentions: mentions) {
            $0.paid += sign * Int128(amount.minorUnits)
        }
        for share in owed {
            change(group, Member(currency: currency, person: share.person), mentions: mentions) {
                $0.owed += sign * Int128(share.amount.minorUnits)
            }
        }
    }

    /// Applies a group settlement (`groupID` set; a household one changes nothing here): its
    /// payer paid, its receiver received the amount.
    package mutating func add(_ settlement: SettlementRecorded) {
        add(settlementFrom: settlement.from, to: settlement.to, amount: settlement.amount, in: settlement.groupID)
    }

    /// Applies a settlement of `amount` paid by `from` to `to` in `groupID` (`nil`: a household
    /// one, which changes nothing here).
    package mutating func add(settlementFrom from: PersonID, to: PersonID, amount: Money, in groupID: GroupID?) {
        guard let group = groupID else { return }
        change(group, Member(currency: amount.currency, person: from), mentions: 1) {
            $0.settlementsPaid += Int128(amount.minorUnits)
        }
        change(group, Member(currency: amount.currency, person: to), mentions: 1) {
            $0.settlementsReceived += Int128(amount.minorUnits)
        }
    }

    /// Changes one entry in place; an entry that ends empty is dropped, and so is its group then.
    private mutating func change(_ group: GroupID, _ member: Member, mentions: Int, _ update: (inout Totals) -> Void) {
        var totals = groups[group]?[member] ?? Totals()
        update(&totals)
        totals.mentions += mentions
        guard totals == Totals() else {
            groups[group, default: [:]][member] = totals
            return
        }
        groups[group]?[member] = nil
        if groups[group]?.isEmpty == true { groups[group] = nil }
    }

    /// A member's totals in a group and currency (all zero when nothing names them).
    package func totals(of person: PersonID, in group: GroupID, currency: Currency) -> Totals {
        groups[group]?[Member(currency: currency, person: person)] ?? Totals()
    }

    /// Every entry of a group, sorted by currency then person: O(entries of the group).
    package func members(of group: GroupID) -> [(member: Member, totals: Totals)] {
        (groups[group] ?? [:]).sorted { $0.key < $1.key }.map { (member: $0.key, totals: $0.value) }
    }

    /// Every non-zero balance of `person`, sorted by group then currency.
    package func balances(of person: PersonID) -> [(group: GroupID, currency: Currency, balance: Int128)] {
        groups.flatMap { group, members in
            members.compactMap { member, totals -> (group: GroupID, currency: Currency, balance: Int128)? in
                guard member.person == person, totals.balance != 0 else { return nil }
                return (group, member.currency, totals.balance)
            }
        }
        .sorted { ($0.group, $0.currency) < ($1.group, $1.currency) }
    }
}

extension GroupNets.Totals {
    /// The most mentions an entry read from a checkpoint may have: half of `Int`, which leaves
    /// more room for later events than any journal can use.
    package static var mentionsMax: Int { Int.max / 2 }

    /// Whether some history gives these totals: between one and ``mentionsMax`` mentions, and
    /// sums no larger together than one `Int64` amount per mention (each mention adds one amount
    /// to one sum). Checked on read, so that a restored entry never holds a count or a sum that
    /// the next events could overflow.
    package var isPossible: Bool {
        guard (1...Self.mentionsMax).contains(mentions) else { return false }
        var total: UInt128 = 0
        for sum in [paid, owed, settlementsPaid, settlementsReceived] {
            let (next, overflow) = total.addingReportingOverflow(sum.magnitude)
            guard !overflow else { return false }
            total = next
        }
        return total <= UInt128(mentions) * UInt128(Int64.max.magnitude + 1)
    }
}
