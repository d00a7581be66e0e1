import TallyModel

extension CommandParser {
    static let sharingActions: [String: ActionParser] = [
        "setSplitRatio": { fields, _ throws(CommandParseError) in
            .setSplitRatio(mode: fields.has("mode") ? try fields.choice("mode", SchemaNames.ratioModes) : .manual,
                           ratios: try fields.ratios("ratios"))
        },
        "recordSettlement": { fields, _ throws(CommandParseError) in
            .recordSettlement(
                settlementID: try fields.id("settlementID"), from: try fields.id("from"), to: try fields.id("to"),
                amount: try fields.money("amount"), date: try fields.date("date"),
                covers: fields.has("covers") ? try settledItems(fields) : nil,
                isAdvance: try fields.bool("isAdvance", default: false), groupID: try fields.optionalID("groupID"))
        },
        "updateGroup": { fields, _ throws(CommandParseError) in
            .updateGroup(try fields.id("groupID"), name: try fields.string("name"), description: try fields.optionalString("description"))
        },
        "addGroupMember": { fields, _ throws(CommandParseError) in .addGroupMember(try fields.id("groupID"), personID: try fields.id("personID")) },
        "removeGroupMember": { fields, _ throws(CommandParseError) in
            .removeGroupMember(try fields.id("groupID"), personID: try fields.id("personID"))
        },
        "archiveGroup": { fields, _ throws(CommandParseError) in .archiveGroup(try fields.id("groupID")) },
        "unarchiveGroup": { fields, _ throws(CommandParseError) in .unarchiveGroup(try fields.id("groupID")) },
        "deleteGroup": { fields, _ throws(CommandParseError) in .deleteGroup(try fields.id("groupID")) },
        "createGroup": { fields, _ throws(CommandParseError) in
            .createGroup(groupID: try fields.id("groupID"), name: try fields.string("name"), members: try fields.ids("members"))
        },
        "recordGroupExpense": { fields, _ throws(CommandParseError) in
            .recordGroupExpense(
                expenseID: try fields.id("expenseID"), groupID: try fields.id("groupID"), paidBy: try fields.id("paidBy"),
                amount: try fields.money("amount"), date: try fields.date("date"), note: try fields.optionalString("note"),
                split: try groupSplit(try fields.object("split")), categoryID: try fields.optionalID("categoryID"),
                title: try fields.optionalString("title"))
        },
        "editGroupExpense": { fields, _ throws(CommandParseError) in
            .editGroupExpense(
                expenseID: try fields.id("expenseID"), paidBy: try fields.id("paidBy"),
                amount: try fields.money("amount"), date: try fields.date("date"), note: try fields.optionalString("note"),
                split: try groupSplit(try fields.object("split")), categoryID: try fields.optionalID("categoryID"),
                title: try fields.optionalString("title"))
        },
        "deleteGroupExpense": { fields, _ throws(CommandParseError) in .deleteGroupExpense(try fields.id("expenseID")) },
        "markGroupExpenseSettled": { fields, _ throws(CommandParseError) in
            .markGroupExpenseSettled(try fields.id("expenseID"), isSettled: try fields.bool("isSettled", default: true))
        },
    ]

    /// `[{"transaction": "…"}, {"groupExpense": "…"}]`.
    private static func settledItems(_ fields: JSONFields) throws(CommandParseError) -> [SettledItem] {
        var items: [SettledItem] = []
        for item in try fields.objects("covers") {
            if item.has("transaction") {
                items.append(.transaction(try item.id("transaction")))
            } else if item.has("groupExpense") {
                items.append(.groupExpense(try item.id("groupExpense")))
            } else {
                throw .bad(item.path, "expected {\"transaction\": id} or {\"groupExpense\": id}")
            }
        }
        return items
    }

    /// `{"kind": "equal", "people": [...]}`, `{"kind": "exact", "amounts": [{"person", "amount"}]}`,
    /// `{"kind": "percentage", "ratios": [...]}` or `{"kind": "shares", "weights": [{"person", "weight"}]}`.
    static func groupSplit(_ fields: JSONFields) throws(CommandParseError) -> GroupSplit {
        switch try fields.string("kind") {
        case "equal":
            return .equal(try fields.ids("people"))
        case "exact":
            var shares: [PersonShare] = []
            for object in try fields.objects("amounts") {
                shares.append(PersonShare(person: try object.id("person"), amount: try object.money("amount")))
            }
            return .exact(shares)
        case "percentage":
            return .percentage(try fields.ratios("ratios"))
        case "shares":
            var weights: [MemberWeight] = []
            for object in try fields.objects("weights") {
                weights.append(MemberWeight(person: try object.id("person"), weight: try object.integer("weight")))
            }
            return .shares(weights)
        case let other:
            throw .bad(fields.name("kind"), "'\(other)' is not one of equal, exact, percentage, shares")
        }
    }
}
