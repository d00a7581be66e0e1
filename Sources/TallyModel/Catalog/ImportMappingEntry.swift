/// One pair of a saved CSV import mapping (Docs/Interchange.md, "Saved mappings"): an import
/// field and the file's header that holds it, or a category name of the file and the category
/// it imports into.
@WireFields
public struct ImportColumnMapping: Hashable, Sendable {
    /// The import field: one of ``ImportMappingSaved/fields``.
    public var field: String
    /// The header name in the file (matched case-insensitively).
    public var column: String

    /// Creates a pair.
    public init(field: String, column: String) {
        self.field = field
        self.column = column
    }
}

/// A category name as a file writes it and the ledger's category it imports into (Flow US-049:
/// several names may go to one category).
@WireFields
public struct ImportCategoryMapping: Hashable, Sendable {
    /// The name in the file (matched case-insensitively).
    public var name: String
    /// The category.
    public var categoryID: CategoryID

    /// Creates a pair.
    public init(name: String, categoryID: CategoryID) {
        self.name = name
        self.categoryID = categoryID
    }
}
