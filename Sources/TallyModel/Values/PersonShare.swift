/// One person's part of a split amount, resolved to minor units (G4, S3).
@WireFields
public struct PersonShare: Hashable, Sendable {
    /// The person who owes (or is credited) this part.
    public var person: PersonID
    /// The part, in the split amount's currency.
    public var amount: Money

    /// Creates a share.
    public init(person: PersonID, amount: Money) {
        self.person = person
        self.amount = amount
    }
}
