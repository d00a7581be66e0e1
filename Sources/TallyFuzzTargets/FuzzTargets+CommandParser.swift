import Tally

extension FuzzTargets {
    /// JSON command parser target: the input bytes, undecoded, are a JSON Lines file given to
    /// `CommandParser.parse(bytes:)` (which validates UTF-8 per line).
    ///
    /// Asserts: parsing returns commands or throws `CommandParseError` (typed) and never traps;
    /// an error names the line it stopped at, and parsing is deterministic.
    /// - Throws: ``FuzzFinding`` when a property fails.
    public static func commandParser(_ data: UnsafeRawBufferPointer) throws(FuzzFinding) {
        let bytes = Array(data)
        let first: Result<[Command], CommandParseError>
        do {
            first = .success(try CommandParser.parse(bytes: bytes))
        } catch {
            try require(error.lineNumber != nil, "a parse error without a line number: \(error)")
            first = .failure(error)
        }
        let second = Result { () throws(CommandParseError) in try CommandParser.parse(bytes: bytes) }
        try require(first == second, "parsing the same text twice gives different results")
    }
}
