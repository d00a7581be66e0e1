import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// The one description of a record's binary layout: its stored properties, in declaration
/// order. `@WireFields` (event payloads and model values, `Docs/Events.md`) and `@StateFields`
/// (read-model checkpoints) write the decoder and the encoder from that list, so a field is
/// added by adding the property (and the format version that says the layout changed).
///
/// What counts as a field: every stored instance property (`let` or `var`, with or without
/// observers), except a `let` with an initial value (a constant, not data). Computed
/// properties, `static` and `lazy` ones are not fields.
struct BinaryLayout {
    /// The reader type, the error it throws, the encoder's name and the access level of what
    /// is generated.
    let reader: String
    let error: String
    let encoder: String
    let access: String
    /// Whether fields may carry `@WireSince(n)` (the event codec reads by schema version; a
    /// checkpoint record has no version of its own).
    let versioned: Bool

    func expansion(of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
                   type: some TypeSyntaxProtocol, in context: some MacroExpansionContext) throws -> [ExtensionDeclSyntax] {
        guard declaration.is(StructDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: LayoutMessage.notAStruct(node.attributeName.trimmedDescription)))
            return []
        }
        let macroName = node.attributeName.trimmedDescription
        let (fields, unreadable) = Self.storedFields(of: declaration)
        for place in unreadable {
            context.diagnose(Diagnostic(node: place, message: LayoutMessage.unreadableField(macroName)))
        }
        var misplaced: [Syntax] = []
        for (index, field) in fields.enumerated() where field.since != nil {
            if !versioned || fields[index...].contains(where: { $0.since == nil }) { misplaced.append(field.place) }
        }
        for place in misplaced {
            context.diagnose(Diagnostic(node: place, message: versioned ? LayoutMessage.sinceNotLast : LayoutMessage.sinceUnversioned(macroName)))
        }
        guard unreadable.isEmpty, misplaced.isEmpty else { return [] }
        let reads = fields.map { field in
            "self.\(field.name) = try reader.read(\(field.since.map { "since: \($0)" } ?? ""))"
        }.joined(separator: "\n")
        let writes = fields.map { "self.\($0.name).\(encoder)(to: &writer)" }.joined(separator: "\n")
        let prefix = access.isEmpty ? "" : access + " "
        let source: DeclSyntax = """
            extension \(type.trimmed) {
                \(raw: prefix)init(from reader: inout \(raw: reader)) throws(\(raw: error)) {
                    \(raw: reads)
                }

                \(raw: prefix)func \(raw: encoder)(to writer: inout BinaryWriter) {
                    \(raw: writes)
                }
            }
            """
        guard let extensionDecl = source.as(ExtensionDeclSyntax.self) else { return [] }
        return [extensionDecl]
    }

    /// A field: its name, the schema version that added it (`@WireSince(n)`, written as given)
    /// and where it is declared.
    struct Field {
        let name: String
        let since: String?
        let place: Syntax
    }

    /// The stored instance properties of `declaration`, in declaration order, and the places
    /// where a property cannot be read as a field (a tuple pattern; a property inside `#if`):
    /// the layout is refused there rather than silently written without it.
    static func storedFields(of declaration: some DeclGroupSyntax) -> (fields: [Field], unreadable: [Syntax]) {
        var fields: [Field] = []
        var unreadable: [Syntax] = []
        for member in declaration.memberBlock.members {
            if let conditional = member.decl.as(IfConfigDeclSyntax.self) {
                let holdsProperty = conditional.clauses.contains { clause in
                    guard case .decls(let members)? = clause.elements else { return false }
                    return members.contains { $0.decl.is(VariableDeclSyntax.self) }
                }
                if holdsProperty { unreadable.append(Syntax(conditional)) }
                continue
            }
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            let excluded: Set<Keyword> = [.static, .class, .lazy]
            if variable.modifiers.contains(where: { modifier in
                if case .keyword(let keyword) = modifier.name.tokenKind { return excluded.contains(keyword) }
                return false
            }) { continue }
            let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
            let since = variable.attributes.lazy.compactMap { $0.as(AttributeSyntax.self) }
                .first { $0.attributeName.trimmedDescription == "WireSince" }
                .map { $0.arguments?.trimmedDescription ?? "" }
            for binding in variable.bindings {
                if isLet, binding.initializer != nil { continue }
                if let accessors = binding.accessorBlock, Self.isComputed(accessors) { continue }
                guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else {
                    unreadable.append(Syntax(binding))
                    continue
                }
                fields.append(Field(name: pattern.identifier.text, since: since, place: Syntax(binding)))
            }
        }
        return (fields, unreadable)
    }

    /// A getter, or any accessor other than the `willSet` / `didSet` observers.
    static func isComputed(_ block: AccessorBlockSyntax) -> Bool {
        switch block.accessors {
        case .getter: return true
        case .accessors(let accessors):
            return accessors.contains { accessor in
                accessor.accessorSpecifier.tokenKind != .keyword(.willSet)
                    && accessor.accessorSpecifier.tokenKind != .keyword(.didSet)
            }
        }
    }
}

enum LayoutMessage: TallyMacroMessage {
    case notAStruct(String)
    case unreadableField(String)
    case sinceNotLast
    case sinceUnversioned(String)

    var message: String {
        switch self {
        case .notAStruct(let name): "@\(name) describes the stored properties of a struct; write an enum's or a class's coding by hand"
        case .unreadableField(let name): "@\(name) reads one named property per binding, outside #if; declare this field as `let name: Type` (or write the coding by hand)"
        case .sinceNotLast: "a field marked @WireSince is read only from newer payloads, so it must come after every unmarked field; move it to the end"
        case .sinceUnversioned(let name): "@\(name) records have no schema version of their own; change the record's format version instead of marking a field @WireSince"
        }
    }
}

/// `@WireFields`: the event codec's `init(from: inout BinaryReader)` and `write(to:)` (package
/// access: the wire format is documented in `Docs/Events.md`, not API).
public struct WireFieldsMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        try BinaryLayout(reader: "BinaryReader", error: "EventCodecError", encoder: "write", access: "package", versioned: true)
            .expansion(of: node, attachedTo: declaration, type: type, in: context)
    }
}

/// `@StateFields`: a read-model checkpoint record's `init(from: inout StateReader)` and
/// `encode(to:)` (internal to TallyProjections).
public struct StateFieldsMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        try BinaryLayout(reader: "StateReader", error: "ProjectionError", encoder: "encode", access: "", versioned: false)
            .expansion(of: node, attachedTo: declaration, type: type, in: context)
    }
}

/// `@WireSince(n)`: a marker read by `@WireFields` (the field schema version `n` added); it
/// generates nothing itself.
public struct WireSinceMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}
