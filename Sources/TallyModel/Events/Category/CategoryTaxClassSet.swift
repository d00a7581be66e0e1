/// A category's tax class was set or removed (Swiss tax categorization, Phase 5 business): the
/// category's transactions count toward that class in the tax report of a year.
///
/// Tag 611, schema version 1 (see ``EventTag/categoryTaxClassSet`` and `Docs/Events.md`).
@WireFields
public struct CategoryTaxClassSet: Hashable, Sendable {
    /// The category.
    public let categoryID: CategoryID
    /// The tax class; `nil` removes it.
    public let taxClass: TaxClass?

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(categoryID: CategoryID, taxClass: TaxClass?) {
        self.categoryID = categoryID
        self.taxClass = taxClass
    }
}
