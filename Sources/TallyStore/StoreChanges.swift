import TallyModel

/// The rows a run of events changes: the keys to rewrite from the read models after they were
/// applied. Wallets, totals and debts are small (O(live)) and rewritten whole on every commit.
public struct StoreChanges: Sendable, Equatable {
    /// Transactions recorded, edited, deleted or restored.
    public private(set) var transactionIDs: Set<TransactionID> = []
    /// Transfers recorded or deleted.
    public private(set) var transferIDs: Set<TransferID> = []
    /// The people forgotten (P3): the store then drops every copy of their texts.
    public private(set) var forgottenPeople: Set<PersonID> = []
    /// How many events these changes cover.
    public private(set) var eventCount = 0

    /// No changes.
    public init() {}

    /// Whether a person was forgotten (P3).
    public var forgetsPeople: Bool { !forgottenPeople.isEmpty }

    /// Marks a forgetting (P3): the texts of `people` the store holds are rewritten from the
    /// read models (redacted) and old pages dropped.
    public mutating func forget(_ people: some Sequence<PersonID>) { forgottenPeople.formUnion(people) }

    /// Adds the changes of one event.
    public mutating func add(_ event: Event) {
        eventCount += 1
        switch event.payload {
        case .transactionRecorded(let recorded): transactionIDs.insert(recorded.transactionID)
        case .templateActivated(let activated): transactionIDs.insert(activated.transactionID)
        case .transactionEdited(let edited): transactionIDs.insert(edited.transactionID)
        case .transactionDeleted(let deleted): transactionIDs.insert(deleted.transactionID)
        case .transactionRestored(let restored): transactionIDs.insert(restored.transactionID)
        case .transferRecorded(let transfer): transferIDs.insert(transfer.transferID)
        case .transferEdited(let edited): transferIDs.insert(edited.transfer.transferID)
        case .transferDeleted(let deleted): transferIDs.insert(deleted.transferID)
        default: break
        }
    }
}
