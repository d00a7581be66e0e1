import TallyModel
import TallyProjections

// The structs several commands share as one Swift value, written into the command's own
// object: their fields, how each is read and written, and their defaults.

extension TransactionEntry: CommandFieldGroup {
    static var schemaFields: [CommandSchemaField] {
        [CommandSchemaField(name: "kind", valueType: TransactionKind.self, isOptional: false, defaultValue: nil),
         CommandSchemaField(name: "amount", valueType: Money.self, isOptional: false, defaultValue: nil),
         CommandSchemaField(name: "walletID", valueType: WalletID.self, isOptional: false, defaultValue: nil),
         CommandSchemaField(name: "categoryID", valueType: CategoryID.self, isOptional: false, defaultValue: nil),
         CommandSchemaField(name: "date", valueType: LocalDate.self, isOptional: false, defaultValue: nil),
         CommandSchemaField(name: "note", valueType: String.self, isOptional: true, defaultValue: nil),
         CommandSchemaField(name: "tags", valueType: [String].self, isOptional: false, defaultValue: "[]"),
         CommandSchemaField(name: "payer", valueType: PersonID.self, isOptional: true, defaultValue: nil),
         CommandSchemaField(name: "shared", valueType: Bool.self, isOptional: false, defaultValue: "false"),
         CommandSchemaField(name: "ratioOverride", valueType: [MemberRatio].self, isOptional: true, defaultValue: nil),
         CommandSchemaField(name: "splitWith", valueType: GroupSplit.self, isOptional: true, defaultValue: nil),
         CommandSchemaField(name: "originalAmount", valueType: Money.self, isOptional: true, defaultValue: nil),
         CommandSchemaField(name: "payee", valueType: String.self, isOptional: true, defaultValue: nil),
         CommandSchemaField(name: "subtitle", valueType: String.self, isOptional: true, defaultValue: nil)]
    }

    /// `payer` absent means the command's actor; `shared` defaults to false, `tags` to none.
    init(fields: JSONFields) throws(CommandParseError) {
        self.init(
            kind: try fields.field("kind"), amount: try fields.field("amount"), walletID: try fields.field("walletID"),
            categoryID: try fields.field("categoryID"), date: try fields.field("date"), note: try fields.optionalField("note"),
            tags: try fields.field("tags", default: []), payer: try fields.optionalField("payer"),
            shared: try fields.field("shared", default: false), ratioOverride: try fields.optionalField("ratioOverride"),
            splitWith: try fields.optionalField("splitWith"), originalAmount: try fields.optionalField("originalAmount"),
            payee: try fields.optionalField("payee"), subtitle: try fields.optionalField("subtitle"))
    }

    func write(to object: inout CommandJSONObject) {
        object.write("kind", kind)
        object.write("amount", amount)
        object.write("walletID", walletID)
        object.write("categoryID", categoryID)
        object.write("date", date)
        object.write("note", note)
        object.write("tags", tags)
        object.write("payer", payer)
        object.write("shared", isShared)
        object.write("ratioOverride", ratioOverride)
        object.write("splitWith", splitWith)
        object.write("originalAmount", originalAmount)
        object.write("payee", payee)
        object.write("subtitle", subtitle)
    }
}

extension TemplateTerms: CommandFieldGroup {
    static var schemaFields: [CommandSchemaField] {
        [CommandSchemaField(name: "endDate", valueType: LocalDate.self, isOptional: true, defaultValue: nil),
         CommandSchemaField(name: "occurrenceCount", valueType: Int64.self, isOptional: true, defaultValue: nil),
         CommandSchemaField(name: "trialEndsOn", valueType: LocalDate.self, isOptional: true, defaultValue: nil),
         CommandSchemaField(name: "sharing", valueType: TemplateSharing.self, isOptional: true, defaultValue: nil)]
    }

    /// R1 terms of `createTemplate`; `sharing` is `{"kind": "equal", "people": [...]}`,
    /// `{"kind": "exact", "amounts": [{"person", "amount"}]}` (in the price's currency, the
    /// template's `amount`), `{"kind": "percentage", "ratios": [{"person", "basisPoints"}]}` or
    /// `{"kind": "free", "people": [...]}` (shared at no cost: the payer bears the price).
    init(fields: JSONFields) throws(CommandParseError) {
        var sharing: TemplateSharing?
        if fields.has("sharing") {
            let object = try fields.object("sharing")
            let kind: String = try object.field("kind")
            switch kind {
            case "equal":
                let people: [PersonID] = try object.field("people")
                sharing = TemplateSharing(kind: .equal, weights: people.map { MemberWeight(person: $0, weight: 1) })
            case "exact":
                let price: Money = try fields.field("amount")
                let shares: [PersonShare] = try object.field("amounts")
                for (index, share) in shares.enumerated() where share.amount.currency != price.currency {
                    throw .bad(object.name("amounts[\(index)].amount"), "is in \(share.amount.currency), the price in \(price.currency)")
                }
                sharing = TemplateSharing(kind: .exact, weights: shares.map { MemberWeight(person: $0.person, weight: $0.amount.minorUnits) })
            case "percentage":
                let ratios: [MemberRatio] = try object.field("ratios")
                sharing = TemplateSharing(kind: .percent, weights: ratios.map { MemberWeight(person: $0.person, weight: $0.ratio.basisPoints) })
            case "free":
                let people: [PersonID] = try object.field("people")
                sharing = TemplateSharing(kind: .free, weights: people.map { MemberWeight(person: $0, weight: 0) })
            default:
                throw .bad(object.name("kind"), "'\(kind)' is not one of equal, exact, percentage, free")
            }
        }
        self.init(endDate: try fields.optionalField("endDate"), occurrenceCount: try fields.optionalField("occurrenceCount"),
                  trialEndsOn: try fields.optionalField("trialEndsOn"), sharing: sharing)
    }

    /// Exact shares are written as amounts in the currency of the template's `amount`, which the
    /// entry (declared before the terms in `createTemplate`) has written already; without it the
    /// currency is `null` and the line is refused when read, never read in another currency.
    func write(to object: inout CommandJSONObject) {
        object.write("endDate", endDate)
        object.write("occurrenceCount", occurrenceCount)
        object.write("trialEndsOn", trialEndsOn)
        guard let sharing else { return }
        var nested = CommandJSONObject()
        switch sharing.kind {
        case .equal:
            nested.write("kind", "equal")
            nested.write("people", sharing.weights.map(\.person))
            // A weight other than 1 has no JSON form: written so that the line is refused
            // (unknown field), as the engine refuses the command (R1).
            if sharing.weights.contains(where: { $0.weight != 1 }) { nested.write("weights", sharing.weights) }
        case .exact:
            var currency = CanonicalJSON.null
            if case .object(let price)? = object.member("amount"), let code = price["currency"] { currency = code }
            nested.write("kind", "exact")
            nested.write("amounts", json: .array(sharing.weights.map { weight in
                .object(["person": weight.person.commandJSON, "amount": .object(["minorUnits": .integer(weight.weight), "currency": currency])])
            }))
        case .free:
            nested.write("kind", "free")
            nested.write("people", sharing.weights.map(\.person))
            if sharing.weights.contains(where: { $0.weight != 0 }) { nested.write("weights", sharing.weights) }
        case .percent:
            // Raw basis points, so that one outside 0...10000 is refused when read, not changed.
            nested.write("kind", "percentage")
            nested.write("ratios", json: .array(sharing.weights.map { weight in
                .object(["person": weight.person.commandJSON, "basisPoints": .integer(weight.weight)])
            }))
        }
        object.write("sharing", json: nested.json)
    }
}

extension GoalDefinition: CommandFieldGroup {
    static var schemaFields: [CommandSchemaField] {
        [CommandSchemaField(name: "name", valueType: String.self, isOptional: false, defaultValue: nil),
         CommandSchemaField(name: "target", valueType: Money.self, isOptional: false, defaultValue: nil),
         CommandSchemaField(name: "targetDate", valueType: LocalDate.self, isOptional: true, defaultValue: nil),
         CommandSchemaField(name: "walletIDs", valueType: [WalletID].self, isOptional: false, defaultValue: "[]")]
    }

    init(fields: JSONFields) throws(CommandParseError) {
        self.init(name: try fields.field("name"), target: try fields.field("target"), targetDate: try fields.optionalField("targetDate"),
                  walletIDs: try fields.field("walletIDs", default: []))
    }

    func write(to object: inout CommandJSONObject) {
        object.write("name", name)
        object.write("target", target)
        object.write("targetDate", targetDate)
        object.write("walletIDs", walletIDs)
    }
}

extension ScenarioSaved: CommandFieldGroup {
    static var schemaFields: [CommandSchemaField] {
        [CommandSchemaField(name: "scenarioID", valueType: ScenarioID.self, isOptional: false, defaultValue: nil),
         CommandSchemaField(name: "name", valueType: String.self, isOptional: false, defaultValue: nil),
         CommandSchemaField(name: "monthlyIncomeDelta", valueType: Money.self, isOptional: false, defaultValue: nil),
         CommandSchemaField(name: "monthlyExpenseDelta", valueType: Money.self, isOptional: false, defaultValue: nil),
         CommandSchemaField(name: "lumpSums", valueType: [ScenarioLumpSum].self, isOptional: false, defaultValue: "[]"),
         CommandSchemaField(name: "savingsRateDeltaBasisPoints", valueType: Int64.self, isOptional: true, defaultValue: nil)]
    }

    init(fields: JSONFields) throws(CommandParseError) {
        self.init(scenarioID: try fields.field("scenarioID"), name: try fields.field("name"),
                  monthlyIncomeDelta: try fields.field("monthlyIncomeDelta"), monthlyExpenseDelta: try fields.field("monthlyExpenseDelta"),
                  lumpSums: try fields.field("lumpSums", default: []), savingsRateDeltaBasisPoints: try fields.optionalField("savingsRateDeltaBasisPoints"))
    }

    func write(to object: inout CommandJSONObject) {
        object.write("scenarioID", scenarioID)
        object.write("name", name)
        object.write("monthlyIncomeDelta", monthlyIncomeDelta)
        object.write("monthlyExpenseDelta", monthlyExpenseDelta)
        object.write("lumpSums", lumpSums)
        object.write("savingsRateDeltaBasisPoints", savingsRateDeltaBasisPoints)
    }
}

extension AlertSettingsSet: CommandFieldGroup {
    static var schemaFields: [CommandSchemaField] {
        [CommandSchemaField(name: "budgetThresholds", valueType: [Int64].self, isOptional: false, defaultValue: "AlertSettingsSet.defaults.budgetThresholds"),
         CommandSchemaField(name: "upcomingDays", valueType: Int64.self, isOptional: false, defaultValue: "AlertSettingsSet.defaults.upcomingDays"),
         CommandSchemaField(name: "staleBalanceDays", valueType: Int64.self, isOptional: false, defaultValue: "AlertSettingsSet.defaults.staleBalanceDays"),
         CommandSchemaField(name: "largeTransaction", valueType: Money.self, isOptional: true, defaultValue: nil),
         CommandSchemaField(name: "priceIncreaseDays", valueType: Int64.self, isOptional: false, defaultValue: "AlertSettingsSet.defaults.priceIncreaseWindow"),
         CommandSchemaField(name: "settleUpThreshold", valueType: Money.self, isOptional: true, defaultValue: nil),
         CommandSchemaField(name: "spikePercent", valueType: Int64.self, isOptional: true, defaultValue: nil)]
    }

    /// Absent settings take ``AlertSettingsSet/defaults``.
    init(fields: JSONFields) throws(CommandParseError) {
        let defaults = AlertSettingsSet.defaults
        self.init(budgetThresholds: try fields.field("budgetThresholds", default: defaults.budgetThresholds),
                  upcomingDays: try fields.field("upcomingDays", default: defaults.upcomingDays),
                  staleBalanceDays: try fields.field("staleBalanceDays", default: defaults.staleBalanceDays),
                  largeTransaction: try fields.optionalField("largeTransaction"),
                  priceIncreaseDays: try fields.field("priceIncreaseDays", default: defaults.priceIncreaseWindow),
                  settleUpThreshold: try fields.optionalField("settleUpThreshold"), spikePercent: try fields.optionalField("spikePercent"))
    }

    func write(to object: inout CommandJSONObject) {
        object.write("budgetThresholds", budgetThresholds)
        object.write("upcomingDays", upcomingDays)
        object.write("staleBalanceDays", staleBalanceDays)
        object.write("largeTransaction", largeTransaction)
        object.write("priceIncreaseDays", priceIncreaseWindow)
        object.write("settleUpThreshold", settleUpThreshold)
        object.write("spikePercent", spikePercent)
    }
}

extension ExchangeRate: CommandFieldGroup {
    static var schemaFields: [CommandSchemaField] {
        [CommandSchemaField(name: "base", valueType: Currency.self, isOptional: false, defaultValue: nil),
         CommandSchemaField(name: "quote", valueType: Currency.self, isOptional: false, defaultValue: nil),
         CommandSchemaField(name: "rate", valueType: String.self, isOptional: false, defaultValue: nil)]
    }

    /// `rate` is a decimal string like `"0.9412"` (up to 8 decimals), one `base` in `quote`.
    init(fields: JSONFields) throws(CommandParseError) {
        let base: Currency = try fields.field("base")
        let quote: Currency = try fields.field("quote")
        let text: String = try fields.field("rate")
        do {
            self = try ExchangeRate.parse(base: base, quote: quote, text)
        } catch {
            throw .bad(fields.name("rate"), "'\(text)' is not a rate like \"0.9412\" (decimal string, up to 8 decimals, base != quote)")
        }
    }

    func write(to object: inout CommandJSONObject) {
        object.write("base", base)
        object.write("quote", quote)
        object.write("rate", rateText)
    }
}

