/// A saved CSV import mapping was removed (Drishti E6-S9).
///
/// Tag 801, schema version 1 (see ``EventTag/importMappingRemoved`` and `Docs/Events.md`).
@WireFields
public struct ImportMappingRemoved: Hashable, Sendable {
    /// The mapping's name (case-insensitive).
    public let name: String

    /// Creates the payload.
    public init(name: String) {
        self.name = name
    }
}
