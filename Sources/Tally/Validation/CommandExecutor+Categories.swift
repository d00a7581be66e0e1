import TallyModel
import TallyProjections

extension CommandExecutor {
    func validateCategory(_ command: Command) throws(LedgerError) -> [EventPayload] {
        switch command.action {
        case .createCategory(let id, let name, let group, let budgetType, let shareable, let icon, let color):
            guard state.categories[id] == nil else { throw .violation(.duplicateID, "category id \(id) is already used") }
            try requireName(name, of: "category")
            try requireUniqueCategoryName(name, except: nil)
            return [.categoryCreated(CategoryCreated(
                categoryID: id, name: name, group: group, budgetType: budgetType, shareable: shareable,
                icon: icon, color: color, isPreset: false))]
        case .renameCategory(let id, let name):
            _ = try existingCategory(id)
            try requireName(name, of: "category")
            try requireUniqueCategoryName(name, except: id)
            return [.categoryRenamed(CategoryRenamed(categoryID: id, name: name))]
        case .deactivateCategory(let id):
            let category = try existingCategory(id)
            guard category.isActive else { throw .violation(.categoryStateUnchanged, "\(category.name) is inactive already") }
            return [.categoryDeactivated(CategoryDeactivated(categoryID: id))]
        case .reactivateCategory(let id):
            let category = try existingCategory(id)
            guard !category.isActive else { throw .violation(.categoryStateUnchanged, "\(category.name) is active already") }
            return [.categoryReactivated(CategoryReactivated(categoryID: id))]
        case .deleteCategory(let id, let target):
            return try deleteCategory(id, reassignTo: target)
        case .updateCategory(let id, let budgetType, let icon, let color):
            _ = try existingCategory(id)
            return [.categoryUpdated(CategoryUpdated(categoryID: id, budgetType: budgetType, icon: icon, color: color))]
        case .setCategoryTaxClass(let id, let taxClass):
            let category = try existingCategory(id)
            guard category.taxClass != taxClass else {
                throw .violation(.categoryStateUnchanged, "\(category.name) has tax class \(taxClass.map { "\($0)" } ?? "none") already")
            }
            return [.categoryTaxClassSet(CategoryTaxClassSet(categoryID: id, taxClass: taxClass))]
        case .reorderCategories(let ids):
            var seen = Set<CategoryID>()
            for id in ids {
                let category = try existingCategory(id)
                guard seen.insert(id).inserted else {
                    throw .violation(.categoryListedTwice, "\(category.name) is listed twice; list each category once, in the new order")
                }
            }
            guard !ids.isEmpty else { throw .violation(.categoryListedTwice, "list at least one category, in the new order") }
            return [.categoriesReordered(CategoriesReordered(categoryIDs: CategoryOrder.reordering(ids, in: state.categoryOrder)))]
        default:
            return []
        }
    }

    /// C2: presets stay; C3: a category with transactions needs a reassignment target of the same
    /// group, one with group expenses cannot be deleted (they are not reassigned).
    private func deleteCategory(_ id: CategoryID, reassignTo target: CategoryID?) throws(LedgerError) -> [EventPayload] {
        let category = try existingCategory(id)
        let counts = state.categoryCounts[id] ?? CategoryCounts()
        guard !category.isPreset else {
            throw .violation(.presetCategoryCannotBeDeleted, "\(category.name) is a preset category; presets cannot be deleted, deactivate it instead")
        }
        guard counts.groupExpenses == 0 else {
            throw .violation(.categoryHasGroupExpenses, "\(category.name) has \(counts.groupExpenses) group expenses (deleted ones count, undo can bring them back); deactivate it, or file those expenses under another category first")
        }
        guard let target else {
            guard counts.entries == 0 else {
                throw .violation(.categoryHasTransactions, "\(category.name) has \(counts.entries) transactions or templates; deactivate it, or delete it with a category to reassign them to")
            }
            return [.categoryDeleted(CategoryDeleted(categoryID: id, reassignedTo: nil))]
        }
        guard target != id else { throw .violation(.unknownCategory, "a category cannot be reassigned to itself") }
        let replacement = try usableCategory(target)
        guard replacement.group == category.group else {
            throw .violation(.categoryGroupMismatch, "\(category.name) is an \(category.group) category; its transactions can only move to another \(category.group) category, not \(replacement.name)")
        }
        return [.categoryDeleted(CategoryDeleted(categoryID: id, reassignedTo: counts.entries > 0 ? target : nil))]
    }

    /// C2: names are unique in the household, ignoring case (deleted categories release theirs).
    private func requireUniqueCategoryName(_ name: String, except id: CategoryID?) throws(LedgerError) {
        let lowered = name.lowercased()
        if let (_, other) = state.categories.first(where: {
            $0.key != id && !$0.value.isDeleted && $0.value.name.lowercased() == lowered
        }) {
            throw .violation(.categoryNameTaken, "a category named \"\(other.name)\" exists already; choose another name")
        }
    }

    /// The category with `id` unless deleted.
    func existingCategory(_ id: CategoryID) throws(LedgerError) -> CategoryRecord {
        guard let category = state.categories[id], !category.isDeleted else {
            throw .violation(.unknownCategory, "no category has id \(id)")
        }
        return category
    }

    /// The category with `id` if it is active (C3).
    func usableCategory(_ id: CategoryID) throws(LedgerError) -> CategoryRecord {
        let category = try existingCategory(id)
        guard category.isActive else {
            throw .violation(.categoryInactive, "\(category.name) is deactivated; reactivate it or pick another category")
        }
        return category
    }
}
