/// Makes reproducible ids from a seed, for tests, examples and recorded command logs (G5).
///
/// Uses SplitMix64; each id is a version-4-shaped UUID whose bits come from the seed, so the
/// same seed always yields the same sequence of ids. Not for production ids: hosts should supply
/// random UUIDs.
public struct DeterministicIDGenerator: Sendable {
    private var state: UInt64

    /// Creates a generator.
    /// - Parameter seed: any value; equal seeds give equal sequences.
    public init(seed: UInt64) { state = seed }

    /// The next UUID in the sequence.
    public mutating func nextUUID() -> UUIDValue {
        let high = (nextWord() & ~0xF000) | 0x4000
        let low = (nextWord() & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        return UUIDValue(high: high, low: low)
    }

    /// The next id of the requested kind, e.g. `let wallet: WalletID = generator.next()`.
    public mutating func next<Kind>() -> Identifier<Kind> { Identifier(nextUUID()) }

    private mutating func nextWord() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
