import TallyModel
import TallyProjections

/// The fields of one JSON object, with errors naming the field (`path`); a field's value is read
/// by its type (`field(_:)`, `CommandFieldValue` in CommandFields.swift).
/// Every key a parser asks about is noted in `log`, shared with the nested objects, so that
/// keys no parser asked about can be reported as unknown (`FieldLog.unconsultedFields`).
struct JSONFields {
    let values: [String: CanonicalJSON]
    let path: String
    let log: FieldLog

    init(_ values: [String: CanonicalJSON], path: String = "", log: FieldLog = FieldLog()) {
        self.values = values
        self.path = path
        self.log = log
        log.register(keys: values.keys.map { path.isEmpty ? $0 : "\(path).\($0)" })
    }

    init(_ value: CanonicalJSON, path: String, log: FieldLog) throws(CommandParseError) {
        guard case .object(let values) = value else { throw .bad(path, "expected an object, got \(value.typeName)") }
        self.init(values, path: path, log: log)
    }

    func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func has(_ key: String) -> Bool {
        log.consult(name(key))
        if let value = values[key], value != .null { return true }
        return false
    }

    func value(_ key: String) throws(CommandParseError) -> CanonicalJSON {
        log.consult(name(key))
        guard let value = values[key], value != .null else { throw .missing(name(key)) }
        return value
    }

    /// The nested object under `key`, sharing this object's log.
    func object(_ key: String) throws(CommandParseError) -> JSONFields {
        try JSONFields(try value(key), path: name(key), log: log)
    }
}
