extension UUIDValue {
    /// A stable id derived from a namespace id and a name (an RFC 9562 version-8 UUID).
    ///
    /// The 128 bits are two FNV-1a 64-bit hashes of `namespace.bytes + name.utf8`, the second
    /// with a different offset basis; then the version nibble is set to 8 and the variant bits to
    /// `10`. The derivation is part of the stored format: preset category ids are derived this
    /// way (``CategoryPresets``), so it never changes.
    ///
    /// - Parameters:
    ///   - namespace: the scope, e.g. the household id.
    ///   - name: a name unique within the namespace, e.g. `"preset.expense.groceries"`.
    /// - Returns: the same value for the same inputs, on every platform and every run.
    public static func derived(namespace: UUIDValue, name: String) -> UUIDValue {
        let prime: UInt64 = 0x0000_0100_0000_01B3
        var first: UInt64 = 0xCBF2_9CE4_8422_2325
        var second: UInt64 = 0x6C62_272E_07BB_0142
        func mix(_ byte: UInt8) {
            first = (first ^ UInt64(byte)) &* prime
            second = (second ^ UInt64(byte)) &* prime
        }
        namespace.bytes.forEach(mix)
        name.utf8.forEach(mix)
        let high = (first & ~0xF000) | 0x8000
        let low = (second & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        return UUIDValue(high: high, low: low)
    }
}
