import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@CommandSchema`: the one description of every command's fields is the enum of actions
/// itself. Each case is a command of the JSON schema under the case's name, and each labelled
/// associated value a field under its label, with the case's default value as the field's
/// default (an optional without one defaults to absent). From that list it writes the JSON
/// parser of every command, the JSON writer, and the schema list the catalog is checked
/// against (`Docs/Commands.md`), so the Swift and the JSON forms cannot drift apart.
///
/// A value whose type is a field group (`CommandFieldGroup`: a transaction's entry, a goal)
/// spreads its own fields into the command's object; which types are groups is decided by the
/// compiler (overloads of `JSONFields.field`), not here.
public struct CommandSchemaMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard declaration.is(EnumDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: SchemaMessage.notAnEnum))
            return []
        }
        var commands: [Command] = []
        var refused = false
        for member in declaration.memberBlock.members {
            guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
            for element in caseDecl.elements {
                var fields: [Field] = []
                for parameter in element.parameterClause?.parameters ?? [] {
                    guard let label = parameter.firstName, label.tokenKind != .wildcard else {
                        context.diagnose(Diagnostic(node: parameter, message: SchemaMessage.unlabelled(element.name.text)))
                        refused = true
                        continue
                    }
                    let name = label.text.trimmingCharacters(in: "`")
                    let defaultValue = parameter.defaultValue?.value.trimmedDescription
                    if let optional = parameter.type.as(OptionalTypeSyntax.self) {
                        // An absent optional field is nil; another default would hold in Swift only.
                        guard defaultValue == nil || defaultValue == "nil" else {
                            context.diagnose(Diagnostic(node: parameter, message: SchemaMessage.optionalDefault(name)))
                            refused = true
                            continue
                        }
                        fields.append(Field(name: name, valueType: optional.wrappedType.trimmedDescription, isOptional: true, defaultValue: nil))
                    } else if let named = parameter.type.as(IdentifierTypeSyntax.self), named.name.text == "Optional" {
                        context.diagnose(Diagnostic(node: parameter, message: SchemaMessage.spelledOptional(name)))
                        refused = true
                    } else {
                        fields.append(Field(name: name, valueType: parameter.type.trimmedDescription, isOptional: false, defaultValue: defaultValue))
                    }
                }
                commands.append(Command(name: element.name.text.trimmingCharacters(in: "`"), fields: fields))
            }
        }
        guard !refused else { return [] }

        let parsers = commands.map { command in
            let arguments = command.fields.map { field in
                let read: String
                if field.isOptional {
                    read = "try fields.optionalField(\"\(field.name)\")"
                } else if let defaultValue = field.defaultValue {
                    read = "try fields.field(\"\(field.name)\", default: \(defaultValue))"
                } else {
                    read = "try fields.field(\"\(field.name)\")"
                }
                return "\(field.name): \(read)"
            }
            let value = arguments.isEmpty ? ".\(command.name)" : ".\(command.name)(\(arguments.joined(separator: ", ")))"
            return "case \"\(command.name)\": return \(value)"
        }.joined(separator: "\n")

        let names = commands.map { "case .\($0.name): \"\($0.name)\"" }.joined(separator: "\n")

        let writes = commands.map { command in
            guard !command.fields.isEmpty else { return "case .\(command.name): break" }
            let bindings = command.fields.map { "let `\($0.name)`" }.joined(separator: ", ")
            let body = command.fields.map { "__fields.write(\"\($0.name)\", `\($0.name)`)" }.joined(separator: "\n")
            return "case .\(command.name)(\(bindings)):\n\(body)"
        }.joined(separator: "\n")

        let schema = commands.map { command in
            let fields = command.fields.map { field in
                let defaultText = field.defaultValue.map { StringLiteralExprSyntax(content: $0).description } ?? "nil"
                return "CommandSchemaField(name: \"\(field.name)\", valueType: (\(field.valueType)).self, isOptional: \(field.isOptional), defaultValue: \(defaultText))"
            }
            return "CommandSchemaEntry(name: \"\(command.name)\", fields: [\(fields.joined(separator: ", "))])"
        }.joined(separator: ",\n")

        let source: DeclSyntax = """
            extension \(type.trimmed) {
                /// Reads the fields of the command named `name`; `nil` when no command has that name.
                static func parseFields(of name: String, from fields: JSONFields) throws(CommandParseError) -> \(type.trimmed)? {
                    switch name {
                    \(raw: parsers)
                    default: return nil
                    }
                }

                /// The command's name in the JSON schema: the case's name.
                public var commandName: String {
                    switch self {
                    \(raw: names)
                    }
                }

                /// Writes the action's fields under their JSON names.
                func writeFields(to __fields: inout CommandJSONObject) {
                    switch self {
                    \(raw: writes)
                    }
                }

                /// Every command with its fields, in declaration order.
                static let schema: [CommandSchemaEntry] = [
                    \(raw: schema)
                ]
            }
            """
        guard let extensionDecl = source.as(ExtensionDeclSyntax.self) else { return [] }
        return [extensionDecl]
    }

    struct Command {
        let name: String
        let fields: [Field]
    }

    struct Field {
        let name: String
        let valueType: String
        let isOptional: Bool
        let defaultValue: String?
    }
}

extension String {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        var text = Substring(self)
        while text.first == character { text = text.dropFirst() }
        while text.last == character { text = text.dropLast() }
        return String(text)
    }
}

enum SchemaMessage: TallyMacroMessage {
    case notAnEnum
    case unlabelled(String)
    case optionalDefault(String)
    case spelledOptional(String)

    var message: String {
        switch self {
        case .notAnEnum: "@CommandSchema describes the cases of an enum of commands"
        case .unlabelled(let command): "every value of \(command) is a field of the JSON schema: label it with the field's JSON name"
        case .optionalDefault(let field): "\(field) is optional, so an absent \(field) is nil in the JSON schema; give it no default other than nil, or make it non-optional with this default"
        case .spelledOptional(let field): "write \(field)'s type as T? (the schema reads Optional from that spelling)"
        }
    }
}
