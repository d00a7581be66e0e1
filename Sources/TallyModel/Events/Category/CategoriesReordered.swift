/// The household's categories were put in a new order (C1): every category, deleted ones
/// included, in display order. The event records the resolved order, not the reordering asked
/// for, so replay never depends on how a reordering is resolved (G4).
///
/// Tag 311, schema version 1 (see ``EventTag/categoriesReordered`` and `Docs/Events.md`).
@WireFields
public struct CategoriesReordered: Hashable, Sendable {
    /// Every category, in the new order.
    public let categoryIDs: [CategoryID]

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(categoryIDs: [CategoryID]) {
        self.categoryIDs = categoryIDs
    }
}
