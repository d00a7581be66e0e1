import TallyProjections

extension CanonicalJSON {
    /// A short name of the value's type, for messages about a command line's fields.
    package var typeName: String {
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
