import TallyModel

extension CommandExecutor {
    func createHousehold(
        id: HouseholdID, name: String, currency: Currency, adminName: String, command: Command
    ) throws(LedgerError) -> [EventPayload] {
        guard state.household == nil else {
            throw .violation(.householdExists, "this ledger already holds a household; one journal is one household (G7)")
        }
        try requireName(name, of: "household")
        try requireName(adminName, of: "admin")
        let created = HouseholdCreated(
            householdID: id, name: name, baseCurrency: currency, admin: command.actor,
            adminName: try entered(adminName, by: command.actor))
        return [.householdCreated(created)] + CategoryPresets.creationEvents(in: id).map(EventPayload.categoryCreated)
    }

    func validateHousehold(_ command: Command) throws(LedgerError) -> [EventPayload] {
        switch command.action {
        case .changeBaseCurrency(let currency):
            guard !state.hasTransactions else {
                throw .violation(.currencyLocked, "the base currency is locked once a transaction is recorded; it stays \(state.household?.baseCurrency.code ?? "?")")
            }
            return [.baseCurrencyChanged(BaseCurrencyChanged(baseCurrency: currency))]
        case .setFirstWeekday(let weekday):
            return [.firstWeekdaySet(FirstWeekdaySet(firstWeekday: weekday))]
        case .addMember(let person, let name):
            return [try memberAdded(person, name: name)]
        case .addPerson(let person, let name):
            try requireNewPerson(person)
            try requireName(name, of: "contact")
            return [.personAdded(PersonAdded(personID: person, name: try entered(name, by: person)))]
        case .removeMember(let person, let acknowledge):
            return try removeMember(person, acknowledge: acknowledge, actor: command.actor)
        case .transferAdmin(let target):
            try requireAdmin(command.actor, "transfer the admin role")
            try requireActiveMember(target, role: "the new admin")
            guard target != command.actor else {
                throw .violation(.adminOnly, "\(name(of: target)) is the admin already")
            }
            return [.adminTransferred(AdminTransferred(from: command.actor, to: target))]
        case .archivePerson(let person):
            guard let record = state.people[person] else {
                throw .violation(.unknownPerson, "person \(person) is not known to this household")
            }
            guard !record.isArchived else { throw .violation(.personArchived, "\(name(of: person)) is archived already") }
            guard person != state.household?.admin else {
                throw .violation(.adminCannotLeave, "the admin cannot be archived; transfer the admin role first")
            }
            if record.isMember && !record.isRemoved {
                throw .violation(.notAMember, "\(name(of: person)) is still a member; remove the member before archiving")
            }
            return [.personArchived(PersonArchived(personID: person))]
        case .unarchivePerson(let person):
            guard let record = state.people[person] else {
                throw .violation(.unknownPerson, "person \(person) is not known to this household")
            }
            guard !record.isForgotten else {
                throw .violation(.personForgotten, "person \(person) is forgotten; a forgotten person stays archived (P3)")
            }
            guard record.isArchived else { throw .violation(.personNotArchived, "\(name(of: person)) is not archived") }
            return [.personUnarchived(PersonUnarchived(personID: person))]
        case .forgetPerson(let person):
            return try forgetPerson(person, actor: command.actor, at: command.recordedAt)
        case .deletePerson(let person, let deleteOpenTransactions):
            return try deletePerson(person, deleteOpenTransactions: deleteOpenTransactions, actor: command.actor, at: command.recordedAt)
        case .renamePerson(let person, let name):
            let record = try updatablePerson(person)
            try requireName(name, of: "person")
            return [.personUpdated(PersonUpdated(
                personID: person, name: try entered(name, by: person), email: record.email, phone: record.phone))]
        case .setPersonAvatar(let person, let emoji, let color, let photo):
            _ = try updatablePerson(person)
            return [.personAvatarSet(PersonAvatarSet(personID: person, avatar: PersonAvatar(emoji: emoji, color: color, photo: photo)))]
        case .updatePerson(let person, let name, let email, let phone):
            _ = try updatablePerson(person)
            try requireName(name, of: "person")
            if let email { try requireEmail(email) }
            if let phone { try requirePhone(phone) }
            return [.personUpdated(PersonUpdated(
                personID: person, name: try entered(name, by: person),
                email: try entered(email, by: person), phone: try entered(phone, by: person)))]
        default:
            return []
        }
    }

    /// H3: the event that makes `person` a member under `name`, for `addMember` and for an
    /// accepted invitation (H6) alike: a new person id and a name.
    func memberAdded(_ person: PersonID, name: String, keeping previous: PersonalText? = nil) throws(LedgerError) -> EventPayload {
        try requireNewPerson(person)
        try requireName(name, of: "member")
        return .memberAdded(MemberAdded(personID: person, name: try entered(name, by: person, keeping: previous), role: .member))
    }

    /// A member or contact whose data can change: known (H3) and not forgotten (P3).
    private func updatablePerson(_ person: PersonID) throws(LedgerError) -> PersonRecord {
        guard let record = state.people[person] else {
            throw .violation(.unknownPerson, "person \(person) is not known to this household")
        }
        guard !record.isForgotten else {
            throw .violation(.personForgotten, "person \(person) is forgotten; their personal data cannot be changed")
        }
        return record
    }

    /// H3: an e-mail address is one `@` between a non-empty local part and domain, no spaces,
    /// at most ``LedgerLimits/nameBytesMax`` bytes.
    func requireEmail(_ email: String) throws(LedgerError) {
        // A synced command's e-mail is sealed: the device checked it (Docs/Sync.md).
        guard texts.readsCommandStrings else { return }
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, !email.contains(where: \.isWhitespace),
              email.utf8.count <= LedgerLimits.nameBytesMax else {
            throw .violation(.invalidContact, "'\(email.prefix(60))' is not an e-mail address like name@example.ch (at most \(LedgerLimits.nameBytesMax) bytes)")
        }
    }

    /// H3: a phone number is digits (at least 3) with optional `+`, spaces, `-`, `/`, `.` and
    /// parentheses, at most ``LedgerLimits/nameBytesMax`` bytes.
    private func requirePhone(_ phone: String) throws(LedgerError) {
        guard texts.readsCommandStrings else { return }  // sealed: checked on the device
        let allowed = Set("0123456789+-/.() ")
        guard phone.allSatisfy({ allowed.contains($0) }), phone.filter(\.isNumber).count >= 3,
              phone.utf8.count <= LedgerLimits.nameBytesMax else {
            throw .violation(.invalidContact, "'\(phone.prefix(60))' is not a phone number like +41 44 123 45 67 (digits, +, spaces, - / . ( ); at most \(LedgerLimits.nameBytesMax) bytes)")
        }
    }

    /// P3: only the admin forgets, only people who are no longer active members, once; an
    /// invitee who never joined once none of their invitations is pending (H6).
    private func forgetPerson(_ person: PersonID, actor: PersonID, at time: Timestamp) throws(LedgerError) -> [EventPayload] {
        try requireAdmin(actor, "forget a person")
        guard let record = state.people[person] else {
            let invitations = state.invitations.values.filter { $0.invitation.personID == person }
            guard !invitations.isEmpty else {
                throw .violation(.unknownPerson, "person \(person) is not known to this household")
            }
            if state.isForgottenInvitee(person) {
                throw .violation(.personForgotten, "person \(person) is forgotten already; their personal data cannot be read any more")
            }
            if let pending = invitations.first(where: { $0.isPending(at: time) }) {
                throw .violation(.forgetActiveMember, "\(person) has a pending invitation \(pending.invitation.invitationID); cancel it before forgetting them")
            }
            return [.personForgotten(PersonForgotten(personID: person))]
        }
        guard !record.isForgotten else {
            throw .violation(.personForgotten, "person \(person) is forgotten already; their personal data cannot be read any more")
        }
        guard person != state.household?.admin else {
            throw .violation(.adminCannotLeave, "the admin cannot be forgotten; transfer the admin role first")
        }
        if record.isMember && !record.isRemoved {
            throw .violation(.forgetActiveMember, "\(name(of: person)) is still a member; remove the member (settling or acknowledging open debts, H4) before forgetting them")
        }
        return [.personForgotten(PersonForgotten(personID: person))]
    }

    /// Swiff 1.2.5: the events of leaving every group (S8: settled in each; a group left with
    /// one person is deleted, S7), of deleting the open shared transactions (T3) when asked,
    /// then of forgetting (P3), each checked as its own command would be.
    private func deletePerson(_ person: PersonID, deleteOpenTransactions: Bool, actor: PersonID, at time: Timestamp) throws(LedgerError) -> [EventPayload] {
        let forget = try forgetPerson(person, actor: actor, at: time)
        var events: [EventPayload] = []
        if deleteOpenTransactions {
            var open: [TransactionID] = []
            for item in state.debts.householdItems(involving: person) where item.settledBy == nil {
                if case .transaction(let id) = item.source, !open.contains(id), state.transactions[id]?.isDeleted == false { open.append(id) }
            }
            events += open.map { .transactionDeleted(TransactionDeleted(transactionID: $0)) }
        }
        for id in state.debts.groupIDs {
            guard let group = state.groups[id], group.members.contains(person) else { continue }
            events.append(group.members.count > 2 ? try removeGroupMember(id, person) : try deleteGroup(id))
        }
        return events + forget
    }

    func requireNewPerson(_ person: PersonID) throws(LedgerError) {
        if state.people[person]?.isForgotten == true || state.isForgottenInvitee(person) {
            throw .violation(.personForgotten, "person id \(person) belonged to a person who was forgotten; use a new id")
        }
        guard state.people[person] == nil else {
            throw .violation(.duplicateID, "person id \(person) is already used by \(name(of: person))")
        }
    }

    func requireAdmin(_ actor: PersonID, _ what: String) throws(LedgerError) {
        guard state.household?.admin == actor else {
            throw .violation(.adminOnly, "only the admin can \(what); \(name(of: actor)) is not the admin")
        }
    }

    /// H4, H5: the admin never leaves; open debts need an acknowledgement naming the amount.
    private func removeMember(_ person: PersonID, acknowledge: Bool, actor: PersonID) throws(LedgerError) -> [EventPayload] {
        try requireActiveMember(person, role: "the member to remove")
        guard person != state.household?.admin else {
            throw .violation(.adminCannotLeave, "the admin \(name(of: person)) cannot leave or be removed; transfer the admin role first")
        }
        if actor != person { try requireAdmin(actor, "remove another member") }
        let debts = state.debts.openDebts(of: person)
        let groupBalances = state.debts.openGroupBalances(of: person)
        var lines = debts.map { debt in
            debt.owed.minorUnits > 0
                ? "\(name(of: person)) owes \(name(of: debt.other)) \(debt.owed.formatted())"
                : "\(name(of: debt.other)) owes \(name(of: person)) \(Money(minorUnits: 0 - debt.owed.minorUnits, currency: debt.owed.currency).formatted())"
        }
        lines += groupBalances.map { "balance \($0.balance.formatted()) in group \(state.groups[$0.group]?.name ?? "\($0.group)")" }
        let amount = debts.first?.owed ?? groupBalances.first.map { Money(minorUnits: 0 - $0.balance.minorUnits, currency: $0.balance.currency) }
        if !lines.isEmpty && !acknowledge {
            throw .violation(.unsettledDebt, "\(name(of: person)) has unsettled debt: \(lines.joined(separator: "; ")). Settle it, or remove with acknowledgeUnsettled: true")
        }
        return [.memberRemoved(MemberRemoved(personID: person, acknowledgedUnsettled: acknowledge && !lines.isEmpty, unsettledAmount: amount))]
    }
}
