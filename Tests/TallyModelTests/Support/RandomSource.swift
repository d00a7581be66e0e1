/// A small seeded random source (SplitMix64) for building test values deterministically.
struct RandomSource: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A random value of any ``Arbitrary`` type, inferred from the context.
    mutating func make<Value: Arbitrary>(_ type: Value.Type = Value.self) -> Value {
        Value.arbitrary(using: &self)
    }

    /// Picks one element of a non-empty array.
    mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[Int.random(in: 0..<elements.count, using: &self)]
    }
}
