/// A CSV import mapping was saved under a name (Drishti E6-S9, Flow US-049): which header holds
/// which field, and which file category names import into which categories. Saving a name
/// again replaces the mapping of that name (names compare case-insensitively).
///
/// Tag 800, schema version 1 (see ``EventTag/importMappingSaved`` and `Docs/Events.md`).
@WireFields
public struct ImportMappingSaved: Hashable, Sendable {
    /// The fields a column mapping may name, in the order the import reads them.
    public static let fields = ["date", "amount", "note", "category", "type", "account", "payee", "external_id"]

    /// The mapping's name, as entered.
    public let name: String
    /// Field to header pairs, one per field, in ``fields`` order.
    public let columns: [ImportColumnMapping]
    /// File category names to categories, one per name, by name.
    public let categories: [ImportCategoryMapping]

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(name: String, columns: [ImportColumnMapping], categories: [ImportCategoryMapping]) {
        self.name = name
        self.columns = columns
        self.categories = categories
    }
}
