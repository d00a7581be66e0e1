/// A strict RFC 4180 record parser over Unicode scalars, for one delimiter (CSVTable chooses
/// the delimiter). Line breaks are LF, CRLF or CR. A quote opens a field only as its first
/// character; inside a quoted field `""` is a quote; a closing quote must be followed by the
/// delimiter, a line break or the end. Anything else is refused with the line, never guessed:
/// an unbalanced quote would otherwise swallow the rows after it.
struct CSVRecordParser {
    /// One record and the 1-based line it starts on.
    struct Record {
        var fields: [String]
        var line: Int
    }

    /// A refusal and the line it is on (CSVTable reports the one that got furthest).
    struct Failure: Error {
        var line: Int
        var error: InterchangeError
    }

    private enum State { case fieldStart, unquoted, quoted, afterClosingQuote }

    let delimiter: Unicode.Scalar

    init(delimiter: Character) {
        self.delimiter = delimiter.unicodeScalars.first ?? ","
    }

    static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool { scalar == "\n" || scalar == "\r" }

    /// Every non-blank record of `scalars`.
    func records(of scalars: Substring.UnicodeScalarView) throws(Failure) -> [Record] {
        var records: [Record] = []
        var fields: [String] = []
        var field = String.UnicodeScalarView()
        var state = State.fieldStart
        var line = 1
        var recordLine = 1
        var quoteLine = 1
        var previousWasCarriageReturn = false
        func endField() {
            fields.append(String(field))
            field = String.UnicodeScalarView()
        }
        func endRecord() {
            endField()
            if !(fields.count == 1 && fields[0].isEmpty) { records.append(Record(fields: fields, line: recordLine)) }
            fields = []
        }
        /// Ends the field (delimiter) or the record (line break) outside quotes; false for
        /// any other scalar.
        func endsFieldOrRecord(_ scalar: Unicode.Scalar) -> Bool {
            if scalar == delimiter {
                endField()
            } else if Self.isLineBreak(scalar) {
                endRecord()
            } else {
                return false
            }
            state = .fieldStart
            return true
        }
        for scalar in scalars {
            // CRLF is one line break: the LF after a CR neither ends a record nor counts a line.
            let isLineFeedAfterCarriageReturn = scalar == "\n" && previousWasCarriageReturn
            previousWasCarriageReturn = scalar == "\r"
            if isLineFeedAfterCarriageReturn && state != .quoted { continue }
            switch state {
            case .fieldStart, .unquoted:
                if scalar == "\"" {
                    guard state == .fieldStart else {
                        throw Failure(line: line, error: InterchangeError(code: "csvQuoteMisplaced", message: "line \(line): a quote inside an unquoted field (after \"\(String(field))\"); quote the whole field and double its quotes (\"a \"\"b\"\"\")"))
                    }
                    state = .quoted
                    quoteLine = line
                } else if !endsFieldOrRecord(scalar) {
                    field.append(scalar)
                    state = .unquoted
                }
            case .quoted:
                if scalar == "\"" { state = .afterClosingQuote } else { field.append(scalar) }
            case .afterClosingQuote:
                if scalar == "\"" {
                    field.append(scalar)
                    state = .quoted
                } else if !endsFieldOrRecord(scalar) {
                    throw Failure(line: line, error: InterchangeError(code: "csvQuoteMisplaced", message: "line \(line): text after the closing quote of \"\(String(field))\"; a quoted field ends at the delimiter or the line's end (double a quote inside it: \"\")"))
                }
            }
            if Self.isLineBreak(scalar) && !isLineFeedAfterCarriageReturn {
                line += 1
                if state == .fieldStart && fields.isEmpty { recordLine = line }
            }
        }
        guard state != .quoted else {
            throw Failure(line: quoteLine, error: InterchangeError(code: "csvQuoteUnbalanced", message: "line \(quoteLine): a quote opens a field that is never closed (it would swallow every line after it); close the quote or double it (\"\") if it is part of the text"))
        }
        if state != .fieldStart || !fields.isEmpty { endRecord() }
        return records
    }
}
