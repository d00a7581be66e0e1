import TallyModel
import TallyProjections

// The JSON form of every value a command field holds (Docs/Commands.md, "Envelope and value
// formats"): each type reads and writes it here, once.

extension String: CommandFieldValue {
    init(commandJSON json: CanonicalJSON, at path: String, log: FieldLog) throws(CommandParseError) {
        guard case .string(let text) = json else { throw .bad(path, "expected a string") }
        self = text
    }
    var commandJSON: CanonicalJSON { .string(self) }
}

extension Bool: CommandFieldValue {
    init(commandJSON json: CanonicalJSON, at path: String, log: FieldLog) throws(CommandParseError) {
        guard case .bool(let flag) = json else { throw .bad(path, "expected true or false") }
        self = flag
    }
    var commandJSON: CanonicalJSON { .bool(self) }
}

extension Int64: CommandFieldValue {
    init(commandJSON json: CanonicalJSON, at path: String, log: FieldLog) throws(CommandParseError) {
        switch json {
        case .integer(let number):
            self = number
        case .number(let text):
            throw .bad(path, "\(text) is not accepted: expected a whole number (amounts are integer minor units) within the 64-bit range, without a fraction or exponent")
        default:
            throw .bad(path, "expected an integer")
        }
    }
    var commandJSON: CanonicalJSON { .integer(self) }
}

extension Int: CommandFieldValue {
    init(commandJSON json: CanonicalJSON, at path: String, log: FieldLog) throws(CommandParseError) {
        let number = try Int64(commandJSON: json, at: path, log: log)
        guard let small = Int(exactly: number) else { throw .bad(path, "\(number) is too large") }
        self = small
    }
    var commandJSON: CanonicalJSON { .integer(Int64(self)) }
}

extension Array: CommandFieldValue where Element: CommandFieldValue {
    init(commandJSON json: CanonicalJSON, at path: String, log: FieldLog) throws(CommandParseError) {
        guard case .array(let items) = json else { throw .bad(path, "expected an array") }
        var result: [Element] = []
        result.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            result.append(try Element(commandJSON: item, at: "\(path)[\(index)]", log: log))
        }
        self = result
    }
    var commandJSON: CanonicalJSON { .array(map(\.commandJSON)) }
}

extension Identifier: CommandFieldValue {
    init(commandJSON json: CanonicalJSON, at path: String, log: FieldLog) throws(CommandParseError) {
        let text = try String(commandJSON: json, at: path, log: log)
        do {
            self = try Identifier(parsing: text)
        } catch {
            throw .bad(path, "'\(text)' is not a UUID (8-4-4-4-12 hex digits)")
        }
    }
    var commandJSON: CanonicalJSON { .string(description) }
}

extension Currency: CommandFieldValue {
    init(commandJSON json: CanonicalJSON, at path: String, log: FieldLog) throws(CommandParseError) {
        let text = try String(commandJSON: json, at: path, log: log)
        do {
            self = try Currency(iso4217: text)
        } catch {
            throw .bad(path, error.message)
        }
    }
    var commandJSON: CanonicalJSON { .string(code) }
}

extension LocalDate: CommandFieldValue {
    init(commandJSON json: CanonicalJSON, at path: String, log: FieldLog) throws(CommandParseError) {
        let text = try String(commandJSON: json, at: path, log: log)
        do {
            self = try LocalDate(iso: text)
        } catch {
            throw .bad(path, "'\(text)' is not a date YYYY-MM-DD")
        }
    }
    var commandJSON: CanonicalJSON { .string(isoString) }
}

extension YearMonth: CommandFieldValue {
    init(commandJSON json: CanonicalJSON, at path: String, log: FieldLog) throws(CommandParseError) {
        let text = try String(commandJSON: json, at: path, log: log)
        do {
            self = try YearMonth(iso: text)
        } catch {
            throw .bad(path, "'\(text)' is not a month YYYY-MM")
        }
    }
    var commandJSON: CanonicalJSON { .string(isoString) }
}

extension Timestamp: CommandFieldValue {
    init(commandJSON json: CanonicalJSON, at path: String, log: FieldLog) throws(CommandParseError) {
        let text = try String(commandJSON: json, at: path, log: log)
        do {
            self = try Timestamp(iso8601: text)
        } catch {
            throw .bad(path, "'\(text)' is not a UTC time YYYY-MM-DDTHH:MM:SS.sssZ")
        }
    }
    var commandJSON: CanonicalJSON { .string(iso8601) }
}

extension ContentHash: CommandFieldValue {
    /// 64 hexadecimal digits (T6).
    init(commandJSON json: CanonicalJSON, at path: String, log: FieldLog) throws(CommandParseError) {
        let text = try String(commandJSON: json, at: path, log: log)
        do throws(ModelError) { self = try ContentHash(hex: text) } catch { throw .bad(path, error.message) }
    }
    var commandJSON: CanonicalJSON { .string(hex) }
}

extension Money: CommandFieldValue {
    /// `{"minorUnits": 1234, "currency": "CHF"}` or the string `"CHF 12.34"`.
    init(commandJSON json: CanonicalJSON, at path: String, log: FieldLog) throws(CommandParseError) {
        switch json {
        case .string(let text):
            let money: Money
            do {
                money = try Money.parse(text)
            } catch {
                throw .bad(path, "'\(text)' is not an amount like \"CHF 12.34\": \(error.message)")
            }
            guard money.currency.isISO4217 else { throw .bad(path, ModelError.unknownCurrency(money.currency.code).message) }
            self = money
        case .object(let values):
            let object = JSONFields(values, path: path, log: log)
            self.init(minorUnits: try object.field("minorUnits"), currency: try object.field("currency"))
        default:
            throw .bad(path, "expected {\"minorUnits\": 1234, \"currency\": \"CHF\"} or \"CHF 12.34\"")
        }
    }
    var commandJSON: CanonicalJSON { .object(["minorUnits": .integer(minorUnits), "currency": .string(currency.code)]) }
}

/// A value written as one of a fixed set of names (the Swift case names; an alias may follow
/// the name it stands for, and is read but never written).
protocol CommandFieldName: CommandFieldValue, Equatable {
    static var schemaNames: KeyValuePairs<String, Self> { get }
}

extension CommandFieldName {
    init(commandJSON json: CanonicalJSON, at path: String, log: FieldLog) throws(CommandParseError) {
        let text = try String(commandJSON: json, at: path, log: log)
        guard let value = Self.schemaNames.first(where: { $0.key == text })?.value else {
            throw .bad(path, "'\(text)' is not one of \(Self.schemaNames.map(\.key).sorted().joined(separator: ", "))")
        }
        self = value
    }
    var commandJSON: CanonicalJSON {
        .string(Self.schemaNames.first { $0.value == self }?.key ?? "")
    }
}

extension WalletKind: CommandFieldName {
    static var schemaNames: KeyValuePairs<String, WalletKind> {
        ["cash": .cash, "bank": .bank, "card": .card, "savings": .savings, "investment": .investment,
         "property": .property, "loan": .loan, "other": .other]
    }
}

extension Weekday: CommandFieldName {
    static var schemaNames: KeyValuePairs<String, Weekday> {
        ["monday": .monday, "tuesday": .tuesday, "wednesday": .wednesday, "thursday": .thursday, "friday": .friday,
         "saturday": .saturday, "sunday": .sunday]
    }
}

extension BillingStatus: CommandFieldName {
    static var schemaNames: KeyValuePairs<String, BillingStatus> { ["paid": .paid, "pending": .pending, "failed": .failed] }
}

extension WalletConnectionStatus: CommandFieldName {
    static var schemaNames: KeyValuePairs<String, WalletConnectionStatus> {
        ["connected": .connected, "needsReauthentication": .needsReauthentication, "disconnected": .disconnected]
    }
}

extension WalletValuation: CommandFieldName {
    static var schemaNames: KeyValuePairs<String, WalletValuation> { ["tracked": .tracked, "observed": .observed] }
}

extension WalletDesignation: CommandFieldName {
    static var schemaNames: KeyValuePairs<String, WalletDesignation> {
        ["inflow": .inflow, "outflow": .outflow, "both": .both, "neither": .neither]
    }
}

extension CategoryGroup: CommandFieldName {
    static var schemaNames: KeyValuePairs<String, CategoryGroup> { ["income": .income, "expense": .expense] }
}

extension TaxClass: CommandFieldName {
    static var schemaNames: KeyValuePairs<String, TaxClass> {
        ["pillar3a": .pillar3a, "workExpense": .workExpense, "business": .business, "charitable": .charitable, "medical": .medical]
    }
}

extension BudgetType: CommandFieldName {
    static var schemaNames: KeyValuePairs<String, BudgetType> { ["needs": .needs, "wants": .wants, "savings": .savings, "none": .none] }
}

extension TransactionKind: CommandFieldName {
    static var schemaNames: KeyValuePairs<String, TransactionKind> { ["income": .income, "expense": .expense] }
}

extension RecurrenceFrequency: CommandFieldName {
    static var schemaNames: KeyValuePairs<String, RecurrenceFrequency> {
        ["daily": .daily, "weekly": .weekly, "biweekly": .biweekly, "monthly": .monthly, "quarterly": .quarterly,
         "semiannual": .semiannual, "yearly": .yearly, "annual": .yearly]
    }
}

extension SplitRatioMode: CommandFieldName {
    static var schemaNames: KeyValuePairs<String, SplitRatioMode> { ["manual": .manual, "incomeBased": .incomeBased] }
}

extension IncomeMode: CommandFieldName {
    static var schemaNames: KeyValuePairs<String, IncomeMode> { ["manual": .manual, "auto": .auto] }
}

/// A value written as a JSON object of named fields.
protocol CommandFieldObject: CommandFieldValue {
    init(object: JSONFields) throws(CommandParseError)
    func write(to object: inout CommandJSONObject)
}

extension CommandFieldObject {
    init(commandJSON json: CanonicalJSON, at path: String, log: FieldLog) throws(CommandParseError) {
        try self.init(object: try JSONFields(json, path: path, log: log))
    }
    var commandJSON: CanonicalJSON {
        var object = CommandJSONObject()
        write(to: &object)
        return object.json
    }
}

extension MemberRatio: CommandFieldObject {
    /// `{"person": "…", "basisPoints": 6000}`.
    init(object: JSONFields) throws(CommandParseError) {
        let person: PersonID = try object.field("person")
        let points: Int64 = try object.field("basisPoints")
        guard let ratio = try? Ratio(basisPoints: points) else {
            throw .bad(object.name("basisPoints"), "\(points) is outside 0...10000")
        }
        self.init(person: person, ratio: ratio)
    }
    func write(to object: inout CommandJSONObject) {
        object.write("person", person)
        object.write("basisPoints", ratio.basisPoints)
    }
}

extension PersonShare: CommandFieldObject {
    init(object: JSONFields) throws(CommandParseError) {
        self.init(person: try object.field("person"), amount: try object.field("amount"))
    }
    func write(to object: inout CommandJSONObject) {
        object.write("person", person)
        object.write("amount", amount)
    }
}

extension MemberWeight: CommandFieldObject {
    init(object: JSONFields) throws(CommandParseError) {
        self.init(person: try object.field("person"), weight: try object.field("weight"))
    }
    func write(to object: inout CommandJSONObject) {
        object.write("person", person)
        object.write("weight", weight)
    }
}

extension ScenarioLumpSum: CommandFieldObject {
    init(object: JSONFields) throws(CommandParseError) {
        self.init(date: try object.field("date"), amount: try object.field("amount"))
    }
    func write(to object: inout CommandJSONObject) {
        object.write("date", date)
        object.write("amount", amount)
    }
}

extension ImportColumnMapping: CommandFieldObject {
    init(object: JSONFields) throws(CommandParseError) {
        self.init(field: try object.field("field"), column: try object.field("column"))
    }
    func write(to object: inout CommandJSONObject) {
        object.write("field", field)
        object.write("column", column)
    }
}

extension ImportCategoryMapping: CommandFieldObject {
    init(object: JSONFields) throws(CommandParseError) {
        self.init(name: try object.field("name"), categoryID: try object.field("categoryID"))
    }
    func write(to object: inout CommandJSONObject) {
        object.write("name", name)
        object.write("categoryID", categoryID)
    }
}

extension SettledItem: CommandFieldObject {
    /// `{"transaction": "…"}` or `{"groupExpense": "…"}`.
    init(object: JSONFields) throws(CommandParseError) {
        if object.has("transaction") {
            self = .transaction(try object.field("transaction"))
        } else if object.has("groupExpense") {
            self = .groupExpense(try object.field("groupExpense"))
        } else {
            throw .bad(object.path, "expected {\"transaction\": id} or {\"groupExpense\": id}")
        }
    }
    func write(to object: inout CommandJSONObject) {
        switch self {
        case .transaction(let id): object.write("transaction", id)
        case .groupExpense(let id): object.write("groupExpense", id)
        }
    }
}

extension GroupSplit: CommandFieldObject {
    /// `{"kind": "equal", "people": [...]}`, `{"kind": "exact", "amounts": [{"person", "amount"}]}`,
    /// `{"kind": "percentage", "ratios": [...]}` or `{"kind": "shares", "weights": [{"person", "weight"}]}`.
    init(object: JSONFields) throws(CommandParseError) {
        let kind: String = try object.field("kind")
        switch kind {
        case "equal": self = .equal(try object.field("people"))
        case "exact": self = .exact(try object.field("amounts"))
        case "percentage": self = .percentage(try object.field("ratios"))
        case "shares": self = .shares(try object.field("weights"))
        default: throw .bad(object.name("kind"), "'\(kind)' is not one of equal, exact, percentage, shares")
        }
    }
    func write(to object: inout CommandJSONObject) {
        switch self {
        case .equal(let people):
            object.write("kind", "equal")
            object.write("people", people)
        case .exact(let amounts):
            object.write("kind", "exact")
            object.write("amounts", amounts)
        case .percentage(let ratios):
            object.write("kind", "percentage")
            object.write("ratios", ratios)
        case .shares(let weights):
            object.write("kind", "shares")
            object.write("weights", weights)
        }
    }
}

