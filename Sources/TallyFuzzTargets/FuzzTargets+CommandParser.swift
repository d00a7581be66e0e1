import Tally

extension FuzzTargets {
    /// JSON command parser target: the input, decoded as UTF-8 (invalid sequences replaced),
    /// is a JSON Lines text given to `CommandParser.parse(lines:)`.
    ///
    /// Asserts: parsing returns commands or throws `CommandParseError` (typed) and never traps;
    /// an error names the line it stopped at, and parsing is deterministic.
    /// - Throws: ``FuzzFinding`` when a property fails.
    public static func commandParser(_ data: UnsafeRawBufferPointer) throws(FuzzFinding) {
        let text = String(decoding: data, as: UTF8.self)
        let first: Result<[Command], CommandParseError>
        do {
            first = .success(try CommandParser.parse(lines: text))
        } catch {
            try require(error.lineNumber != nil, "a parse error without a line number: \(error)")
            first = .failure(error)
        }
        let second = Result { () throws(CommandParseError) in try CommandParser.parse(lines: text) }
        try require(first == second, "parsing the same text twice gives different results")
    }
}
