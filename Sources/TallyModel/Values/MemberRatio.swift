/// One person's ratio in a household split or a percentage split (S1, S7).
@WireFields
public struct MemberRatio: Hashable, Sendable {
    /// The person.
    public var person: PersonID
    /// Their share of the whole, in basis points.
    public var ratio: Ratio

    /// Creates an entry.
    public init(person: PersonID, ratio: Ratio) {
        self.person = person
        self.ratio = ratio
    }
}
