import TallyModel

extension CommandParser {
    static let householdActions: [String: ActionParser] = [
        "createHousehold": { fields, _ throws(CommandParseError) in
            .createHousehold(householdID: try fields.id("householdID"), name: try fields.string("name"),
                             baseCurrency: try fields.currency("baseCurrency"), adminName: try fields.string("adminName"))
        },
        "changeBaseCurrency": { fields, _ throws(CommandParseError) in .changeBaseCurrency(try fields.currency("baseCurrency")) },
        "addMember": { fields, _ throws(CommandParseError) in
            .addMember(personID: try fields.id("personID"), name: try fields.string("name"))
        },
        "removeMember": { fields, _ throws(CommandParseError) in
            .removeMember(personID: try fields.id("personID"), acknowledgeUnsettled: try fields.bool("acknowledgeUnsettled", default: false))
        },
        "transferAdmin": { fields, _ throws(CommandParseError) in .transferAdmin(to: try fields.id("to")) },
        "addPerson": { fields, _ throws(CommandParseError) in
            .addPerson(personID: try fields.id("personID"), name: try fields.string("name"))
        },
        "archivePerson": { fields, _ throws(CommandParseError) in .archivePerson(try fields.id("personID")) },
        "forgetPerson": { fields, _ throws(CommandParseError) in .forgetPerson(try fields.id("personID")) },
        "renamePerson": { fields, _ throws(CommandParseError) in
            .renamePerson(try fields.id("personID"), name: try fields.string("name"))
        },
        "updatePerson": { fields, _ throws(CommandParseError) in
            .updatePerson(try fields.id("personID"), name: try fields.string("name"), email: try fields.optionalString("email"),
                          phone: try fields.optionalString("phone"))
        },
    ]

    static let walletActions: [String: ActionParser] = [
        "openWallet": { fields, _ throws(CommandParseError) in
            .openWallet(walletID: try fields.id("walletID"), name: try fields.string("name"),
                        kind: try fields.choice("kind", SchemaNames.walletKinds), openingBalance: try fields.money("openingBalance"),
                        openedOn: try fields.date("openedOn"), owner: try fields.optionalID("owner"))
        },
        "renameWallet": { fields, _ throws(CommandParseError) in .renameWallet(try fields.id("walletID"), name: try fields.string("name")) },
        "changeWalletKind": { fields, _ throws(CommandParseError) in
            .changeWalletKind(try fields.id("walletID"), kind: try fields.choice("kind", SchemaNames.walletKinds))
        },
        "deactivateWallet": { fields, _ throws(CommandParseError) in .deactivateWallet(try fields.id("walletID")) },
        "reactivateWallet": { fields, _ throws(CommandParseError) in .reactivateWallet(try fields.id("walletID")) },
        "setWalletDesignation": { fields, _ throws(CommandParseError) in
            .setWalletDesignation(
                try fields.id("walletID"), designation: try fields.choice("designation", SchemaNames.walletDesignations),
                fromMonth: try fields.optionalMonth("fromMonth"))
        },
        "closeWallet": { fields, _ throws(CommandParseError) in .closeWallet(try fields.id("walletID"), closedOn: try fields.date("closedOn")) },
        "recordBalance": { fields, _ throws(CommandParseError) in
            .recordBalance(try fields.id("walletID"), date: try fields.date("date"), balance: try fields.money("balance"))
        },
        "editBalance": { fields, _ throws(CommandParseError) in
            .editBalance(try fields.id("walletID"), date: try fields.date("date"), newDate: try fields.optionalDate("newDate"),
                         balance: try fields.money("balance"))
        },
        "removeBalance": { fields, _ throws(CommandParseError) in
            .removeBalance(try fields.id("walletID"), date: try fields.date("date"))
        },
        "recordTransfer": { fields, _ throws(CommandParseError) in
            let sent = try fields.money("amountSent")
            return .recordTransfer(
                transferID: try fields.id("transferID"), from: try fields.id("fromWalletID"), to: try fields.id("toWalletID"),
                amountSent: sent, amountReceived: fields.has("amountReceived") ? try fields.money("amountReceived") : sent,
                date: try fields.date("date"), note: try fields.optionalString("note"))
        },
        "editTransfer": { fields, _ throws(CommandParseError) in
            let sent = try fields.money("amountSent")
            return .editTransfer(
                try fields.id("transferID"), from: try fields.id("fromWalletID"), to: try fields.id("toWalletID"),
                amountSent: sent, amountReceived: fields.has("amountReceived") ? try fields.money("amountReceived") : sent,
                date: try fields.date("date"), note: try fields.optionalString("note"))
        },
        "deleteTransfer": { fields, _ throws(CommandParseError) in .deleteTransfer(try fields.id("transferID")) },
        "createCategory": { fields, _ throws(CommandParseError) in
            .createCategory(
                categoryID: try fields.id("categoryID"), name: try fields.string("name"),
                group: try fields.choice("group", SchemaNames.groups),
                budgetType: fields.has("budgetType") ? try fields.choice("budgetType", SchemaNames.budgetTypes) : .none,
                shareable: try fields.bool("shareable", default: false), icon: try fields.optionalString("icon"),
                color: try fields.optionalString("color"))
        },
        "renameCategory": { fields, _ throws(CommandParseError) in .renameCategory(try fields.id("categoryID"), name: try fields.string("name")) },
        "deactivateCategory": { fields, _ throws(CommandParseError) in .deactivateCategory(try fields.id("categoryID")) },
        "reactivateCategory": { fields, _ throws(CommandParseError) in .reactivateCategory(try fields.id("categoryID")) },
        "updateCategory": { fields, _ throws(CommandParseError) in
            .updateCategory(
                try fields.id("categoryID"), budgetType: try fields.choice("budgetType", SchemaNames.budgetTypes),
                icon: try fields.optionalString("icon"), color: try fields.optionalString("color"))
        },
        "reorderCategories": { fields, _ throws(CommandParseError) in .reorderCategories(try fields.ids("categoryIDs")) },
        "deleteCategory": { fields, _ throws(CommandParseError) in
            .deleteCategory(try fields.id("categoryID"), reassignTo: try fields.optionalID("reassignTo"))
        },
    ]
}
