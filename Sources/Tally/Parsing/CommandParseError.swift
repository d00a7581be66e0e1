/// Why a line of the JSON command schema could not be turned into a ``Command``.
public struct CommandParseError: Error, Sendable, Equatable {
    /// The kind of problem; the raw value is a stable code.
    public enum Code: String, Sendable {
        /// The line is not strict JSON (RFC 8259: no trailing commas, comments, leading zeros,
        /// `-0`, lone surrogates), or not an object; ``CommandParseError/column`` says where.
        case invalidJSON
        /// A key appears twice in one object; ``CommandParseError/field`` names it.
        case duplicateKey
        /// The line holds bytes that are not UTF-8; ``CommandParseError/column`` is the first.
        case invalidUTF8
        /// Arrays and objects nest deeper than `StrictJSONParser.depthMax` (32).
        case nestingTooDeep
        /// The `command` field names no known command.
        case unknownCommand
        /// A required field is absent.
        case missingField
        /// A field is present but its value is not acceptable.
        case badValue
        /// A field the command does not have (a misspelt optional field, say); `field` names it.
        case unknownField
        /// The line is longer than ``CommandParser/lineBytesMax``.
        case lineTooLong
    }

    /// The kind of problem.
    public let code: Code
    /// The field at fault, if any (`"amount"`, `"ratios[1].person"`).
    public let field: String?
    /// What is wrong, for a person fixing the file.
    public let message: String
    /// The 1-based line number when parsing a file.
    public var lineNumber: Int?
    /// The 1-based byte column within the line of a JSON syntax, UTF-8 or duplicate-key error.
    public var column: Int?

    /// Creates an error.
    public init(code: Code, field: String?, column: Int? = nil, message: String, lineNumber: Int? = nil) {
        self.code = code
        self.field = field
        self.column = column
        self.message = message
        self.lineNumber = lineNumber
    }

    static func missing(_ field: String) -> CommandParseError {
        CommandParseError(code: .missingField, field: field, message: "the field \"\(field)\" is required")
    }

    static func bad(_ field: String, _ reason: String) -> CommandParseError {
        CommandParseError(code: .badValue, field: field, message: "\"\(field)\": \(reason)")
    }
}

extension CommandParseError: CustomStringConvertible {
    /// `line N, column C: code: message` (each location part only when known).
    public var description: String {
        let location = [lineNumber.map { "line \($0)" }, column.map { "column \($0)" }].compactMap { $0 }
        return (location.isEmpty ? "" : location.joined(separator: ", ") + ": ") + "\(code.rawValue): \(message)"
    }
}
