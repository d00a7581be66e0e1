/// An ISO 4217 currency code such as `CHF`, with the exponent of its minor unit (G1).
///
/// The code is stored packed into a `UInt32` (three ASCII letters), so currencies are cheap to
/// copy, hash and compare. ``init(_:)`` checks the form only (three uppercase letters) so that
/// every recorded event decodes; commands accept only the active ISO 4217 codes of
/// ``init(iso4217:)`` (the table in `Currency+ISO4217.swift`, with each code's exponent).
public struct Currency: Hashable, Comparable, Sendable {
    /// The three ASCII letters, first letter in the most significant of the low three bytes.
    @usableFromInline let packed: UInt32

    /// Creates a currency from its code.
    /// - Parameter code: exactly three uppercase ASCII letters, e.g. `"CHF"`.
    /// - Throws: ``ModelError/invalidCurrencyCode(_:)`` for anything else (lowercase included).
    public init(_ code: String) throws(ModelError) {
        var packed: UInt32 = 0
        var count = 0
        for byte in code.utf8 {
            guard count < 3, byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") else {
                throw .invalidCurrencyCode(code)
            }
            packed = packed << 8 | UInt32(byte)
            count += 1
        }
        guard count == 3 else { throw .invalidCurrencyCode(code) }
        self.packed = packed
    }

    /// Creates a currency from the three ASCII bytes of its code.
    /// - Throws: ``ModelError/invalidCurrencyCode(_:)`` unless all three are `A`...`Z`.
    public init(asciiBytes first: UInt8, _ second: UInt8, _ third: UInt8) throws(ModelError) {
        guard Currency.isLetter(first), Currency.isLetter(second), Currency.isLetter(third) else {
            throw .invalidCurrencyCode(String(decoding: [first, second, third], as: UTF8.self))
        }
        packed = UInt32(first) << 16 | UInt32(second) << 8 | UInt32(third)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
    }

    /// The three ASCII bytes of the code, in order.
    public var asciiBytes: (UInt8, UInt8, UInt8) {
        (UInt8(truncatingIfNeeded: packed >> 16), UInt8(truncatingIfNeeded: packed >> 8),
         UInt8(truncatingIfNeeded: packed))
    }

    /// The ISO 4217 code, e.g. `"CHF"`.
    public var code: String {
        let (first, second, third) = asciiBytes
        return String(decoding: [first, second, third], as: Unicode.ASCII.self)
    }

    /// Orders currencies alphabetically by code.
    public static func < (lhs: Currency, rhs: Currency) -> Bool { lhs.packed < rhs.packed }
}

extension Currency: CustomStringConvertible {
    /// The ISO 4217 code.
    public var description: String { code }
}
