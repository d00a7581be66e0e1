/// A category was renamed (C2).
///
/// Tag 301, schema version 1 (see ``EventTag/categoryRenamed`` and `Docs/Events.md`).
@WireFields
public struct CategoryRenamed: Hashable, Sendable {
    /// The category.
    public let categoryID: CategoryID
    /// The new name (C2).
    public let name: String

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(categoryID: CategoryID, name: String) {
        self.categoryID = categoryID
        self.name = name
    }
}
