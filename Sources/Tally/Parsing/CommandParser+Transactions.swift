import TallyModel

extension CommandParser {
    static let transactionActions: [String: ActionParser] = [
        "recordTransaction": { fields, actor throws(CommandParseError) in
            .recordTransaction(try fields.id("transactionID"), try entry(fields, actor: actor))
        },
        "editTransaction": { fields, actor throws(CommandParseError) in
            .editTransaction(try fields.id("transactionID"), try entry(fields, actor: actor))
        },
        "deleteTransaction": { fields, _ throws(CommandParseError) in .deleteTransaction(try fields.id("transactionID")) },
        "restoreTransaction": { fields, _ throws(CommandParseError) in .restoreTransaction(try fields.id("transactionID")) },
        "createTemplate": { fields, actor throws(CommandParseError) in
            .createTemplate(try fields.id("templateID"), frequency: try fields.choice("frequency", SchemaNames.frequencies),
                            try entry(fields, actor: actor))
        },
        "pauseTemplate": { fields, _ throws(CommandParseError) in .pauseTemplate(try fields.id("templateID")) },
        "resumeTemplate": { fields, _ throws(CommandParseError) in .resumeTemplate(try fields.id("templateID")) },
        "activateTemplate": { fields, _ throws(CommandParseError) in
            .activateTemplate(try fields.id("templateID"), transactionID: try fields.id("transactionID"), date: try fields.date("date"))
        },
        "undo": { fields, _ throws(CommandParseError) in .undo(try fields.id("targetCommandID")) },
        "redo": { fields, _ throws(CommandParseError) in .redo(try fields.id("targetCommandID")) },
    ]

    /// The fields of an income or expense; `payer` defaults to the actor, `shared` to false.
    static func entry(_ fields: JSONFields, actor: PersonID) throws(CommandParseError) -> TransactionEntry {
        TransactionEntry(
            kind: try fields.choice("kind", SchemaNames.kinds), amount: try fields.money("amount"),
            walletID: try fields.id("walletID"), categoryID: try fields.id("categoryID"), date: try fields.date("date"),
            note: try fields.optionalString("note"), tags: try fields.strings("tags", default: []),
            payer: fields.has("payer") ? try fields.id("payer") : actor, isShared: try fields.bool("shared", default: false),
            ratioOverride: fields.has("ratioOverride") ? try fields.ratios("ratioOverride") : nil)
    }
}
