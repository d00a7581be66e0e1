import Foundation

/// A parsed CSV file: the detected delimiter, the header and the rows (strict RFC 4180
/// quoting, Docs/Interchange.md).
public struct CSVTable: Sendable, Equatable {
    /// The delimiters tried, in order of preference on a tie.
    public static let delimiters: [Character] = [",", ";", "\t"]

    /// The delimiter used.
    public let delimiter: Character
    /// The first line's fields.
    public let header: [String]
    /// The 1-based line of the file the header is on (1, unless blank lines come first).
    public let headerLine: Int
    /// The following lines' fields (blank lines skipped).
    public let rows: [[String]]
    /// For each row, the 1-based line of the file it starts on (the header is line 1, unless
    /// blank lines or a quoted line break come first).
    public let rowLines: [Int]

    /// Parses the bytes of a CSV file: a leading UTF-8 byte order mark is dropped, the rest
    /// must be valid UTF-8 (nothing is replaced), then parsed as ``parse(_:)`` does.
    ///
    /// - Throws: `InterchangeError` with code `csvInvalidUTF8` naming the line, or any error of
    ///   ``parse(_:)``.
    public static func parse(bytes: some Collection<UInt8>) throws(InterchangeError) -> CSVTable {
        try parse(CSVText.decode(bytes))
    }

    /// Parses `text`, detecting the delimiter: the candidate that splits the header into the
    /// most fields and gives every row the same number of fields as the header. A leading
    /// byte order mark (U+FEFF) is dropped.
    ///
    /// Quoting is strict RFC 4180: a quote opens a field only as its first character, a quote
    /// inside a quoted field is doubled, and a closing quote is followed by a delimiter, a line
    /// break or the end of the file.
    ///
    /// - Throws: `InterchangeError` with code `csvEmpty`, `csvQuoteUnbalanced` (a quote never
    ///   closed, naming the line it opens on), `csvQuoteMisplaced` (a quote inside an unquoted
    ///   field or text after a closing quote, naming the line), or `csvDelimiterUnknown`
    ///   (naming the first line whose field count differs from the header's).
    public static func parse(_ text: String) throws(InterchangeError) -> CSVTable {
        var scalars = text.unicodeScalars[...]
        if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
        guard scalars.contains(where: { !CSVRecordParser.isLineBreak($0) }) else {
            throw InterchangeError(code: "csvEmpty", message: "the file has no header line")
        }
        var best: CSVTable?
        var furthestError: (line: Int, error: InterchangeError)?
        var firstMismatch: (fields: Int, line: Int, count: Int, expected: Int)?
        for delimiter in delimiters {
            let records: [CSVRecordParser.Record]
            do {
                records = try CSVRecordParser(delimiter: delimiter).records(of: scalars)
            } catch {
                if furthestError.map({ error.line > $0.line }) ?? true { furthestError = (error.line, error.error) }
                continue
            }
            guard let header = records.first, header.fields.count > 1 else { continue }
            let rows = records.dropFirst()
            if let odd = rows.first(where: { $0.fields.count != header.fields.count }) {
                if firstMismatch.map({ header.fields.count > $0.fields }) ?? true {
                    firstMismatch = (header.fields.count, odd.line, odd.fields.count, header.fields.count)
                }
                continue
            }
            let table = CSVTable(
                delimiter: delimiter, header: header.fields, headerLine: header.line, rows: rows.map(\.fields), rowLines: rows.map(\.line))
            if best.map({ table.header.count > $0.header.count }) ?? true { best = table }
        }
        if let best { return best }
        if let furthestError { throw furthestError.error }
        let detail = firstMismatch.map { " (line \($0.line) has \($0.count) fields, the header \($0.expected))" } ?? ""
        throw InterchangeError(code: "csvDelimiterUnknown", message: "no delimiter (, ; tab) splits every line into the header's number of fields\(detail); quote fields that hold the delimiter")
    }

    /// A field quoted when needed.
    public static func quoted(_ field: String, delimiter: Character) -> String {
        guard field.contains(delimiter) || field.contains("\"") || field.contains("\n") || field.contains("\r") else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
