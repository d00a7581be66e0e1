import TallyModel
import TallyProjections

/// Typed access to the fields of one JSON object, with errors naming the field (`path`).
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

    func string(_ key: String) throws(CommandParseError) -> String {
        guard case .string(let text) = try value(key) else { throw .bad(name(key), "expected a string") }
        return text
    }

    func optionalString(_ key: String) throws(CommandParseError) -> String? {
        has(key) ? try string(key) : nil
    }

    func integer(_ key: String) throws(CommandParseError) -> Int64 {
        switch try value(key) {
        case .integer(let number):
            return number
        case .number(let text):
            throw .bad(name(key), "\(text) is not accepted: expected a whole number (amounts are integer minor units) within the 64-bit range, without a fraction or exponent")
        default:
            throw .bad(name(key), "expected an integer")
        }
    }

    func bool(_ key: String, default fallback: Bool? = nil) throws(CommandParseError) -> Bool {
        if !has(key), let fallback { return fallback }
        guard case .bool(let flag) = try value(key) else { throw .bad(name(key), "expected true or false") }
        return flag
    }

    func array(_ key: String) throws(CommandParseError) -> [CanonicalJSON] {
        guard case .array(let items) = try value(key) else { throw .bad(name(key), "expected an array") }
        return items
    }

    func objects(_ key: String) throws(CommandParseError) -> [JSONFields] {
        var result: [JSONFields] = []
        for (index, item) in try array(key).enumerated() {
            result.append(try JSONFields(item, path: "\(name(key))[\(index)]", log: log))
        }
        return result
    }

    func strings(_ key: String, default fallback: [String]? = nil) throws(CommandParseError) -> [String] {
        if !has(key), let fallback { return fallback }
        var result: [String] = []
        for (index, item) in try array(key).enumerated() {
            guard case .string(let text) = item else { throw .bad("\(name(key))[\(index)]", "expected a string") }
            result.append(text)
        }
        return result
    }

    func id<Kind>(_ key: String) throws(CommandParseError) -> Identifier<Kind> {
        let text = try string(key)
        do {
            return try Identifier<Kind>(parsing: text)
        } catch {
            throw .bad(name(key), "'\(text)' is not a UUID (8-4-4-4-12 hex digits)")
        }
    }

    func optionalID<Kind>(_ key: String) throws(CommandParseError) -> Identifier<Kind>? {
        has(key) ? try id(key) : nil
    }

    func ids<Kind>(_ key: String) throws(CommandParseError) -> [Identifier<Kind>] {
        var result: [Identifier<Kind>] = []
        for (index, text) in try strings(key).enumerated() {
            do {
                result.append(try Identifier<Kind>(parsing: text))
            } catch {
                throw .bad("\(name(key))[\(index)]", "'\(text)' is not a UUID")
            }
        }
        return result
    }

    func currency(_ key: String) throws(CommandParseError) -> Currency {
        let text = try string(key)
        do {
            return try Currency(iso4217: text)
        } catch {
            throw .bad(name(key), error.message)
        }
    }

    func date(_ key: String) throws(CommandParseError) -> LocalDate {
        let text = try string(key)
        do {
            return try LocalDate(iso: text)
        } catch {
            throw .bad(name(key), "'\(text)' is not a date YYYY-MM-DD")
        }
    }

    func optionalDate(_ key: String) throws(CommandParseError) -> LocalDate? {
        has(key) ? try date(key) : nil
    }

    func optionalMonth(_ key: String) throws(CommandParseError) -> YearMonth? {
        guard has(key) else { return nil }
        let text = try string(key)
        do {
            return try YearMonth(iso: text)
        } catch {
            throw .bad(name(key), "'\(text)' is not a month YYYY-MM")
        }
    }

    func timestamp(_ key: String) throws(CommandParseError) -> Timestamp {
        let text = try string(key)
        do {
            return try Timestamp(iso8601: text)
        } catch {
            throw .bad(name(key), "'\(text)' is not a UTC time YYYY-MM-DDTHH:MM:SS.sssZ")
        }
    }

    /// Money as `{"minorUnits": 1234, "currency": "CHF"}` or as a string `"CHF 12.34"`.
    func money(_ key: String) throws(CommandParseError) -> Money {
        switch try value(key) {
        case .string(let text):
            let money: Money
            do {
                money = try Money.parse(text)
            } catch {
                throw .bad(name(key), "'\(text)' is not an amount like \"CHF 12.34\": \(error.message)")
            }
            guard money.currency.isISO4217 else { throw .bad(name(key), ModelError.unknownCurrency(money.currency.code).message) }
            return money
        case .object(let fields):
            let object = JSONFields(fields, path: name(key), log: log)
            return Money(minorUnits: try object.integer("minorUnits"), currency: try object.currency("currency"))
        default:
            throw .bad(name(key), "expected {\"minorUnits\": 1234, \"currency\": \"CHF\"} or \"CHF 12.34\"")
        }
    }

    /// One of `names` (the enum's cases by name).
    func choice<Value>(_ key: String, _ names: [String: Value]) throws(CommandParseError) -> Value {
        let text = try string(key)
        guard let value = names[text] else {
            throw .bad(name(key), "'\(text)' is not one of \(names.keys.sorted().joined(separator: ", "))")
        }
        return value
    }

    /// Ratios as `[{"person": "…", "basisPoints": 6000}]`.
    func ratios(_ key: String) throws(CommandParseError) -> [MemberRatio] {
        var result: [MemberRatio] = []
        for object in try objects(key) {
            let person: PersonID = try object.id("person")
            let points = try object.integer("basisPoints")
            guard let ratio = try? Ratio(basisPoints: points) else {
                throw .bad(object.name("basisPoints"), "\(points) is outside 0...10000")
            }
            result.append(MemberRatio(person: person, ratio: ratio))
        }
        return result
    }
}
