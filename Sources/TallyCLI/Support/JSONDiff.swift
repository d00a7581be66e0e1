import Foundation
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

    /// Parses JSON text into a canonical value (integers only; a fraction is an error).
    static func parse(_ data: Data) throws -> CanonicalJSON {
        try JSONDecoder().decode(DecodedJSON.self, from: data).value
    }
}

/// Decodes any JSON value into ``CanonicalJSON``.
private struct DecodedJSON: Decodable {
    let value: CanonicalJSON

    init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var elements: [CanonicalJSON] = []
            while !array.isAtEnd { elements.append(try array.decode(DecodedJSON.self).value) }
            value = .array(elements)
        } else if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [String: CanonicalJSON] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(DecodedJSON.self, forKey: key).value }
            value = .object(members)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() { value = .null }
            else if let bool = try? single.decode(Bool.self) { value = .bool(bool) }
            else if let integer = try? single.decode(Int64.self) { value = .integer(integer) }
            else { value = .string(try single.decode(String.self)) }
        }
    }
}

private struct AnyKey: CodingKey {
    let stringValue: String
    init?(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}
