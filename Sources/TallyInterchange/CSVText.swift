/// The bytes of a CSV file as text: a leading UTF-8 byte order mark dropped, every byte
/// validated as UTF-8. Invalid bytes are refused with their line, never replaced by U+FFFD
/// (a replaced byte in a note or an amount would import as something the file does not say).
enum CSVText {
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The text of `bytes`.
    ///
    /// - Throws: `InterchangeError` with code `csvInvalidUTF8` naming the first line (1-based,
    ///   counted by line feeds) that holds a byte sequence that is not UTF-8.
    static func decode(_ bytes: some Collection<UInt8>) throws(InterchangeError) -> String {
        var content = bytes[...]
        if content.starts(with: byteOrderMark) { content = content.dropFirst(byteOrderMark.count) }
        if let text = String(validating: content, as: UTF8.self) { return text }
        // Find the line: a line feed (0x0A) is never part of a multi-byte UTF-8 sequence.
        var line = 1
        for lineBytes in content.split(separator: 0x0A, omittingEmptySubsequences: false) {
            if String(validating: lineBytes, as: UTF8.self) == nil {
                throw InterchangeError(code: "csvInvalidUTF8", message: "line \(line) is not valid UTF-8 (nothing was imported); save the file as UTF-8 and import it again")
            }
            line += 1
        }
        throw InterchangeError(code: "csvInvalidUTF8", message: "the file is not valid UTF-8 (nothing was imported); save it as UTF-8 and import it again")
    }
}
