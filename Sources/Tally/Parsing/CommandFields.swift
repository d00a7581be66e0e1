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
