import Foundation
import TallyModel

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
    /// - Throws: ``CommandParseError`` naming the problem: a line over ``lineBytesMax``
    ///   (`lineTooLong`), invalid JSON, an unknown command, a missing field, a bad value, or a
    ///   field the command does not have (`unknownField`), each with the field's path.
    public static func parse(line: String) throws(CommandParseError) -> Command {
        let lineBytes = line.utf8.count
        guard lineBytes <= lineBytesMax else {
            throw CommandParseError(
                code: .lineTooLong, field: nil,
                message: "the line is \(lineBytes) bytes; the limit is \(lineBytesMax) (CommandParser.lineBytesMax): shorten its note or split its lists over several commands")
        }
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
        } catch {
            throw CommandParseError(code: .invalidJSON, field: nil, message: "the line is not valid JSON")
        }
        guard case .object(let values) = value else {
            throw CommandParseError(code: .invalidJSON, field: nil, message: "each line must be a JSON object, got \(value.typeName)")
        }
        let fields = JSONFields(values)
        let name = try fields.string("command")
        guard let parseAction = actions[name] else {
            throw CommandParseError(code: .unknownCommand, field: "command",
                                    message: "'\(name)' is not a command; see Docs/Commands.md for the list")
        }
        let actor: PersonID = try fields.id("actor")
        let command = Command(
            commandID: try fields.id("commandID"), actor: actor, recordedAt: try fields.timestamp("recordedAt"),
            action: try parseAction(fields, actor))
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
        var commands: [Command] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("//") { continue }
            do {
                commands.append(try parse(line: String(trimmed)))
            } catch {
                var located = error
                located.lineNumber = index + 1
                throw located
            }
        }
        return commands
    }

    /// The names of every command of the schema, sorted.
    public static var commandNames: [String] { actions.keys.sorted() }

    typealias ActionParser = @Sendable (JSONFields, PersonID) throws(CommandParseError) -> CommandAction

    static let actions: [String: ActionParser] = householdActions
        .merging(walletActions) { first, _ in first }
        .merging(transactionActions) { first, _ in first }
        .merging(sharingActions) { first, _ in first }
        .merging(budgetActions) { first, _ in first }
}
