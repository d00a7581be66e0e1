/// How a shared recurring item splits among people (R1): each occurrence's price is split by
/// these weights with the largest-remainder rule (S3), so the shares always sum to the price.
///
/// `equal` weighs everyone 1, `percent` in basis points summing to 10000, `exact` in minor
/// units summing to the price at creation: at that price the shares are the amounts entered;
/// after a price change they split the new price in the same proportions. `free` weighs
/// everyone 0: the payer bears the whole price and the people listed share the item at no
/// cost (Swiff 1.1.2 SharedSubscription). The people may be members or contacts.
@WireFields
public struct TemplateSharing: Hashable, Sendable {
    /// How the weights were entered.
    public var kind: TemplateSharingKind
    /// One weight per person, in the order entered.
    public var weights: [MemberWeight]

    /// Creates the sharing.
    public init(kind: TemplateSharingKind, weights: [MemberWeight]) {
        self.kind = kind
        self.weights = weights
    }
}

/// How a recurring item's split was entered (R1). Raw values are stored in events.
public enum TemplateSharingKind: UInt8, CaseIterable, Hashable, Sendable {
    /// Equal parts: every weight is 1.
    case equal = 0
    /// Exact amounts in minor units, summing to the price at creation.
    case exact = 1
    /// Percentages in basis points, summing to 10000.
    case percent = 2
    /// Shared at no cost: every weight 0, the payer bears the price.
    case free = 3
}

extension TemplateSharing {
    /// The split of `amount` by the weights (S3: largest remainder, `payer` first in ties), with
    /// the ratios those weights make in basis points for the record. When the weights sum to
    /// zero (`free`), the payer bears the whole amount and every person listed has a zero part,
    /// so they see the item (G7) and owe nothing (S5). The one split an occurrence is posted
    /// with and a subscription's cost per person is shown with.
    /// - Throws: ``ModelError`` when the split cannot be resolved (a negative weight, overflow).
    public func split(_ amount: Money, payer: PersonID) throws(ModelError) -> TransactionSplit {
        var weighted: [(person: PersonID, weight: Int64)] = weights.map { (person: $0.person, weight: $0.weight) }
        if weighted.allSatisfy({ $0.weight == 0 }) {
            weighted.removeAll { $0.person == payer }
            weighted.insert((person: payer, weight: 1), at: 0)
        }
        let shares = try Allocation.split(amount, weights: weighted, payer: payer)
        let basisPoints = try Allocation.allocate(10_000, weights: weighted.map { (key: $0.person, weight: $0.weight) }, preferred: payer)
        var ratios: [MemberRatio] = []
        for (entry, points) in zip(weighted, basisPoints) {
            ratios.append(MemberRatio(person: entry.person, ratio: try Ratio(basisPoints: points)))
        }
        return TransactionSplit(ratios: ratios, isOverride: true, shares: shares)
    }
}
