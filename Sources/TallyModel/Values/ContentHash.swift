/// The SHA-256 digest of a file the host keeps (T6): how an attachment names its bytes, which
/// the engine never holds. Written as 64 hexadecimal digits.
public struct ContentHash: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The digest's 32 bytes.
    public let bytes: [UInt8]

    /// The number of bytes of a SHA-256 digest.
    public static let byteCount = 32

    /// A digest from its 32 bytes.
    /// - Throws: ``ModelError/invalidContentHash(_:)`` for any other length.
    public init(bytes: [UInt8]) throws(ModelError) {
        guard bytes.count == Self.byteCount else {
            throw .invalidContentHash("\(bytes.count) bytes")
        }
        self.bytes = bytes
    }

    /// A digest from 64 hexadecimal digits (either case).
    /// - Throws: ``ModelError/invalidContentHash(_:)`` naming the text.
    public init(hex text: String) throws(ModelError) {
        let digits = Array(text.utf8)
        guard digits.count == Self.byteCount * 2 else { throw .invalidContentHash(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.byteCount)
        var index = 0
        while index < digits.count {
            guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1]) else {
                throw .invalidContentHash(text)
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        self.bytes = bytes
    }

    /// The 64 lowercase hexadecimal digits.
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The ``hex`` form.
    public var description: String { hex }

    /// Orders digests by their bytes.
    public static func < (lhs: ContentHash, rhs: ContentHash) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
