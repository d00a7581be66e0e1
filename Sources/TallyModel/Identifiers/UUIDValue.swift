/// A 16-byte UUID held as two big-endian 64-bit halves, without Foundation (G5).
///
/// Comparison is by bytes (the high half first), so sorting by id is the same on every platform.
public struct UUIDValue: Hashable, Comparable, Sendable {
    /// Bytes 0...7, big-endian.
    public let high: UInt64
    /// Bytes 8...15, big-endian.
    public let low: UInt64

    /// Creates a value from its two halves.
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Creates a value from exactly 16 bytes.
    /// - Returns: `nil` unless `bytes` has 16 elements.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 16 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for (offset, byte) in bytes.enumerated() {
            if offset < 8 { high = high << 8 | UInt64(byte) } else { low = low << 8 | UInt64(byte) }
        }
        self.init(high: high, low: low)
    }

    /// Parses the canonical `8-4-4-4-12` hexadecimal form. Upper- and lowercase hex digits are
    /// accepted; ``description`` always writes lowercase.
    /// - Throws: ``ModelError/invalidIdentifier(_:)`` for any other text.
    public init(parsing text: String) throws(ModelError) {
        var halves: (UInt64, UInt64) = (0, 0)
        var digits = 0
        var position = 0
        for byte in text.utf8 {
            defer { position += 1 }
            if position == 8 || position == 13 || position == 18 || position == 23 {
                guard byte == UInt8(ascii: "-") else { throw .invalidIdentifier(text) }
                continue
            }
            guard let nibble = UUIDValue.hexValue(byte) else { throw .invalidIdentifier(text) }
            if digits < 16 { halves.0 = halves.0 << 4 | nibble } else { halves.1 = halves.1 << 4 | nibble }
            digits += 1
        }
        guard position == 36, digits == 32 else { throw .invalidIdentifier(text) }
        self.init(high: halves.0, low: halves.1)
    }

    /// The 16 bytes, big-endian.
    public var bytes: [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(16)
        for shift in stride(from: 56, through: 0, by: -8) { result.append(UInt8(truncatingIfNeeded: high >> UInt64(shift))) }
        for shift in stride(from: 56, through: 0, by: -8) { result.append(UInt8(truncatingIfNeeded: low >> UInt64(shift))) }
        return result
    }

    /// Orders by bytes, most significant first.
    public static func < (lhs: UUIDValue, rhs: UUIDValue) -> Bool { (lhs.high, lhs.low) < (rhs.high, rhs.low) }

    private static func hexValue(_ byte: UInt8) -> UInt64? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt64(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt64(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt64(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}

extension UUIDValue: CustomStringConvertible {
    /// The canonical lowercase `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` form.
    public var description: String {
        let hexDigits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
