/// SplitMix64: a small, fast, seeded generator so every randomized test is reproducible from
/// the seed it prints.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator from `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// One element of `elements`, which must not be empty; draws what `randomElement(using:)`
    /// draws, so a test may use either without changing its sequence.
    public mutating func pick<Element>(_ elements: [Element]) -> Element {
        precondition(!elements.isEmpty, "pick needs at least one element")
        return elements[Int.random(in: 0..<elements.count, using: &self)]
    }

    /// `count` random bytes.
    public mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &self) }
    }
}
