/// A deactivated category can be used again (C3).
///
/// Tag 303, schema version 1 (see ``EventTag/categoryReactivated`` and `Docs/Events.md`).
@WireFields
public struct CategoryReactivated: Hashable, Sendable {
    /// The category.
    public let categoryID: CategoryID

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(categoryID: CategoryID) {
        self.categoryID = categoryID
    }
}
