import TallyModel

/// The sample data loaded now (E5-S6): the commands a `loadSampleData` named and what they
/// created, so that every list can flag an entry as sample ("flagged in UI") and
/// `clearSampleData` can undo them (T5). Folded from `SampleDataLoaded` and dropped by
/// `SampleDataCleared`; its size is the sample's, not the history's.
///
/// It lists nothing by itself: it answers, for an id a read returned, whether that entity is
/// sample data, so it shows a viewer nothing their own reads did not (G7).
public struct SampleData: Sendable, Equatable {
    /// The command that recorded `SampleDataLoaded`.
    public let loadCommandID: CommandID
    /// The sample commands, in the order they were executed.
    public let commandIDs: [CommandID]
    /// What the sample commands created (the keys they own that no earlier command touched),
    /// undone ones included.
    package let keys: Set<EntityKey>

    package init(loadCommandID: CommandID, commandIDs: [CommandID], keys: Set<EntityKey>) {
        self.loadCommandID = loadCommandID
        self.commandIDs = commandIDs
        self.keys = keys
    }

    /// Whether a sample command recorded the transaction.
    public func contains(transaction id: TransactionID) -> Bool { keys.contains(.transaction(id)) }
    /// Whether a sample command opened the wallet.
    public func contains(wallet id: WalletID) -> Bool { keys.contains(.wallet(id)) }
    /// Whether a sample command recorded the transfer.
    public func contains(transfer id: TransferID) -> Bool { keys.contains(.transfer(id)) }
    /// Whether a sample command created the category.
    public func contains(category id: CategoryID) -> Bool { keys.contains(.category(id)) }
    /// Whether a sample command created the recurring template.
    public func contains(template id: TemplateID) -> Bool { keys.contains(.template(id)) }
    /// Whether a sample command created the group.
    public func contains(group id: GroupID) -> Bool { keys.contains(.group(id)) }
    /// Whether a sample command recorded the group expense.
    public func contains(groupExpense id: GroupExpenseID) -> Bool { keys.contains(.groupExpense(id)) }
    /// Whether a sample command created the goal.
    public func contains(goal id: GoalID) -> Bool { keys.contains(.goal(id)) }
}
