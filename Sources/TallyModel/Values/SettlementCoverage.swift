/// Which open household items a settlement without an explicit list covers (S6): the rule the
/// debt read model applies (`DebtProjection.coveredItems(by:)`), whose settled items the engine
/// reads (it refuses edits of covered transactions, T2).
///
/// The items are the open ones between the two people in the settlement's currency, oldest
/// first (by date, then transaction id). A payer who owes nothing net settles no item (an
/// advance). Otherwise a payment of at least the net debt (the balance
/// before the payment: every live shared item and every earlier payment between the two)
/// covers them all. A smaller one covers every item the receiver owes (they offset the debt),
/// then the payer's items oldest first while the money available covers each one whole,
/// stopping at the first that does not fit. The money available is the payment plus what the
/// open items overstate the debt by (the receiver's items and earlier payments no item absorbed).
public enum SettlementCoverage {
    /// An open item between the payer and the receiver.
    public struct Item: Sendable, Equatable {
        /// Whether the payer owes it (otherwise the receiver owes it to the payer).
        public var isOwedByPayer: Bool
        /// Its amount in minor units.
        public var minorUnits: Int64

        /// Creates an item.
        public init(isOwedByPayer: Bool, minorUnits: Int64) {
            self.isOwedByPayer = isOwedByPayer
            self.minorUnits = minorUnits
        }
    }

    /// The indices (ascending) of the items a payment covers.
    /// - Parameters:
    ///   - items: the open items between payer and receiver, oldest first.
    ///   - payment: the payment in minor units.
    ///   - netOwed: what the payer owes the receiver before the payment (negative if the
    ///     receiver owes the payer).
    public static func covered(_ items: [Item], payment: Int64, netOwed: Int64) -> [Int] {
        // A payer who owes nothing net pays in advance: no item is settled by it.
        guard netOwed > 0 else { return [] }
        var owedByPayer = Int128(0)
        for item in items where item.isOwedByPayer { owedByPayer += Int128(item.minorUnits) }
        if Int128(payment) >= Int128(netOwed) { return Array(items.indices) }
        var available = Int128(payment) + owedByPayer - Int128(netOwed)
        var covered = items.indices.filter { !items[$0].isOwedByPayer }
        for index in items.indices where items[index].isOwedByPayer {
            guard Int128(items[index].minorUnits) <= available else { break }
            available -= Int128(items[index].minorUnits)
            covered.append(index)
        }
        return covered.sorted()
    }
}
