import TallyModel
import TallyProjections

/// Writes `CommandAction`'s JSON parser, its writer and its schema list from its cases
/// (`Sources/TallyMacros/CommandSchemaMacro.swift`): a case is a command, a labelled value a
/// field under its label, a default value the field's default.
@attached(extension, names: named(parseFields(of:from:)), named(commandName), named(writeFields(to:)), named(schema))
macro CommandSchema() = #externalMacro(module: "TallyMacros", type: "CommandSchemaMacro")

/// A value one field of a command holds, read from and written to its JSON form
/// (Docs/Commands.md, "Envelope and value formats"): both directions are here, once per type.
protocol CommandFieldValue {
    /// Reads the value from `json`, the field at `path` (for errors), noting nested keys in `log`.
    init(commandJSON json: CanonicalJSON, at path: String, log: FieldLog) throws(CommandParseError)
    /// The value's JSON form.
    var commandJSON: CanonicalJSON { get }
}

/// Fields that several commands share as one Swift value (a transaction's entry, a goal's
/// definition), written into the command's own object rather than nested under a key.
protocol CommandFieldGroup {
    /// The group's fields, in the order they are written.
    static var schemaFields: [CommandSchemaField] { get }
    /// Reads the group from the command's object.
    init(fields: JSONFields) throws(CommandParseError)
    /// Writes the group's fields into the command's object.
    func write(to object: inout CommandJSONObject)
}

/// A command of the schema and its fields, as `@CommandSchema` lists them.
struct CommandSchemaEntry {
    let name: String
    let fields: [CommandSchemaField]

    /// The fields as they appear in the JSON object: a group's own fields in its place.
    var jsonFields: [CommandSchemaField] {
        fields.flatMap { field -> [CommandSchemaField] in
            guard let group = field.valueType as? any CommandFieldGroup.Type else { return [field] }
            return group.schemaFields.map { inner in
                CommandSchemaField(name: inner.name, valueType: inner.valueType, isOptional: inner.isOptional || field.isOptional,
                                   defaultValue: inner.defaultValue)
            }
        }
    }
}

/// One field: its JSON name, the Swift type of its value, whether it may be absent and the
/// default it then takes (Swift source text; `nil`: none, or absent for an optional).
struct CommandSchemaField {
    let name: String
    let valueType: Any.Type
    let isOptional: Bool
    let defaultValue: String?

    /// Whether a command line must give the field.
    var isRequired: Bool { !isOptional && defaultValue == nil }
}

/// A JSON object being written, its members in the order written.
struct CommandJSONObject {
    private(set) var members: [(key: String, value: CanonicalJSON)] = []

    mutating func write<Value: CommandFieldValue>(_ key: String, _ value: Value) {
        members.append((key, value.commandJSON))
    }

    /// An absent optional is left out.
    mutating func write<Value: CommandFieldValue>(_ key: String, _ value: Value?) {
        if let value { write(key, value) }
    }

    mutating func write<Group: CommandFieldGroup>(_ key: String, _ group: Group) {
        group.write(to: &self)
    }

    mutating func write<Group: CommandFieldGroup>(_ key: String, _ group: Group?) {
        group?.write(to: &self)
    }

    mutating func write(_ key: String, json: CanonicalJSON) {
        members.append((key, json))
    }

    /// The value written under `key`, if any.
    func member(_ key: String) -> CanonicalJSON? {
        members.first { $0.key == key }?.value
    }

    /// The object, for nesting.
    var json: CanonicalJSON { .object(Dictionary(members, uniquingKeysWith: { first, _ in first })) }
}

extension JSONFields {
    /// The required field `key`.
    func field<Value: CommandFieldValue>(_ key: String) throws(CommandParseError) -> Value {
        try Value(commandJSON: try value(key), at: name(key), log: log)
    }

    /// The field `key`, or `nil` when absent or `null`.
    func optionalField<Value: CommandFieldValue>(_ key: String) throws(CommandParseError) -> Value? {
        has(key) ? try field(key) : nil
    }

    /// The field `key`, or `fallback` when absent or `null`.
    func field<Value: CommandFieldValue>(_ key: String, default fallback: @autoclosure () -> Value) throws(CommandParseError) -> Value {
        has(key) ? try field(key) : fallback()
    }

    /// A group of fields of this object (`key` names the Swift value only).
    func field<Group: CommandFieldGroup>(_ key: String) throws(CommandParseError) -> Group {
        try Group(fields: self)
    }

    /// A group of fields of this object, `nil` when none of its fields is given.
    func optionalField<Group: CommandFieldGroup>(_ key: String) throws(CommandParseError) -> Group? {
        Group.schemaFields.contains { has($0.name) } ? try Group(fields: self) : nil
    }
}

// MARK: - Values

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

extension WalletDesignation: CommandFieldName {
    static var schemaNames: KeyValuePairs<String, WalletDesignation> {
        ["inflow": .inflow, "outflow": .outflow, "both": .both, "neither": .neither]
    }
}

extension CategoryGroup: CommandFieldName {
    static var schemaNames: KeyValuePairs<String, CategoryGroup> { ["income": .income, "expense": .expense] }
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

// MARK: - Field groups

extension TransactionEntry: CommandFieldGroup {
    static var schemaFields: [CommandSchemaField] {
        [CommandSchemaField(name: "kind", valueType: TransactionKind.self, isOptional: false, defaultValue: nil),
         CommandSchemaField(name: "amount", valueType: Money.self, isOptional: false, defaultValue: nil),
         CommandSchemaField(name: "walletID", valueType: WalletID.self, isOptional: false, defaultValue: nil),
         CommandSchemaField(name: "categoryID", valueType: CategoryID.self, isOptional: false, defaultValue: nil),
         CommandSchemaField(name: "date", valueType: LocalDate.self, isOptional: false, defaultValue: nil),
         CommandSchemaField(name: "note", valueType: String.self, isOptional: true, defaultValue: nil),
         CommandSchemaField(name: "tags", valueType: [String].self, isOptional: false, defaultValue: "[]"),
         CommandSchemaField(name: "payer", valueType: PersonID.self, isOptional: true, defaultValue: nil),
         CommandSchemaField(name: "shared", valueType: Bool.self, isOptional: false, defaultValue: "false"),
         CommandSchemaField(name: "ratioOverride", valueType: [MemberRatio].self, isOptional: true, defaultValue: nil),
         CommandSchemaField(name: "splitWith", valueType: GroupSplit.self, isOptional: true, defaultValue: nil)]
    }

    /// `payer` absent means the command's actor; `shared` defaults to false, `tags` to none.
    init(fields: JSONFields) throws(CommandParseError) {
        self.init(
            kind: try fields.field("kind"), amount: try fields.field("amount"), walletID: try fields.field("walletID"),
            categoryID: try fields.field("categoryID"), date: try fields.field("date"), note: try fields.optionalField("note"),
            tags: try fields.field("tags", default: []), payer: try fields.optionalField("payer"),
            shared: try fields.field("shared", default: false), ratioOverride: try fields.optionalField("ratioOverride"),
            splitWith: try fields.optionalField("splitWith"))
    }

    func write(to object: inout CommandJSONObject) {
        object.write("kind", kind)
        object.write("amount", amount)
        object.write("walletID", walletID)
        object.write("categoryID", categoryID)
        object.write("date", date)
        object.write("note", note)
        object.write("tags", tags)
        object.write("payer", payer)
        object.write("shared", isShared)
        object.write("ratioOverride", ratioOverride)
        object.write("splitWith", splitWith)
    }
}

extension TemplateTerms: CommandFieldGroup {
    static var schemaFields: [CommandSchemaField] {
        [CommandSchemaField(name: "endDate", valueType: LocalDate.self, isOptional: true, defaultValue: nil),
         CommandSchemaField(name: "occurrenceCount", valueType: Int64.self, isOptional: true, defaultValue: nil),
         CommandSchemaField(name: "trialEndsOn", valueType: LocalDate.self, isOptional: true, defaultValue: nil),
         CommandSchemaField(name: "sharing", valueType: TemplateSharing.self, isOptional: true, defaultValue: nil)]
    }

    /// R1 terms of `createTemplate`; `sharing` is `{"kind": "equal", "people": [...]}`,
    /// `{"kind": "exact", "amounts": [{"person", "amount"}]}` (in the price's currency, the
    /// template's `amount`) or `{"kind": "percentage", "ratios": [{"person", "basisPoints"}]}`.
    init(fields: JSONFields) throws(CommandParseError) {
        var sharing: TemplateSharing?
        if fields.has("sharing") {
            let object = try fields.object("sharing")
            let kind: String = try object.field("kind")
            switch kind {
            case "equal":
                let people: [PersonID] = try object.field("people")
                sharing = TemplateSharing(kind: .equal, weights: people.map { MemberWeight(person: $0, weight: 1) })
            case "exact":
                let price: Money = try fields.field("amount")
                let shares: [PersonShare] = try object.field("amounts")
                for (index, share) in shares.enumerated() where share.amount.currency != price.currency {
                    throw .bad(object.name("amounts[\(index)].amount"), "is in \(share.amount.currency), the price in \(price.currency)")
                }
                sharing = TemplateSharing(kind: .exact, weights: shares.map { MemberWeight(person: $0.person, weight: $0.amount.minorUnits) })
            case "percentage":
                let ratios: [MemberRatio] = try object.field("ratios")
                sharing = TemplateSharing(kind: .percent, weights: ratios.map { MemberWeight(person: $0.person, weight: $0.ratio.basisPoints) })
            default:
                throw .bad(object.name("kind"), "'\(kind)' is not one of equal, exact, percentage")
            }
        }
        self.init(endDate: try fields.optionalField("endDate"), occurrenceCount: try fields.optionalField("occurrenceCount"),
                  trialEndsOn: try fields.optionalField("trialEndsOn"), sharing: sharing)
    }

    /// Exact shares are written as amounts in the currency of the template's `amount`, written
    /// before the terms.
    func write(to object: inout CommandJSONObject) {
        object.write("endDate", endDate)
        object.write("occurrenceCount", occurrenceCount)
        object.write("trialEndsOn", trialEndsOn)
        guard let sharing else { return }
        var nested = CommandJSONObject()
        switch sharing.kind {
        case .equal:
            nested.write("kind", "equal")
            nested.write("people", sharing.weights.map(\.person))
        case .exact:
            var currency = CanonicalJSON.null
            if case .object(let price)? = object.member("amount"), let code = price["currency"] { currency = code }
            nested.write("kind", "exact")
            nested.write("amounts", json: .array(sharing.weights.map { weight in
                .object(["person": weight.person.commandJSON, "amount": .object(["minorUnits": .integer(weight.weight), "currency": currency])])
            }))
        case .percent:
            nested.write("kind", "percentage")
            nested.write("ratios", sharing.weights.map { MemberRatio(person: $0.person, ratio: (try? Ratio(basisPoints: $0.weight)) ?? .zero) })
        }
        object.write("sharing", json: nested.json)
    }
}

extension GoalDefinition: CommandFieldGroup {
    static var schemaFields: [CommandSchemaField] {
        [CommandSchemaField(name: "name", valueType: String.self, isOptional: false, defaultValue: nil),
         CommandSchemaField(name: "target", valueType: Money.self, isOptional: false, defaultValue: nil),
         CommandSchemaField(name: "targetDate", valueType: LocalDate.self, isOptional: true, defaultValue: nil),
         CommandSchemaField(name: "walletIDs", valueType: [WalletID].self, isOptional: false, defaultValue: "[]")]
    }

    init(fields: JSONFields) throws(CommandParseError) {
        self.init(name: try fields.field("name"), target: try fields.field("target"), targetDate: try fields.optionalField("targetDate"),
                  walletIDs: try fields.field("walletIDs", default: []))
    }

    func write(to object: inout CommandJSONObject) {
        object.write("name", name)
        object.write("target", target)
        object.write("targetDate", targetDate)
        object.write("walletIDs", walletIDs)
    }
}

extension ScenarioSaved: CommandFieldGroup {
    static var schemaFields: [CommandSchemaField] {
        [CommandSchemaField(name: "scenarioID", valueType: ScenarioID.self, isOptional: false, defaultValue: nil),
         CommandSchemaField(name: "name", valueType: String.self, isOptional: false, defaultValue: nil),
         CommandSchemaField(name: "monthlyIncomeDelta", valueType: Money.self, isOptional: false, defaultValue: nil),
         CommandSchemaField(name: "monthlyExpenseDelta", valueType: Money.self, isOptional: false, defaultValue: nil),
         CommandSchemaField(name: "lumpSums", valueType: [ScenarioLumpSum].self, isOptional: false, defaultValue: "[]")]
    }

    init(fields: JSONFields) throws(CommandParseError) {
        self.init(scenarioID: try fields.field("scenarioID"), name: try fields.field("name"),
                  monthlyIncomeDelta: try fields.field("monthlyIncomeDelta"), monthlyExpenseDelta: try fields.field("monthlyExpenseDelta"),
                  lumpSums: try fields.field("lumpSums", default: []))
    }

    func write(to object: inout CommandJSONObject) {
        object.write("scenarioID", scenarioID)
        object.write("name", name)
        object.write("monthlyIncomeDelta", monthlyIncomeDelta)
        object.write("monthlyExpenseDelta", monthlyExpenseDelta)
        object.write("lumpSums", lumpSums)
    }
}

extension AlertSettingsSet: CommandFieldGroup {
    static var schemaFields: [CommandSchemaField] {
        [CommandSchemaField(name: "budgetThresholds", valueType: [Int64].self, isOptional: false, defaultValue: "[80, 100]"),
         CommandSchemaField(name: "upcomingDays", valueType: Int64.self, isOptional: false, defaultValue: "7"),
         CommandSchemaField(name: "staleBalanceDays", valueType: Int64.self, isOptional: false, defaultValue: "30"),
         CommandSchemaField(name: "largeTransaction", valueType: Money.self, isOptional: true, defaultValue: nil)]
    }

    /// Absent settings take ``AlertSettingsSet/defaults``.
    init(fields: JSONFields) throws(CommandParseError) {
        let defaults = AlertSettingsSet.defaults
        self.init(budgetThresholds: try fields.field("budgetThresholds", default: defaults.budgetThresholds),
                  upcomingDays: try fields.field("upcomingDays", default: defaults.upcomingDays),
                  staleBalanceDays: try fields.field("staleBalanceDays", default: defaults.staleBalanceDays),
                  largeTransaction: try fields.optionalField("largeTransaction"))
    }

    func write(to object: inout CommandJSONObject) {
        object.write("budgetThresholds", budgetThresholds)
        object.write("upcomingDays", upcomingDays)
        object.write("staleBalanceDays", staleBalanceDays)
        object.write("largeTransaction", largeTransaction)
    }
}

extension ExchangeRate: CommandFieldGroup {
    static var schemaFields: [CommandSchemaField] {
        [CommandSchemaField(name: "base", valueType: Currency.self, isOptional: false, defaultValue: nil),
         CommandSchemaField(name: "quote", valueType: Currency.self, isOptional: false, defaultValue: nil),
         CommandSchemaField(name: "rate", valueType: String.self, isOptional: false, defaultValue: nil)]
    }

    /// `rate` is a decimal string like `"0.9412"` (up to 8 decimals), one `base` in `quote`.
    init(fields: JSONFields) throws(CommandParseError) {
        let base: Currency = try fields.field("base")
        let quote: Currency = try fields.field("quote")
        let text: String = try fields.field("rate")
        do {
            self = try ExchangeRate.parse(base: base, quote: quote, text)
        } catch {
            throw .bad(fields.name("rate"), "'\(text)' is not a rate like \"0.9412\" (decimal string, up to 8 decimals, base != quote)")
        }
    }

    func write(to object: inout CommandJSONObject) {
        object.write("base", base)
        object.write("quote", quote)
        object.write("rate", rateText)
    }
}

extension Command {
    /// The command as one line of the JSON schema (Docs/Commands.md): `command`, the envelope,
    /// then the action's fields in their declaration order. ``CommandParser/parse(line:)``
    /// reads it back as this command; a host can keep the commands it executed as a log that
    /// `tally apply` replays.
    public var jsonLine: String {
        var object = CommandJSONObject()
        object.write("command", action.commandName)
        object.write("commandID", commandID)
        object.write("actor", actor)
        object.write("recordedAt", recordedAt)
        action.writeFields(to: &object)
        return CanonicalJSON.text(orderedMembers: object.members)
    }
}
