import TallyProjections

/// A JSON object whose keys keep the order they were added in (for result lines a person
/// reads: `{"line":3,"status":"ok",...}`); values are written as canonical JSON.
struct JSONObject {
    private var members: [(String, CanonicalJSON)] = []

    init() {}

    mutating func set(_ key: String, _ value: CanonicalJSON) { members.append((key, value)) }
    mutating func set(_ key: String, _ value: String) { set(key, .string(value)) }
    mutating func set(_ key: String, _ value: Int) { set(key, .integer(Int64(value))) }
    mutating func set(_ key: String, _ value: UInt64) { set(key, .integer(Int64(clamping: value))) }
    mutating func set(_ key: String, _ value: String?) { set(key, value.map(CanonicalJSON.string) ?? .null) }

    /// One line of JSON, no whitespace.
    var text: String {
        "{" + members.map { CanonicalJSON.string($0.0).text + ":" + $0.1.text }.joined(separator: ",") + "}"
    }
}
