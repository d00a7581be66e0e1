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

    func expansion(of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
                   type: some TypeSyntaxProtocol, in context: some MacroExpansionContext) throws -> [ExtensionDeclSyntax] {
        guard declaration.is(StructDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: LayoutMessage.notAStruct(node.attributeName.trimmedDescription)))
            return []
        }
        let (fields, unreadable) = Self.storedFields(of: declaration)
        for place in unreadable {
            context.diagnose(Diagnostic(node: place, message: LayoutMessage.unreadableField(node.attributeName.trimmedDescription)))
        }
        guard unreadable.isEmpty else { return [] }
        let reads = fields.map { "self.\($0) = try reader.read()" }.joined(separator: "\n")
        let writes = fields.map { "self.\($0).\(encoder)(to: &writer)" }.joined(separator: "\n")
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

    /// The stored instance properties of `declaration`, in declaration order, and the places
    /// where a property cannot be read as a field (a tuple pattern; a property inside `#if`):
    /// the layout is refused there rather than silently written without it.
    static func storedFields(of declaration: some DeclGroupSyntax) -> (names: [String], unreadable: [Syntax]) {
        var names: [String] = []
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
            for binding in variable.bindings {
                if isLet, binding.initializer != nil { continue }
                if let accessors = binding.accessorBlock, Self.isComputed(accessors) { continue }
                guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else {
                    unreadable.append(Syntax(binding))
                    continue
                }
                names.append(pattern.identifier.text)
            }
        }
        return (names, unreadable)
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

enum LayoutMessage: DiagnosticMessage {
    case notAStruct(String)
    case unreadableField(String)

    var message: String {
        switch self {
        case .notAStruct(let name): "@\(name) describes the stored properties of a struct; write an enum's or a class's coding by hand"
        case .unreadableField(let name): "@\(name) reads one named property per binding, outside #if; declare this field as `let name: Type` (or write the coding by hand)"
        }
    }
    var diagnosticID: MessageID {
        switch self {
        case .notAStruct: MessageID(domain: "TallyMacros", id: "notAStruct")
        case .unreadableField: MessageID(domain: "TallyMacros", id: "unreadableField")
        }
    }
    var severity: DiagnosticSeverity { .error }
}

/// `@WireFields`: the event codec's `init(from: inout BinaryReader)` and `write(to:)` (package
/// access: the wire format is documented in `Docs/Events.md`, not API).
public struct WireFieldsMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        try BinaryLayout(reader: "BinaryReader", error: "EventCodecError", encoder: "write", access: "package")
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
        try BinaryLayout(reader: "StateReader", error: "ProjectionError", encoder: "encode", access: "")
            .expansion(of: node, attachedTo: declaration, type: type, in: context)
    }
}
