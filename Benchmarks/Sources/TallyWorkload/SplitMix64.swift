/// SplitMix64 (Steele, Lea, Flood 2014): a tiny, fast, seedable generator. The workload uses it
/// instead of `SystemRandomNumberGenerator` so that a seed always yields the same history, on
/// every platform and Swift version (it also avoids the standard library's `random(in:)`,
/// whose reduction is an implementation detail).
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose output is fully determined by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A uniform integer in `0..<bound` (Lemire's multiply-high; bias below 2^-40 for the
    /// small bounds used here). `bound` must be positive.
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// A uniform integer in `range`.
    public mutating func value(in range: ClosedRange<Int64>) -> Int64 {
        range.lowerBound + Int64(below(Int(range.upperBound - range.lowerBound) + 1))
    }

    /// `true` with probability `percent` / 100.
    public mutating func chance(percent: Int) -> Bool {
        below(100) < percent
    }

    /// A uniformly chosen element of a non-empty array.
    public mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[below(elements.count)]
    }
}
