import TallyModel

/// A category as a host lists it (C1): its name, group, budget bucket, icon, color, state and tax class,
/// from ``BudgetProjection/categoryList()``, in the household's display order.
public struct CategoryEntry: Hashable, Sendable {
    /// The category.
    public let categoryID: CategoryID
    /// Its name (C2).
    public let name: String
    /// Income or expense.
    public let group: CategoryGroup
    /// The 50/30/20 bucket (B3).
    public let budgetType: BudgetType
    /// Its icon, if any.
    public let icon: String?
    /// Its color, if any.
    public let color: String?
    /// Whether it is usable for new entries (C3).
    public let isActive: Bool
    /// Its tax class, if any (`setCategoryTaxClass`).
    public let taxClass: TaxClass?
}

extension BudgetProjection {
    /// The categories that are not deleted, in display order (C1): creation order until
    /// `reorderCategories` changed it (Docs/Editing.md).
    public func categoryList() -> [CategoryEntry] {
        categoryOrder.compactMap { id in
            guard let category = categories[id], !category.isDeleted else { return nil }
            return CategoryEntry(
                categoryID: id, name: category.name, group: category.group, budgetType: category.budgetType,
                icon: category.icon, color: category.color, isActive: category.isActive, taxClass: category.taxClass)
        }
    }
}
