import TallyModel

/// A category (C1-C3), the one record of it: one book of them (the budget read model's)
/// serves the read models and the engine's validation alike.
@StateFields
package struct CategoryRecord: Hashable, Sendable {
    /// Its name (C2).
    package internal(set) var name: String
    /// Income or expense.
    package let group: CategoryGroup
    /// The 50/30/20 bucket (C1, B3).
    package internal(set) var budgetType: BudgetType
    /// Whether it was deleted (C3).
    package internal(set) var isDeleted: Bool
    /// Its icon, if any (C1).
    package internal(set) var icon: String?
    /// Its color, if any (C1).
    package internal(set) var color: String?
    /// Whether it is usable for new entries (C3): not deactivated, not deleted.
    package internal(set) var isActive: Bool
    /// Whether shared transactions may use it.
    package let shareable: Bool
    /// Whether it is a preset (C2).
    package let isPreset: Bool
    /// Its tax class, if any (`CategoryTaxClassSet`): what its transactions count toward in the
    /// tax report.
    package internal(set) var taxClass: TaxClass? = nil
}

/// One `BudgetAllocated`, or one `BudgetRemoved` (`amount` nil: not budgeted from then on) (B2).
@StateFields
struct AllocationRecord: Hashable, Sendable {
    let amount: Money?
    let fromPeriod: LocalDate
    let sequenceNumber: UInt64
}

extension CategoryRecord: StateCodable {}

extension AllocationRecord: StateCodable {}

extension BudgetAdjustment: StateCodable {}

