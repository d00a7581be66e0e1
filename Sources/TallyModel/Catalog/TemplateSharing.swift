/// How a shared recurring item splits among people (R1): each occurrence's price is split by
/// these weights with the largest-remainder rule (S3), so the shares always sum to the price.
///
/// `equal` weighs everyone 1, `percent` in basis points summing to 10000, `exact` in minor
/// units summing to the price at creation: at that price the shares are the amounts entered;
/// after a price change they split the new price in the same proportions.
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
}
