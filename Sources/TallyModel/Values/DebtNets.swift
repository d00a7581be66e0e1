import HashTreeCollections
/// What each pair of people owes the other in the household, per currency, net of every live
/// shared transaction and every household settlement between them (S5, S6): the one running
/// sum, kept by the debt read model and read by the engine (H4, and S6's "not more than is owed").
///
/// A shared transaction adds its ``TransactionDetails/debts``; a settlement from `A` to `B`
/// lowers what `A` owes `B` by its amount (past zero: then `B` owes `A`, an advance). Sums are
/// `Int128`, exact for any number of `Int64` amounts; no entry is zero.
package struct DebtNets: Hashable, Sendable {
    /// Two people, lower id first, and a currency.
    @WireFields
    package struct Pair: Hashable, Comparable, Sendable {
        /// The lower id.
        package let low: PersonID
        /// The higher id.
        package let high: PersonID
        /// The currency.
        package let currency: Currency

        /// Creates a pair; `low` must sort before `high`.
        package init(low: PersonID, high: PersonID, currency: Currency) {
            (self.low, self.high, self.currency) = (low, high, currency)
        }

        /// Orders pairs by the lower id, the higher id, then currency.
        package static func < (lhs: Pair, rhs: Pair) -> Bool {
            (lhs.low, lhs.high, lhs.currency) < (rhs.low, rhs.high, rhs.currency)
        }
    }

    /// What `low` owes `high` per pair (negative: `high` owes `low`); never zero.
    package private(set) var nets: TreeDictionary<Pair, Int128> = [:]

    /// No debts.
    package init() {}

    /// Nets restored from a checkpoint (zero entries are dropped).
    package init(nets: [Pair: Int128]) { self.nets = TreeDictionary(uniqueKeysWithValues: nets.filter { $0.value != 0 }.map { ($0.key, $0.value) }) }

    /// Adds (`sign` 1) or removes (-1) what a live shared transaction makes people owe.
    package mutating func add(_ details: TransactionDetails, sign: Int128) {
        for debt in details.debts {
            add(debtor: debt.debtor, creditor: debt.creditor, currency: debt.amount.currency, sign * Int128(debt.amount.minorUnits))
        }
    }

    /// Applies a household settlement: its payer owes its receiver the amount less.
    package mutating func add(_ settlement: SettlementRecorded) {
        add(settlementFrom: settlement.from, to: settlement.to, amount: settlement.amount)
    }

    /// Applies a household settlement of `amount` paid by `from` to `to`.
    package mutating func add(settlementFrom from: PersonID, to: PersonID, amount: Money) {
        add(debtor: to, creditor: from, currency: amount.currency, Int128(amount.minorUnits))
    }

    /// Records that `debtor` owes `creditor` `minorUnits` more (negative: less).
    package mutating func add(debtor: PersonID, creditor: PersonID, currency: Currency, _ minorUnits: Int128) {
        guard debtor != creditor, minorUnits != 0 else { return }
        let pair = Pair(low: min(debtor, creditor), high: max(debtor, creditor), currency: currency)
        let net = (nets[pair] ?? 0) + (debtor < creditor ? minorUnits : -minorUnits)
        nets[pair] = net == 0 ? nil : net
    }

    /// What `debtor` owes `creditor` in `currency`, net (negative: the creditor owes the debtor).
    package func owed(by debtor: PersonID, to creditor: PersonID, in currency: Currency) -> Int128 {
        guard debtor != creditor else { return 0 }
        let net = nets[Pair(low: min(debtor, creditor), high: max(debtor, creditor), currency: currency)] ?? 0
        return debtor < creditor ? net : -net
    }

    /// Every non-zero net involving `person`, as (other person, currency, what `person` owes
    /// them), sorted by currency then the other person.
    package func nets(of person: PersonID) -> [(other: PersonID, currency: Currency, owed: Int128)] {
        nets.compactMap { pair, net -> (other: PersonID, currency: Currency, owed: Int128)? in
            if pair.low == person { return (pair.high, pair.currency, net) }
            if pair.high == person { return (pair.low, pair.currency, -net) }
            return nil
        }
        .sorted { ($0.currency, $0.other) < ($1.currency, $1.other) }
    }
}
