import TallyModel

extension DebtProjection {
    /// The read model as canonical JSON (see `Docs/Projections.md`):
    /// `{"groups","household","problems","settlements"}`.
    /// - Throws: ``ProjectionError/overflow(rule:subject:)``.
    public func canonicalJSON() throws(ProjectionError) -> CanonicalJSON {
        let household = try householdBalances().map { balance -> CanonicalJSON in
            .object([
                "personA": CanonicalJSON(balance.personA), "personB": CanonicalJSON(balance.personB),
                "aOwesB": CanonicalJSON(balance.aOwesB),
                "openItems": .array(balance.openItems.map(CanonicalJSON.init)),
            ])
        }
        var groupsJSON: [CanonicalJSON] = []
        for groupID in groupIDs {
            guard let group = groups[groupID] else { continue }
            let balances = try groupBalances(groupID)
            let plan = try settlementPlan(groupID)
            var fields: [String: CanonicalJSON] = [
                "groupID": CanonicalJSON(groupID), "name": .string(group.name),
                "members": .array(group.members.map(CanonicalJSON.init)),
                "balances": .array(balances.keys.sorted().map { currency in
                    .object(["currency": .string(currency.code),
                             "members": .array((balances[currency] ?? []).map(CanonicalJSON.init))])
                }),
                "plan": .array(plan.keys.sorted().flatMap { currency in
                    (plan[currency] ?? []).map { transfer in
                        CanonicalJSON.object(["from": CanonicalJSON(transfer.from), "to": CanonicalJSON(transfer.to),
                                              "amount": CanonicalJSON(transfer.amount)])
                    }
                }),
            ]
            // Only when set, so that the JSON of a group never edited is unchanged.
            if let description = group.description { fields["description"] = .string(description) }
            if group.isArchived { fields["archived"] = .bool(true) }
            groupsJSON.append(.object(fields))
        }
        let settlementsJSON = settlements.allEntries.sorted { ($0.value.sequenceNumber, $0.key) < ($1.value.sequenceNumber, $1.key) }
            .map { id, settlement -> CanonicalJSON in
                var fields: [String: CanonicalJSON] = [
                    "settlementID": CanonicalJSON(id), "from": CanonicalJSON(settlement.from),
                    "to": CanonicalJSON(settlement.to), "amount": CanonicalJSON(settlement.amount),
                    "date": CanonicalJSON(settlement.date), "isAdvance": .bool(settlement.isAdvance),
                    "groupID": CanonicalJSON(settlement.groupID),
                    "covers": settlement.covers.map { .array($0.map(CanonicalJSON.init)) } ?? .null,
                ]
                // Version 2 fields only when set, so a ledger without them replays to the same bytes.
                if let note = settlement.note { fields["note"] = .string(note.description) }
                if let method = settlement.paymentMethod { fields["paymentMethod"] = .string(method) }
                return .object(fields)
            }
        return .object([
            "household": .array(household), "groups": .array(groupsJSON),
            "settlements": .array(settlementsJSON), "problems": .array(problems.map(CanonicalJSON.init)),
        ])
    }
}

extension DebtProjection {
    /// Every group's live expenses with their settled state (S7) and each part's paid state
    /// (`owed`: person, amount, `isPaid`, `settlementID`; Swiff 2.1.4), as canonical JSON:
    /// `{"groups":[{"expenses":[...],"groupID"}]}`, groups by id, expenses as
    /// ``groupExpenses(in:)`` orders them. Texts are `{"ownerID","text"}` (`text` null once redacted).
    public func groupExpensesJSON() -> CanonicalJSON {
        return .object(["groups": .array(groupIDs.map { groupID in
            .object([
                "groupID": CanonicalJSON(groupID),
                "expenses": .array(groupExpenses(in: groupID).map { expense in
                    .object([
                        "expenseID": CanonicalJSON(expense.expenseID), "paidBy": CanonicalJSON(expense.paidBy),
                        "amount": CanonicalJSON(expense.amount), "date": CanonicalJSON(expense.date),
                        "title": CanonicalJSON(expense.title), "note": CanonicalJSON(expense.note),
                        "categoryID": expense.categoryID.map { CanonicalJSON($0) } ?? .null,
                        "owed": .array(expense.parts.map { part in
                            .object([
                                "person": CanonicalJSON(part.person), "amount": CanonicalJSON(part.amount), "isPaid": .bool(part.isPaid),
                                "settlementID": CanonicalJSON(part.settlement),
                            ])
                        }),
                        "isMarkedSettled": .bool(expense.isMarkedSettled), "isSettled": .bool(expense.isSettled),
                    ])
                }),
            ])
        })])
    }
}

extension CanonicalJSON {
    /// A debt item as `{"amount","creditor","date","debtor","settledBy","source"}`.
    public init(_ item: DebtItem) {
        self = .object([
            "source": CanonicalJSON(item.source), "debtor": CanonicalJSON(item.debtor),
            "creditor": CanonicalJSON(item.creditor), "amount": CanonicalJSON(item.amount),
            "date": CanonicalJSON(item.date), "settledBy": CanonicalJSON(item.settledBy),
        ])
    }

    /// A group member balance.
    public init(_ balance: GroupMemberBalance) {
        self = .object([
            "person": CanonicalJSON(balance.person), "paid": CanonicalJSON(balance.paid),
            "owed": CanonicalJSON(balance.owed), "settlementsPaid": CanonicalJSON(balance.settlementsPaid),
            "settlementsReceived": CanonicalJSON(balance.settlementsReceived),
            "balance": CanonicalJSON(balance.balance),
        ])
    }
}
