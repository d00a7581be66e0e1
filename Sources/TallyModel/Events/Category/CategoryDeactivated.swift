/// A category was deactivated: hidden for new entries, history kept (C3).
///
/// Tag 302, schema version 1 (see ``EventTag/categoryDeactivated`` and `Docs/Events.md`).
@WireFields
public struct CategoryDeactivated: Hashable, Sendable {
    /// The category.
    public let categoryID: CategoryID

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(categoryID: CategoryID) {
        self.categoryID = categoryID
    }
}
