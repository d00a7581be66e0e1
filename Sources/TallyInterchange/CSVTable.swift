import Foundation
/// A parsed CSV file: the detected delimiter, the header and the rows (RFC 4180 quoting).
public struct CSVTable: Sendable, Equatable {
    /// The delimiters tried, in order of preference on a tie.
    public static let delimiters: [Character] = [",", ";", "\t"]

    /// The delimiter used.
    public let delimiter: Character
    /// The first line's fields.
    public let header: [String]
    /// The following lines' fields (blank lines skipped).
    public let rows: [[String]]

    /// Parses `text`, detecting the delimiter: the candidate that splits the header into the
    /// most fields and gives every row the same number of fields as the header.
    public static func parse(_ text: String) throws(InterchangeError) -> CSVTable {
        let firstLine = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        guard !firstLine.isEmpty else { throw InterchangeError(code: "csvEmpty", message: "the file has no header line") }
        var best: CSVTable?
        for delimiter in delimiters {
            let records = split(text, delimiter: delimiter)
            guard let header = records.first, header.count > 1 else { continue }
            let table = CSVTable(delimiter: delimiter, header: header, rows: Array(records.dropFirst()))
            let consistent = table.rows.allSatisfy { $0.count == header.count }
            guard consistent else { continue }
            if best == nil || header.count > best!.header.count { best = table }
        }
        guard let best else {
            throw InterchangeError(code: "csvDelimiterUnknown", message: "no delimiter (, ; tab) splits every line into the header's number of fields")
        }
        return best
    }

    /// Splits text into records of fields; quotes may hold delimiters and line breaks.
    static func split(_ text: String, delimiter: Character) -> [[String]] {
        var records: [[String]] = []
        var fields: [String] = []
        var field = ""
        var inQuotes = false
        var iterator = Array(text).makeIterator()
        var pending: Character? = nil
        func endRecord() {
            fields.append(field)
            if !(fields.count == 1 && fields[0].isEmpty) { records.append(fields) }
            fields = []
            field = ""
        }
        while let character = pending ?? iterator.next() {
            pending = nil
            if inQuotes {
                if character == "\"" {
                    if let next = iterator.next() {
                        if next == "\"" { field.append("\"") } else { inQuotes = false; pending = next }
                    } else { inQuotes = false }
                } else { field.append(character) }
            } else if character == "\"" && field.isEmpty {
                inQuotes = true
            } else if character == delimiter {
                fields.append(field)
                field = ""
            } else if character == "\n" || character == "\r\n" || character == "\r" {
                endRecord()
            } else {
                field.append(character)
            }
        }
        if !field.isEmpty || !fields.isEmpty { endRecord() }
        return records
    }

    /// A field quoted when needed.
    public static func quoted(_ field: String, delimiter: Character) -> String {
        guard field.contains(delimiter) || field.contains("\"") || field.contains("\n") || field.contains("\r") else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
