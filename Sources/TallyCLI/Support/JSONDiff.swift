import Foundation
import Tally
import TallyProjections

/// A readable, path-based difference of two JSON values: one line per differing leaf,
/// `- path: expected` / `+ path: actual`.
enum JSONDiff {
    static let linesMax = 200

    static func differences(_ expected: CanonicalJSON, _ actual: CanonicalJSON) -> [String] {
        var lines: [String] = []
        walk(expected, actual, path: "$", into: &lines)
        if lines.count > linesMax {
            let more = lines.count - linesMax
            lines = Array(lines.prefix(linesMax)) + ["... \(more) more lines"]
        }
        return lines
    }

    private static func walk(_ expected: CanonicalJSON?, _ actual: CanonicalJSON?, path: String, into lines: inout [String]) {
        switch (expected, actual) {
        case (.object(let left)?, .object(let right)?):
            for key in Set(left.keys).union(right.keys).sorted() {
                walk(left[key], right[key], path: path + "." + key, into: &lines)
            }
        case (.array(let left)?, .array(let right)?):
            for index in 0..<max(left.count, right.count) {
                walk(index < left.count ? left[index] : nil, index < right.count ? right[index] : nil, path: "\(path)[\(index)]", into: &lines)
            }
        default:
            guard expected != actual else { return }
            if let expected { lines.append("- \(path): \(expected.text)") }
            if let actual { lines.append("+ \(path): \(actual.text)") }
        }
    }

    /// Parses JSON text with the strict parser of command lines (duplicate keys, bytes that
    /// are not UTF-8 and anything outside RFC 8259 are refused with their column; a number
    /// that is not an `Int64` integer is kept as its text, so it differs from any integer).
    static func parse(_ data: Data) throws(CommandParseError) -> CanonicalJSON {
        try StrictJSONParser.parse(Array(data))
    }
}
