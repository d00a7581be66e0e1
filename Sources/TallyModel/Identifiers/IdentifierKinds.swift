/// Marks identifiers of a household ledger.
public enum HouseholdIDKind: IdentifierKind {
    /// `"household"`.
    public static let kindName = "household"
}

/// Identifies a household ledger.
public typealias HouseholdID = Identifier<HouseholdIDKind>

/// Marks identifiers of a household member or a contact.
public enum PersonIDKind: IdentifierKind {
    /// `"person"`.
    public static let kindName = "person"
}

/// Identifies a household member or a contact.
public typealias PersonID = Identifier<PersonIDKind>

/// Marks identifiers of a wallet (account).
public enum WalletIDKind: IdentifierKind {
    /// `"wallet"`.
    public static let kindName = "wallet"
}

/// Identifies a wallet (account).
public typealias WalletID = Identifier<WalletIDKind>

/// Marks identifiers of a category.
public enum CategoryIDKind: IdentifierKind {
    /// `"category"`.
    public static let kindName = "category"
}

/// Identifies a category.
public typealias CategoryID = Identifier<CategoryIDKind>

/// Marks identifiers of an income or expense transaction.
public enum TransactionIDKind: IdentifierKind {
    /// `"transaction"`.
    public static let kindName = "transaction"
}

/// Identifies an income or expense transaction.
public typealias TransactionID = Identifier<TransactionIDKind>

/// Marks identifiers of a transfer between two wallets.
public enum TransferIDKind: IdentifierKind {
    /// `"transfer"`.
    public static let kindName = "transfer"
}

/// Identifies a transfer between two wallets.
public typealias TransferID = Identifier<TransferIDKind>

/// Marks identifiers of a recurring transaction template.
public enum TemplateIDKind: IdentifierKind {
    /// `"template"`.
    public static let kindName = "template"
}

/// Identifies a recurring transaction template.
public typealias TemplateID = Identifier<TemplateIDKind>

/// Marks identifiers of a settlement of debts.
public enum SettlementIDKind: IdentifierKind {
    /// `"settlement"`.
    public static let kindName = "settlement"
}

/// Identifies a settlement of debts.
public typealias SettlementID = Identifier<SettlementIDKind>

/// Marks identifiers of a group of people who share expenses.
public enum GroupIDKind: IdentifierKind {
    /// `"group"`.
    public static let kindName = "group"
}

/// Identifies a group of people who share expenses.
public typealias GroupID = Identifier<GroupIDKind>

/// Marks identifiers of an expense recorded in a group.
public enum GroupExpenseIDKind: IdentifierKind {
    /// `"groupExpense"`.
    public static let kindName = "groupExpense"
}

/// Identifies an expense recorded in a group.
public typealias GroupExpenseID = Identifier<GroupExpenseIDKind>

/// Marks identifiers of the command that produced an event.
public enum CommandIDKind: IdentifierKind {
    /// `"command"`.
    public static let kindName = "command"
}

/// Identifies the command that produced an event.
public typealias CommandID = Identifier<CommandIDKind>

/// Marks identifiers of a savings goal (R2).
public enum GoalIDKind: IdentifierKind {
    /// `"goal"`.
    public static let kindName = "goal"
}

/// Identifies a savings goal (R2).
public typealias GoalID = Identifier<GoalIDKind>

/// Marks identifiers of a planning scenario (R3).
public enum ScenarioIDKind: IdentifierKind {
    /// `"scenario"`.
    public static let kindName = "scenario"
}

/// Identifies a planning scenario (R3).
public typealias ScenarioID = Identifier<ScenarioIDKind>

/// Marks identifiers of a saved view: a saved filter or report template (Flow US-058, Swiff 2.3.3).
public enum ViewIDKind: IdentifierKind {
    /// `"view"`.
    public static let kindName = "view"
}

/// Identifies a saved view: a saved filter or report template (Flow US-058, Swiff 2.3.3).
public typealias ViewID = Identifier<ViewIDKind>

/// Marks identifiers of an invitation to join the household (Flow US-005).
public enum InvitationIDKind: IdentifierKind {
    /// `"invitation"`.
    public static let kindName = "invitation"
}

/// Identifies an invitation to join the household (Flow US-005).
public typealias InvitationID = Identifier<InvitationIDKind>
