import TallyModel
import TallyProjections

/// Parses the JSON command schema: one command per line (JSON Lines), documented in
/// `Docs/Commands.md`.
///
/// Every line is an object with `command` (the action's name), `commandID`, `actor`,
/// `recordedAt` (`YYYY-MM-DDTHH:MM:SS.sssZ`, UTC) and the action's fields. Money is
/// `{"minorUnits": 1234, "currency": "CHF"}` or the string `"CHF 12.34"`; dates are
/// `YYYY-MM-DD`; ids are UUID strings; ratios are basis points.
public enum CommandParser {
    /// The longest command line accepted, in UTF-8 bytes (256 KiB): room for the longest note
    /// fully escaped and the longest `covers` list (``LedgerLimits``), and a bound on what one
    /// line may make the decoder allocate.
    public static let lineBytesMax = 256 * 1024

    /// Parses one line.
    /// - Throws: ``CommandParseError`` as ``parse(lineBytes:)`` does.
    public static func parse(line: String) throws(CommandParseError) -> Command {
        try parse(lineBytes: Array(line.utf8))
    }

    /// Parses one line given as the bytes read (no line break), validating its UTF-8 first.
    /// - Throws: ``CommandParseError`` naming the problem: a line over ``lineBytesMax``
    ///   (`lineTooLong`); bytes that are not UTF-8 (`invalidUTF8`), JSON outside RFC 8259
    ///   (`invalidJSON`), a key twice in one object (`duplicateKey`) or nesting over 32
    ///   (`nestingTooDeep`), each with its byte ``CommandParseError/column``; a line that is
    ///   not an object, an unknown command, a missing field, a bad value (a fractional or
    ///   out-of-range number where an integer is expected included), or a field the command
    ///   does not have (`unknownField`), each with the field's path.
    public static func parse(lineBytes: [UInt8]) throws(CommandParseError) -> Command {
        guard lineBytes.count <= lineBytesMax else {
            throw CommandParseError(
                code: .lineTooLong, field: nil,
                message: "the line is \(lineBytes.count) bytes; the limit is \(lineBytesMax) (CommandParser.lineBytesMax): shorten its note or split its lists over several commands")
        }
        let value = try StrictJSONParser.parse(lineBytes)
        guard case .object(let values) = value else {
            throw CommandParseError(code: .invalidJSON, field: nil, message: "each line must be a JSON object, got \(value.typeName)")
        }
        let fields = JSONFields(values)
        let name: String = try fields.field("command")
        guard names.contains(name) else { throw unknownCommand(name) }
        let actor: PersonID = try fields.field("actor")
        let commandID: CommandID = try fields.field("commandID")
        let recordedAt: Timestamp = try fields.field("recordedAt")
        let command = Command(commandID: commandID, actor: actor, recordedAt: recordedAt, action: try action(named: name, fields))
        if let unknown = fields.log.unconsultedFields.first {
            throw CommandParseError(
                code: .unknownField, field: unknown,
                message: "\"\(unknown)\" is not a field of \(name); check its spelling against Docs/Commands.md (nothing was recorded)")
        }
        return command
    }

    /// Parses a JSON Lines text; blank lines and lines starting with `//` are skipped.
    /// - Throws: the first ``CommandParseError``, with its ``CommandParseError/lineNumber``.
    public static func parse(lines text: String) throws(CommandParseError) -> [Command] {
        try parse(bytes: Array(text.utf8))
    }

    /// Parses a JSON Lines file as read (bytes, not yet decoded): each line's UTF-8 is
    /// validated where it is parsed, so a bad byte is reported with its line and column, never
    /// replaced by U+FFFD. Blank lines and lines starting with `//` are skipped.
    /// - Throws: the first ``CommandParseError``, with its ``CommandParseError/lineNumber``.
    public static func parse(bytes: [UInt8]) throws(CommandParseError) -> [Command] {
        var commands: [Command] = []
        for line in commandLines(in: bytes) {
            do {
                commands.append(try parse(lineBytes: line.bytes))
            } catch {
                var located = error
                located.lineNumber = line.lineNumber
                throw located
            }
        }
        return commands
    }

    /// The lines of a JSON Lines file that hold commands, with their 1-based line numbers:
    /// lines are split at LF bytes (a CR before it is JSON whitespace); lines of only spaces,
    /// tabs and CRs, and lines whose first other bytes are `//`, are left out. The bytes are
    /// not decoded here; ``parse(lineBytes:)`` validates them.
    public static func commandLines(in bytes: [UInt8]) -> [(lineNumber: Int, bytes: [UInt8])] {
        var result: [(lineNumber: Int, bytes: [UInt8])] = []
        for (index, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let content = line.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
            if content.isEmpty || content.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) { continue }
            result.append((index + 1, Array(line)))
        }
        return result
    }

    /// The names of every command of the schema, sorted.
    public static var commandNames: [String] { names.sorted() }

    private static let names = Set(CommandAction.schema.map(\.name))

    private static func action(named name: String, _ fields: JSONFields) throws(CommandParseError) -> CommandAction {
        guard let action = try CommandAction.parseFields(of: name, from: fields) else { throw unknownCommand(name) }
        return action
    }

    private static func unknownCommand(_ name: String) -> CommandParseError {
        CommandParseError(code: .unknownCommand, field: "command", message: "'\(name)' is not a command; see Docs/Commands.md for the list")
    }
}
