/// Writes a read-model checkpoint record's `init(from: inout StateReader)` and
/// `encode(to:)` from its stored properties, in declaration order: the one description of its
/// checkpoint layout (`Docs/Architecture.md`, "Binary layouts"). A change to the fields changes
/// the checkpoint bytes, so it comes with a new `ProjectionState` format version.
@attached(extension, names: named(init(from:)), named(encode(to:)))
macro StateFields() = #externalMacro(module: "TallyMacros", type: "StateFieldsMacro")
