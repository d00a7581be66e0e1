/// One person's weight in a "shares" group split, e.g. 2 in a 2:1:1 split (S7).
@WireFields
public struct MemberWeight: Hashable, Sendable {
    /// The person.
    public var person: PersonID
    /// Their number of shares, non-negative.
    public var weight: Int64

    /// Creates an entry.
    public init(person: PersonID, weight: Int64) {
        self.person = person
        self.weight = weight
    }
}
