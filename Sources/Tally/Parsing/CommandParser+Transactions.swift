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
            let entry = try entry(fields, actor: actor)
            return .createTemplate(try fields.id("templateID"), frequency: try fields.choice("frequency", SchemaNames.frequencies),
                                   entry, terms: try templateTerms(fields, price: entry.amount))
        },
        "pauseTemplate": { fields, _ throws(CommandParseError) in
            .pauseTemplate(try fields.id("templateID"), from: try fields.optionalDate("from"), resumesOn: try fields.optionalDate("resumesOn"))
        },
        "resumeTemplate": { fields, _ throws(CommandParseError) in
            .resumeTemplate(try fields.id("templateID"), on: try fields.optionalDate("on"))
        },
        "changeTemplatePrice": { fields, _ throws(CommandParseError) in
            .changeTemplatePrice(try fields.id("templateID"), amount: try fields.money("amount"), effectiveFrom: try fields.date("effectiveFrom"))
        },
        "cancelTemplate": { fields, _ throws(CommandParseError) in
            .cancelTemplate(try fields.id("templateID"), effectiveOn: try fields.date("effectiveOn"))
        },
        "postDueOccurrences": { fields, _ throws(CommandParseError) in .postDueOccurrences(through: try fields.date("through")) },
        "activateTemplate": { fields, _ throws(CommandParseError) in
            .activateTemplate(try fields.id("templateID"), transactionID: try fields.id("transactionID"), date: try fields.date("date"))
        },
        "undo": { fields, _ throws(CommandParseError) in .undo(try fields.id("targetCommandID")) },
        "redo": { fields, _ throws(CommandParseError) in .redo(try fields.id("targetCommandID")) },
    ]

    /// The fields of an income or expense; `payer` defaults to the actor, `shared` to false;
    /// `splitWith` is a split like a group expense's (`{"kind": "equal", "people": [...]}`, ...).
    static func entry(_ fields: JSONFields, actor: PersonID) throws(CommandParseError) -> TransactionEntry {
        TransactionEntry(
            kind: try fields.choice("kind", SchemaNames.kinds), amount: try fields.money("amount"),
            walletID: try fields.id("walletID"), categoryID: try fields.id("categoryID"), date: try fields.date("date"),
            note: try fields.optionalString("note"), tags: try fields.strings("tags", default: []),
            payer: fields.has("payer") ? try fields.id("payer") : actor, isShared: try fields.bool("shared", default: false),
            ratioOverride: fields.has("ratioOverride") ? try fields.ratios("ratioOverride") : nil,
            splitWith: fields.has("splitWith") ? try groupSplit(try fields.object("splitWith")) : nil)
    }

    /// R1 terms of `createTemplate`: `endDate`, `occurrenceCount`, `trialEndsOn` and `sharing`
    /// (`{"kind": "equal", "people": [...]}`, `{"kind": "exact", "amounts": [{"person", "amount"}]}`
    /// or `{"kind": "percentage", "ratios": [{"person", "basisPoints"}]}`); `nil` when none is given.
    static func templateTerms(_ fields: JSONFields, price: Money) throws(CommandParseError) -> TemplateTerms? {
        let terms = TemplateTerms(
            endDate: try fields.optionalDate("endDate"),
            occurrenceCount: fields.has("occurrenceCount") ? try fields.integer("occurrenceCount") : nil,
            trialEndsOn: try fields.optionalDate("trialEndsOn"),
            sharing: fields.has("sharing") ? try templateSharing(try fields.object("sharing"), price: price) : nil)
        return terms == TemplateTerms() ? nil : terms
    }

    private static func templateSharing(_ fields: JSONFields, price: Money) throws(CommandParseError) -> TemplateSharing {
        switch try fields.string("kind") {
        case "equal":
            let people: [PersonID] = try fields.ids("people")
            return TemplateSharing(kind: .equal, weights: people.map { MemberWeight(person: $0, weight: 1) })
        case "exact":
            var weights: [MemberWeight] = []
            for object in try fields.objects("amounts") {
                let amount = try object.money("amount")
                guard amount.currency == price.currency else {
                    throw .bad(object.name("amount"), "is in \(amount.currency), the price in \(price.currency)")
                }
                weights.append(MemberWeight(person: try object.id("person"), weight: amount.minorUnits))
            }
            return TemplateSharing(kind: .exact, weights: weights)
        case "percentage":
            return TemplateSharing(kind: .percent, weights: try fields.ratios("ratios").map { MemberWeight(person: $0.person, weight: $0.ratio.basisPoints) })
        case let other:
            throw .bad(fields.name("kind"), "'\(other)' is not one of equal, exact, percentage")
        }
    }
}
