/// How a reordering of categories resolves into the full display order (C1): shared by the
/// engine (which records the resolved order in `CategoriesReordered`) and the read model.
public enum CategoryOrder {
    /// The order after moving `requested` (distinct ids, each in `current`) into the places
    /// those categories held in `current`, in the requested order; every other category keeps
    /// its place. Reordering only the expense categories leaves the income ones where they are.
    public static func reordering(_ requested: [CategoryID], in current: [CategoryID]) -> [CategoryID] {
        let moved = Set(requested)
        var next = requested.makeIterator()
        return current.map { id in moved.contains(id) ? next.next() ?? id : id }
    }

    /// `order` as recorded, then any category of `previous` it leaves out, in their previous
    /// order (a category created after the order was taken, when an undo puts an older order
    /// back), without duplicates.
    public static func resolved(_ order: [CategoryID], keeping previous: [CategoryID]) -> [CategoryID] {
        var seen = Set<CategoryID>()
        var result: [CategoryID] = []
        for id in order + previous where seen.insert(id).inserted { result.append(id) }
        return result
    }
}
