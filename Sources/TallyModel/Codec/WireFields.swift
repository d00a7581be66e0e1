/// Writes a struct's event-codec `init(from: inout BinaryReader)` and `write(to:)` from its
/// stored properties, in declaration order: the one description of its binary layout
/// (`Docs/Events.md`). Adding a field is adding the property; a type whose layout changes also
/// bumps its schema version and decodes its older layouts by hand (`decode(from:version:)`).
@attached(extension, names: named(init(from:)), named(write(to:)))
package macro WireFields() = #externalMacro(module: "TallyMacros", type: "WireFieldsMacro")
