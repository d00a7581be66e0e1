import TallyModel

/// The key of one debt item: one person's share of one shared transaction or group expense
/// (the share of the person who is not the payer).
struct DebtItemKey: Hashable, Comparable, Sendable {
    /// 0 for a household transaction, 1 for a group expense.
    let sourceKind: UInt8
    let sourceID: UUIDValue
    let person: PersonID

    init(_ source: SettledItem, person: PersonID) {
        switch source {
        case .transaction(let id): (sourceKind, sourceID) = (0, id.value)
        case .groupExpense(let id): (sourceKind, sourceID) = (1, id.value)
        }
        self.person = person
    }

    init(sourceKind: UInt8, sourceID: UUIDValue, person: PersonID) {
        (self.sourceKind, self.sourceID, self.person) = (sourceKind, sourceID, person)
    }

    static func < (lhs: DebtItemKey, rhs: DebtItemKey) -> Bool {
        (lhs.sourceKind, lhs.sourceID, lhs.person) < (rhs.sourceKind, rhs.sourceID, rhs.person)
    }
}

/// A settlement (S6), the one record of it: the debt read model and the engine's validation
/// state (the ids taken) read the same book.
@StateFields
package struct SettlementRecord: Hashable, Sendable {
    package let from: PersonID
    package let to: PersonID
    package let amount: Money
    package let date: LocalDate
    let covers: [SettledItem]?
    package let isAdvance: Bool
    package let groupID: GroupID?
    /// The sequence number of the event that recorded it.
    package let sequenceNumber: UInt64
    /// Its note (personal text of who recorded it, P1).
    let note: PersonalText?
    /// How it was paid.
    package let paymentMethod: String?
}

/// A group (S7): its name and members, as `GroupCreated` recorded them and later events
/// changed them. The one record of a group, kept by the debt projection, which the engine's
/// validation state reads.
@WireFields
package struct GroupRecord: Hashable, Sendable {
    /// Its name.
    package var name: String
    /// Its members, in the order the events list them (added members last).
    package var members: [PersonID]
    /// Its description, if any (`GroupUpdated`).
    package var description: String?
    /// Whether it takes no new expenses (`GroupArchived`).
    package var isArchived = false
    /// Whether it is deleted (`GroupDeleted`): listed nowhere, takes nothing more, until an
    /// undo restores it (`GroupRestored`, T5).
    package var isDeleted = false
    /// An emoji the app draws for it, if any (`GroupUpdated` version 2).
    package var emoji: String?

    /// Applies a group change (S7, Docs/Editing.md); other events leave it as it is.
    package mutating func apply(_ payload: EventPayload) {
        switch payload {
        case .groupUpdated(let updated):
            name = updated.name
            description = updated.description
            emoji = updated.emoji
        case .groupMemberAdded(let added):
            if !members.contains(added.personID) { members.append(added.personID) }
        case .groupMemberRemoved(let removed):
            members.removeAll { $0 == removed.personID }
        case .groupArchived: isArchived = true
        case .groupUnarchived: isArchived = false
        case .groupDeleted: isDeleted = true
        case .groupRestored: isDeleted = false
        default: break
        }
    }

    /// Creates a group's record.
    package init(name: String, members: [PersonID]) {
        self.name = name
        self.members = members
    }
}

/// A group expense (S7), the one record of it: the expense as recorded or last edited (its
/// split as entered included: what an undone edit puts back), the sequence number that recorded
/// it, whether it is live (not deleted) and marked settled. One book of them (the debt read
/// model's) serves the read models and the engine's validation state alike.
@StateFields
package struct GroupExpenseRecord: Hashable, Sendable {
    /// The expense as recorded or last edited; the group never changes (S7).
    package internal(set) var expense: GroupExpenseRecorded
    /// The sequence number of the event that recorded it.
    package let sequenceNumber: UInt64
    /// `false` after `GroupExpenseDeleted`, `true` again after `GroupExpenseRestored`.
    package internal(set) var isLive: Bool
    /// Whether it is marked settled (`GroupExpenseSettledMarked`; record-keeping only).
    package internal(set) var isMarkedSettled: Bool

    init(_ expense: GroupExpenseRecorded, sequenceNumber: UInt64) {
        self.expense = expense
        self.sequenceNumber = sequenceNumber
        self.isLive = true
        self.isMarkedSettled = false
    }

    /// Whether it is deleted: it counts in no balance.
    package var isDeleted: Bool { !isLive }
    var groupID: GroupID { expense.groupID }
    var paidBy: PersonID { expense.paidBy }
    var amount: Money { expense.amount }
    var date: LocalDate { expense.date }
    var note: PersonalText? { expense.note }
    var owed: [PersonShare] { expense.owed }
    var categoryID: CategoryID? { expense.categoryID }
    var title: PersonalText? { expense.title }
}

extension DebtItemKey: ArchivedState {
    func encode(to writer: inout BinaryWriter) {
        writer.writeByte(sourceKind)
        writer.writeUUID(sourceID)
        person.encode(to: &writer)
    }
    init(from reader: inout StateReader) throws(ProjectionError) {
        self.init(sourceKind: try reader.readByte(), sourceID: try reader.readUUID(), person: try reader.read())
    }
}

// Package access (the engine's validation state reads the book for the ids taken), so the
// archive's witnesses are spelled out at that access.
extension SettlementRecord: ArchiveCodable, StateCodable {
    package func writeArchive(to writer: inout BinaryWriter) { encode(to: &writer) }
    package init(archive reader: inout BinaryReader) throws(EventCodecError) { self = try Self.decodeArchived(from: &reader) }
}

/// The group's wire layout (`@WireFields`), in the debt projection's checkpoint.
extension GroupRecord: WireBackedState {}

// Package access (the engine's validation state reads the book), so the archive's witnesses are
// spelled out at that access.
extension GroupExpenseRecord: ArchiveCodable, StateCodable {
    package func writeArchive(to writer: inout BinaryWriter) { encode(to: &writer) }
    package init(archive reader: inout BinaryReader) throws(EventCodecError) { self = try Self.decodeArchived(from: &reader) }
}

/// The nets' one binary layout (TallyModel, WireValue+Rules.swift), in the debt projection's
/// checkpoint: the count, then each pair and its `Int128` net in pair order.
extension DebtNets: WireBackedState {}

/// The group nets' one binary layout (TallyModel, WireValue+Rules.swift), in the debt projection's
/// checkpoint: the count, then each (group, currency, person) entry and its totals in that order.
extension GroupNets: WireBackedState {}
