/// The JSON value of every target: read models write it (canonical JSON), the strict parser
/// of command lines reads into it (`StrictJSONParser` in Tally), and the CLI writes its result
/// lines and compares golden files with it. A value has exactly one serialization.
///
/// Objects are written with keys sorted by their UTF-8 bytes, no whitespace, integers only
/// (no floating point anywhere), strings escaped minimally (`"`, `\`, and control characters as
/// `\n`, `\r`, `\t` or `\u00XX`; everything else as raw UTF-8). Two equal values always give
/// identical bytes. `JSONEncoder` is deliberately not used: its key order and number formatting
/// are not a stable contract. Numbers never pass through floating point (G1, G2): the parser
/// keeps a number literal that is not an `Int64` integer as its exact text (``number(_:)``), so
/// that a field expecting an integer can refuse it by name; nothing else makes one.
public indirect enum CanonicalJSON: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number.
    case integer(Int64)
    /// A number literal that is not an `Int64` integer, exactly as read (`1.0`, `1e2`,
    /// `99999999999999999999`), written back as that text. Only the parser makes one (the
    /// literal's initializer is not public), so it is always valid JSON; read models never do.
    case number(NumberLiteral)
    /// A string.
    case string(String)
    /// An array, in the given order.
    case array([CanonicalJSON])
    /// An object; keys are sorted when written.
    case object([String: CanonicalJSON])

    /// The canonical bytes (UTF-8).
    public func serialized() -> [UInt8] {
        var bytes: [UInt8] = []
        write(to: &bytes)
        return bytes
    }

    /// The canonical text.
    public var text: String { String(decoding: serialized(), as: UTF8.self) }

    /// One object with its members in the given order, not sorted, for lines a person reads
    /// (`{"line":3,"status":"ok",...}`); keys and values are written as canonical JSON. Not
    /// canonical itself: two orders give two texts.
    public static func text(orderedMembers members: [(key: String, value: CanonicalJSON)]) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        for (index, member) in members.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            writeString(member.key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            member.value.write(to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    private func write(to bytes: inout [UInt8]) {
        switch self {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let value): bytes.append(contentsOf: (value ? "true" : "false").utf8)
        case .integer(let value): bytes.append(contentsOf: String(value).utf8)
        case .number(let literal): bytes.append(contentsOf: literal.text.utf8)
        case .string(let value): Self.writeString(value, to: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                element.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (index, member) in sorted.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                Self.writeString(member.key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                member.value.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ string: String, to bytes: inout [UInt8]) {
        let hexDigits = Array("0123456789abcdef".utf8)
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: "\\\\".utf8)
            case 0x0A: bytes.append(contentsOf: "\\n".utf8)
            case 0x0D: bytes.append(contentsOf: "\\r".utf8)
            case 0x09: bytes.append(contentsOf: "\\t".utf8)
            case 0x00..<0x20:
                bytes.append(contentsOf: "\\u00".utf8)
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

extension CanonicalJSON {
    /// The exact text of a JSON number literal, as the strict parser read it (RFC 8259
    /// grammar); nothing outside the package can make one, so writing it back never makes
    /// invalid JSON.
    public struct NumberLiteral: Hashable, Sendable, CustomStringConvertible {
        /// The literal's text.
        public let text: String

        /// A literal the caller has checked against the JSON number grammar.
        package init(checkedText text: String) { self.text = text }

        public var description: String { text }
    }
}
