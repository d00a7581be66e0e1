/// A category was deleted; its transactions moved to the reassignment target if one is given (C3).
///
/// Tag 304, schema version 1 (see ``EventTag/categoryDeleted`` and `Docs/Events.md`).
@WireFields
public struct CategoryDeleted: Hashable, Sendable {
    /// The category.
    public let categoryID: CategoryID
    /// The category that takes over its transactions (C3); `nil` if it had none.
    public let reassignedTo: CategoryID?

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(categoryID: CategoryID, reassignedTo: CategoryID?) {
        self.categoryID = categoryID
        self.reassignedTo = reassignedTo
    }
}
