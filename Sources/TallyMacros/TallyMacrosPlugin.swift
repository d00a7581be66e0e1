import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin that serves Tally's macros (`Docs/Architecture.md`, "Binary layouts").
@main
struct TallyMacrosPlugin: CompilerPlugin {
    let providingMacros: [Macro.Type] = [WireFieldsMacro.self, StateFieldsMacro.self, WireSinceMacro.self, CommandSchemaMacro.self]
}
