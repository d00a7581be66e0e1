import TallyModel

/// The names the JSON schema uses for the model's enums (the Swift case names).
enum SchemaNames {
    static let walletKinds: [String: WalletKind] = [
        "cash": .cash, "bank": .bank, "card": .card, "savings": .savings, "investment": .investment,
        "property": .property, "loan": .loan, "other": .other,
    ]
    static let walletDesignations: [String: WalletDesignation] = [
        "inflow": .inflow, "outflow": .outflow, "both": .both, "neither": .neither,
    ]
    static let groups: [String: CategoryGroup] = ["income": .income, "expense": .expense]
    static let budgetTypes: [String: BudgetType] = ["needs": .needs, "wants": .wants, "savings": .savings, "none": .none]
    static let kinds: [String: TransactionKind] = ["income": .income, "expense": .expense]
    static let frequencies: [String: RecurrenceFrequency] = [
        "daily": .daily, "weekly": .weekly, "biweekly": .biweekly, "monthly": .monthly, "quarterly": .quarterly,
        "semiannual": .semiannual, "yearly": .yearly, "annual": .yearly,
    ]
    static let ratioModes: [String: SplitRatioMode] = ["manual": .manual, "incomeBased": .incomeBased]
    static let incomeModes: [String: IncomeMode] = ["manual": .manual, "auto": .auto]
}
