import TallyProjections

/// A strict RFC 8259 parser for one command line, written for the command schema because
/// Foundation's `JSONDecoder`/`JSONSerialization` accept duplicate keys (the last or first one
/// wins silently) and read numbers through `Double`; no package the project can depend on
/// rejects duplicate keys (Docs/Commands.md, "Why a parser of our own").
///
/// Refuses, with the 1-based byte ``CommandParseError/column``: anything outside RFC 8259
/// (trailing commas, comments, single quotes, `NaN`, leading zeros, a bare `-`...), a key that
/// appears twice in one object (`duplicateKey`), bytes that are not UTF-8 (`invalidUTF8`), a
/// lone surrogate escape, nesting deeper than ``depthMax`` (`nestingTooDeep`), and `-0`.
/// Number literals keep their exact text (``CanonicalJSON/number(_:)``) unless they are integers
/// that fit `Int64`. The CLI reads golden read-model files with it too (`tally verify`).
package struct StrictJSONParser {
    /// The deepest nesting of arrays and objects accepted (STYLE 7). The schema needs 3
    /// (`covers[0].transaction`); 32 leaves room and bounds the recursion.
    static let depthMax = 32

    private let bytes: [UInt8]
    private var index = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Parses `bytes` as exactly one JSON value surrounded by optional whitespace.
    /// - Throws: ``CommandParseError`` (`invalidJSON`, `duplicateKey`, `invalidUTF8`,
    ///   `nestingTooDeep`) with the column of the offending byte.
    package static func parse(_ bytes: [UInt8]) throws(CommandParseError) -> CanonicalJSON {
        try requireUTF8(bytes)
        var parser = StrictJSONParser(bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.failure("unexpected \(parser.describeCurrent()) after the value") }
        return value
    }

    /// Throws `invalidUTF8` at the first byte that does not start a valid UTF-8 sequence
    /// (overlong forms, surrogates and values over U+10FFFF included), inside strings or not.
    static func requireUTF8(_ bytes: [UInt8]) throws(CommandParseError) {
        var iterator = bytes.makeIterator()
        var decoder = Unicode.UTF8.ForwardParser()
        var offset = 0
        while true {
            switch decoder.parseScalar(from: &iterator) {
            case .valid(let encoded):
                offset += encoded.count
            case .emptyInput:
                return
            case .error:
                throw CommandParseError(
                    code: .invalidUTF8, field: nil, column: offset + 1,
                    message: "byte 0x\(String(bytes[offset], radix: 16, uppercase: true)) is not valid UTF-8; save the file as UTF-8")
            }
        }
    }

    // MARK: Values

    private mutating func parseValue(depth: Int) throws(CommandParseError) -> CanonicalJSON {
        guard let byte = peek() else { throw failure("the line ends where a value was expected") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw failure("unexpected \(describeCurrent()) where a value was expected")
        }
    }

    private mutating func parseObject(depth: Int) throws(CommandParseError) -> CanonicalJSON {
        try requireDepth(depth)
        index += 1
        var members: [String: CanonicalJSON] = [:]
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw failure("expected a key in double quotes, got \(describeCurrent())") }
            let keyColumn = index + 1
            let key = try parseString()
            guard members[key] == nil else {
                throw CommandParseError(
                    code: .duplicateKey, field: key, column: keyColumn,
                    message: "the key \"\(key)\" appears twice in one object; keep one")
            }
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "':' after the key \"\(key)\"")
            skipWhitespace()
            members[key] = try parseValue(depth: depth)
            if try continuesAfterElement(closing: "}", in: "an object") { continue }
            return .object(members)
        }
    }

    private mutating func parseArray(depth: Int) throws(CommandParseError) -> CanonicalJSON {
        try requireDepth(depth)
        index += 1
        var items: [CanonicalJSON] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            skipWhitespace()
            items.append(try parseValue(depth: depth))
            if try continuesAfterElement(closing: "]", in: "an array") { continue }
            return .array(items)
        }
    }

    /// After a member or an element: true when a comma announces another; a comma right
    /// before the closing bracket is refused; otherwise the closing bracket is consumed.
    private mutating func continuesAfterElement(closing: Unicode.Scalar, in container: String) throws(CommandParseError) -> Bool {
        skipWhitespace()
        if peek() == UInt8(ascii: ",") {
            index += 1
            skipWhitespace()
            if peek() == UInt8(ascii: closing) { throw failure("a trailing comma before '\(closing)'; remove it") }
            return true
        }
        try expect(UInt8(ascii: closing), "',' or '\(closing)' in \(container)")
        return false
    }

    private func requireDepth(_ depth: Int) throws(CommandParseError) {
        guard depth <= Self.depthMax else {
            throw CommandParseError(
                code: .nestingTooDeep, field: nil, column: index + 1,
                message: "arrays and objects nest deeper than \(Self.depthMax) (StrictJSONParser.depthMax)")
        }
    }

    // MARK: Numbers

    /// `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`, kept exact.
    private mutating func parseNumber() throws(CommandParseError) -> CanonicalJSON {
        let start = index
        let negative = peek() == UInt8(ascii: "-")
        if negative { index += 1 }
        guard let first = peek(), isDigit(first) else { throw failure("a '-' must be followed by digits") }
        index += 1
        if first == UInt8(ascii: "0"), let next = peek(), isDigit(next) {
            throw failure("a number with a leading zero; write it without the zero")
        }
        skipDigits()
        var isInteger = true
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard let digit = peek(), isDigit(digit) else { throw failure("a '.' must be followed by digits") }
            skipDigits()
            isInteger = false
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard let digit = peek(), isDigit(digit) else { throw failure("an exponent must have digits") }
            skipDigits()
            isInteger = false
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        let literal = CanonicalJSON.NumberLiteral(checkedText: text)  // the grammar was checked above
        guard isInteger else { return .number(literal) }
        if text == "-0" {
            throw CommandParseError(code: .invalidJSON, field: nil, column: start + 1, message: "-0 is not accepted; write 0")
        }
        return Self.exactInteger(bytes[start..<index], negative: negative).map(CanonicalJSON.integer) ?? .number(literal)
    }

    /// The literal's value when it fits `Int64` (overflow-checked), else `nil`.
    private static func exactInteger(_ literal: ArraySlice<UInt8>, negative: Bool) -> Int64? {
        var value: Int64 = 0
        for byte in literal where byte != UInt8(ascii: "-") {
            let digit = Int64(byte - UInt8(ascii: "0"))
            let (product, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowB) = negative ? product.subtractingReportingOverflow(digit) : product.addingReportingOverflow(digit)
            guard !overflowA, !overflowB else { return nil }
            value = next
        }
        return value
    }

    private mutating func skipDigits() {
        while let byte = peek(), isDigit(byte) { index += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    // MARK: Strings

    /// A string from the opening quote; validates UTF-8 and escapes.
    private mutating func parseString() throws(CommandParseError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        while true {
            guard let byte = peek() else { throw failure("the line ends inside a string; close it with '\"'") }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                scalars.append(try parseEscape())
            case 0..<0x20:
                throw failure("a control character (byte \(byte)) inside a string; escape it (\\n, \\t, \\u00XX)")
            case 0..<0x80:
                scalars.append(Unicode.Scalar(byte))
                index += 1
            default:
                scalars.append(try parseUTF8Scalar())
            }
        }
    }

    /// One multi-byte UTF-8 sequence, strictly (no overlong forms, surrogates or values over
    /// U+10FFFF), as the standard library's decoder defines it.
    private mutating func parseUTF8Scalar() throws(CommandParseError) -> Unicode.Scalar {
        var iterator = bytes[index...].makeIterator()
        var decoder = Unicode.UTF8.ForwardParser()
        switch decoder.parseScalar(from: &iterator) {
        case .valid(let encoded):
            index += encoded.count
            return Unicode.UTF8.decode(encoded)
        case .error, .emptyInput:
            throw CommandParseError(
                code: .invalidUTF8, field: nil, column: index + 1,
                message: "byte 0x\(String(bytes[index], radix: 16, uppercase: true)) is not valid UTF-8; save the file as UTF-8")
        }
    }

    private mutating func parseEscape() throws(CommandParseError) -> Unicode.Scalar {
        index += 1
        guard let byte = peek() else { throw failure("the line ends inside an escape") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"): return try parseUnicodeEscape()
        default:
            index -= 1
            throw failure("'\\\(describeCurrent())' is not a JSON escape")
        }
    }

    /// `\uXXXX`, with a high surrogate required to be followed by `\uDC00`-`\uDFFF`.
    private mutating func parseUnicodeEscape() throws(CommandParseError) -> Unicode.Scalar {
        let start = index - 2
        let high = try parseHex4()
        var value = UInt32(high)
        if (0xD800...0xDBFF).contains(high) {
            guard peek() == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                throw CommandParseError(code: .invalidJSON, field: nil, column: start + 1, message: "a lone surrogate \\u escape is not a character")
            }
            index += 2
            let low = try parseHex4()
            guard (0xDC00...0xDFFF).contains(low) else {
                throw CommandParseError(code: .invalidJSON, field: nil, column: start + 1, message: "a lone surrogate \\u escape is not a character")
            }
            value = 0x10000 + (UInt32(high - 0xD800) << 10) + UInt32(low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw CommandParseError(code: .invalidJSON, field: nil, column: start + 1, message: "a lone surrogate \\u escape is not a character")
        }
        return scalar
    }

    private mutating func parseHex4() throws(CommandParseError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard let byte = peek() else { throw failure("the line ends inside a \\u escape") }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("a \\u escape needs four hex digits")
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    // MARK: Bytes

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(CommandParseError) {
        let expected = literal.withUTF8Buffer { Array($0) }
        guard bytes.count - index >= expected.count, Array(bytes[index..<(index + expected.count)]) == expected else {
            throw failure("unexpected \(describeCurrent()) where a value was expected")
        }
        index += expected.count
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(CommandParseError) {
        guard peek() == byte else { throw failure("expected \(what), got \(describeCurrent())") }
        index += 1
    }

    /// The byte at the cursor for messages: a printable ASCII character, a byte value, or the
    /// end of the line.
    private func describeCurrent() -> String {
        guard let byte = peek() else { return "the end of the line" }
        if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private func failure(_ reason: String) -> CommandParseError {
        CommandParseError(code: .invalidJSON, field: nil, column: index + 1, message: reason)
    }
}
