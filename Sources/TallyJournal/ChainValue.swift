import Crypto

/// A 32-byte value of the journal's hash chain (SHA-256, or HMAC-SHA256 with a chain key).
public struct ChainValue: Sendable, Hashable, CustomStringConvertible {
    /// The 32 bytes.
    public private(set) var bytes: [UInt8]

    /// The value every journal's chain starts from: 32 zero bytes.
    public static let genesis = ChainValue(unchecked: [UInt8](repeating: 0, count: 32))

    /// Creates a chain value from 32 bytes, or nil for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        self.bytes = bytes
    }

    init(unchecked bytes: [UInt8]) {
        precondition(bytes.count == 32, "a chain value has 32 bytes")
        self.bytes = bytes
    }

    /// Lowercase hex.
    public var description: String { Hex.string(bytes) }
}

/// Computes chain links: `next = H(previous ‖ frame header fields ‖ stored payload)`.
/// `package` so the JSON backup (TallyInterchange) chains its records with the same function
/// instead of a second hash chain.
package struct HashChain: Sendable {
    let key: [UInt8]?

    package init(key: [UInt8]?) {
        self.key = key
    }

    var isKeyed: Bool { key != nil }

    package func next(
        after previous: ChainValue, header: UnsafeRawBufferPointer, payload: UnsafeRawBufferPointer
    ) -> ChainValue {
        if let key {
            var mac = HMAC<SHA256>(key: SymmetricKey(data: key))
            mac.update(data: previous.bytes)
            mac.update(data: header)
            mac.update(data: payload)
            return ChainValue(unchecked: Array(mac.finalize()))
        }
        var hasher = SHA256()
        hasher.update(data: previous.bytes)
        hasher.update(bufferPointer: header)
        hasher.update(bufferPointer: payload)
        return ChainValue(unchecked: Array(hasher.finalize()))
    }
}

/// Lower-case hexadecimal for keys and chain values (key files, backups, reports).
public enum Hex {
    /// Two lower-case digits per byte.
    public static func string<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of `text`: an even number of hex digits (either case), nothing else (no sign,
    /// no prefix); `nil` otherwise.
    public static func bytes(_ text: some StringProtocol) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }
}
