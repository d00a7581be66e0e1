import SwiftCompilerPlugin
import SwiftDiagnostics
import SwiftSyntaxMacros

/// The compiler plugin that serves Tally's macros (`Docs/Architecture.md`, "Binary layouts").
@main
struct TallyMacrosPlugin: CompilerPlugin {
    let providingMacros: [Macro.Type] = [WireFieldsMacro.self, StateFieldsMacro.self, WireSinceMacro.self, CommandSchemaMacro.self]
}

/// An error one of Tally's macros reports: its id is its case's name (`notAStruct`,
/// `unlabelled`...), in the domain `TallyMacros`.
protocol TallyMacroMessage: DiagnosticMessage {}

extension TallyMacroMessage {
    var diagnosticID: MessageID {
        MessageID(domain: "TallyMacros", id: String(String(describing: self).prefix { $0 != "(" }))
    }
    var severity: DiagnosticSeverity { .error }
}
