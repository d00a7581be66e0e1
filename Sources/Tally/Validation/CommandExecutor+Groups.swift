import TallyModel
import TallyProjections

/// S7, S8: changing a group after it was created (Docs/Editing.md, "Groups").
extension CommandExecutor {
    func validateGroupChange(_ command: Command) throws(LedgerError) -> [EventPayload] {
        switch command.action {
        case .updateGroup(let id, let name, let description, let emoji):
            _ = try liveGroup(id)
            try requireName(name, of: "group")
            return [.groupUpdated(GroupUpdated(groupID: id, name: name, description: description, emoji: emoji))]
        case .addGroupMember(let id, let person):
            let group = try liveGroup(id)
            guard !group.isArchived else { throw .violation(.groupArchived, "\(group.name) is archived; unarchive it before adding people") }
            try requireKnownPerson(person)
            if state.people[person]?.isForgotten == true {
                throw .violation(.personForgotten, "person \(person) is forgotten and cannot join a group")
            }
            guard !group.members.contains(person) else {
                throw .violation(.alreadyInGroup, "\(name(of: person)) is in \(group.name) already")
            }
            return [.groupMemberAdded(GroupMemberAdded(groupID: id, personID: person))]
        case .removeGroupMember(let id, let person):
            return [try removeGroupMember(id, person)]
        case .archiveGroup(let id):
            let group = try liveGroup(id)
            guard !group.isArchived else { throw .violation(.groupStateUnchanged, "\(group.name) is archived already") }
            return [.groupArchived(GroupArchived(groupID: id))]
        case .unarchiveGroup(let id):
            let group = try liveGroup(id)
            guard group.isArchived else { throw .violation(.groupStateUnchanged, "\(group.name) is not archived") }
            return [.groupUnarchived(GroupUnarchived(groupID: id))]
        case .deleteGroup(let id):
            return [try deleteGroup(id)]
        default:
            return []
        }
    }

    /// The group with `id` unless it was deleted (S7).
    func liveGroup(_ id: GroupID) throws(LedgerError) -> GroupRecord {
        guard let group = state.groups[id], !group.isDeleted else { throw .violation(.unknownGroup, "no group has id \(id)") }
        return group
    }

    /// S8: `person`'s balance in the group is zero in every currency.
    /// S8: `person` leaves group `id`, settled in it; at least two people stay.
    func removeGroupMember(_ id: GroupID, _ person: PersonID) throws(LedgerError) -> EventPayload {
        let group = try liveGroup(id)
        guard group.members.contains(person) else {
            throw .violation(.notInGroup, "\(name(of: person)) is not in \(group.name)")
        }
        guard group.members.count > 2 else {
            throw .violation(.groupNeedsTwoMembers, "\(group.name) needs at least two people; delete the group instead")
        }
        try requireSettled(id, group, person: person, verb: "leave")
        return .groupMemberRemoved(GroupMemberRemoved(groupID: id, personID: person))
    }

    /// S8: group `id` is deleted once every member is settled in it.
    func deleteGroup(_ id: GroupID) throws(LedgerError) -> EventPayload {
        let group = try liveGroup(id)
        for member in group.members { try requireSettled(id, group, person: member, verb: "be deleted") }
        return .groupDeleted(GroupDeleted(groupID: id))
    }

    private func requireSettled(_ id: GroupID, _ group: GroupRecord, person: PersonID, verb: String) throws(LedgerError) {
        guard let open = state.debts.openGroupBalances(of: person).first(where: { $0.group == id }) else { return }
        let side = open.balance.minorUnits > 0 ? "is owed" : "owes"
        let amount = Money(minorUnits: Int64(clamping: open.balance.minorUnits.magnitude), currency: open.balance.currency)
        let subject = verb == "leave" ? "\(name(of: person)) cannot leave \(group.name)" : "\(group.name) cannot be deleted"
        throw .violation(.groupBalanceNotSettled, "\(subject): \(name(of: person)) \(side) \(amount.formatted()) in it; settle the group first (S8)")
    }
}
