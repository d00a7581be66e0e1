import TallyModel

/// The rows a run of events changes: the keys to rewrite from the read models after they were
/// applied. Wallet balances, totals and household debts are small (O(wallets), O(members)):
/// every commit compares them with the stored rows and writes those that differ.
package struct StoreChanges: Sendable, Equatable {
    /// Transactions recorded, edited, deleted or restored.
    package private(set) var transactionIDs: Set<TransactionID> = []
    /// Transfers recorded or deleted.
    package private(set) var transferIDs: Set<TransferID> = []
    /// Settlements recorded (S6; permanent: never changed after).
    package private(set) var settlementIDs: Set<SettlementID> = []
    /// People whose name row may have changed (added, renamed, forgotten).
    package private(set) var personIDs: Set<PersonID> = []
    /// Categories whose name row may have changed (created, renamed, deleted).
    package private(set) var categoryIDs: Set<CategoryID> = []
    /// Categories deleted with a reassignment target, in order (C3): their transactions' rows
    /// move to the target (one statement each, not a row per transaction).
    package private(set) var categoryReassignments: [CategoryReassignment] = []
    /// The people forgotten (P3): the store then drops every copy of their texts.
    package private(set) var forgottenPeople: Set<PersonID> = []
    /// How many events these changes cover.
    package private(set) var eventCount = 0

    /// No changes.
    package init() {}

    /// Whether a person was forgotten (P3).
    package var forgetsPeople: Bool { !forgottenPeople.isEmpty }

    /// Marks a forgetting (P3): the texts of `people` the store holds are rewritten from the
    /// read models (redacted) and old pages dropped.
    package mutating func forget(_ people: some Sequence<PersonID>) {
        forgottenPeople.formUnion(people)
        personIDs.formUnion(people)
    }

    /// These changes and `later`'s, as one commit.
    package mutating func formUnion(_ later: StoreChanges) {
        transactionIDs.formUnion(later.transactionIDs)
        transferIDs.formUnion(later.transferIDs)
        settlementIDs.formUnion(later.settlementIDs)
        personIDs.formUnion(later.personIDs)
        categoryIDs.formUnion(later.categoryIDs)
        categoryReassignments += later.categoryReassignments
        forgottenPeople.formUnion(later.forgottenPeople)
        eventCount += later.eventCount
    }

    /// Adds the changes of one event, the one numbered `sequenceNumber`.
    package mutating func add(_ event: Event, sequenceNumber: UInt64) {
        eventCount += 1
        if let id = event.payload.changedTransactionID { transactionIDs.insert(id) }
        switch event.payload {
        case .transferRecorded(let transfer): transferIDs.insert(transfer.transferID)
        case .transferEdited(let edited): transferIDs.insert(edited.transfer.transferID)
        case .transferDeleted(let deleted): transferIDs.insert(deleted.transferID)
        case .settlementRecorded(let settlement): settlementIDs.insert(settlement.settlementID)
        case .householdCreated(let created): personIDs.insert(created.admin)
        case .memberAdded(let added): personIDs.insert(added.personID)
        case .personAdded(let added): personIDs.insert(added.personID)
        case .personUpdated(let updated): personIDs.insert(updated.personID)
        case .personForgotten(let forgotten): personIDs.insert(forgotten.personID)
        case .categoryCreated(let created): categoryIDs.insert(created.categoryID)
        case .categoryRenamed(let renamed): categoryIDs.insert(renamed.categoryID)
        case .categoryDeleted(let deleted):
            categoryIDs.insert(deleted.categoryID)
            if let target = deleted.reassignedTo {
                categoryReassignments.append(CategoryReassignment(from: deleted.categoryID, to: target, sequenceNumber: sequenceNumber))
            }
        default: break
        }
    }
}

/// A deleted category's transactions moved to another (C3, `CategoryDeleted.reassignedTo`).
package struct CategoryReassignment: Sendable, Equatable {
    package let from: CategoryID
    package let to: CategoryID
    /// The `CategoryDeleted` event's: the moved transactions' last change.
    package let sequenceNumber: UInt64
}
