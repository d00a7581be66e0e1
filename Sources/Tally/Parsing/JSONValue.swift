/// A parsed JSON value (``StrictJSONParser``). Numbers never pass through floating point
/// (G1, G2): an integer literal that fits `Int64` is ``integer(_:)``; every other number
/// literal (a fraction, an exponent, an integer out of range) is kept as its exact text in
/// ``number(_:)`` so that a field expecting an integer can refuse it by name.
enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    /// A number literal that is not an `Int64` integer, exactly as written (`1.0`, `1e2`).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// A short name of the value's type for messages.
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer: "an integer"
        case .number(let text): "the number \(text)"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
