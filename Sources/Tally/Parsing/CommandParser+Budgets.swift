import TallyModel

extension CommandParser {
    static let budgetActions: [String: ActionParser] = [
        "setPayday": { fields, _ throws(CommandParseError) in
            let day = try fields.integer("day")
            guard let small = Int(exactly: day) else { throw .bad("day", "\(day) is not a day of the month") }
            return .setPayday(day: small)
        },
        "setPaySchedule": { fields, _ throws(CommandParseError) in
            .setPaySchedule(frequency: try fields.choice("frequency", SchemaNames.frequencies))
        },
        "allocateBudget": { fields, _ throws(CommandParseError) in
            .allocateBudget(categoryID: try fields.id("categoryID"), amount: try fields.money("amount"),
                            fromPeriod: try fields.optionalDate("fromPeriod"))
        },
        "removeBudget": { fields, _ throws(CommandParseError) in
            .removeBudget(categoryID: try fields.id("categoryID"), fromPeriod: try fields.optionalDate("fromPeriod"))
        },
        "setIncomeSettings": { fields, _ throws(CommandParseError) in
            let grace = fields.has("graceDays") ? try fields.integer("graceDays") : 3
            guard let graceDays = Int(exactly: grace) else { throw .bad("graceDays", "\(grace) is too large") }
            return .setIncomeSettings(
                mode: try fields.choice("mode", SchemaNames.incomeModes), monthlyIncome: try fields.money("monthlyIncome"),
                incomeCategoryIDs: fields.has("incomeCategoryIDs") ? try fields.ids("incomeCategoryIDs") : [],
                graceDays: graceDays)
        },
        "confirmBonus": { fields, _ throws(CommandParseError) in .confirmBonus(try fields.id("transactionID")) },
        "closePeriod": { _, _ throws(CommandParseError) in .closePeriod },
        "saveImportMapping": { fields, _ throws(CommandParseError) in
            var columns: [ImportColumnMapping] = []
            for pair in try fields.objects("columns") {
                columns.append(ImportColumnMapping(field: try pair.string("field"), column: try pair.string("column")))
            }
            var categories: [ImportCategoryMapping] = []
            for pair in fields.has("categories") ? try fields.objects("categories") : [] {
                categories.append(ImportCategoryMapping(name: try pair.string("name"), categoryID: try pair.id("categoryID")))
            }
            return .saveImportMapping(name: try fields.string("name"), columns: columns, categories: categories)
        },
        "removeImportMapping": { fields, _ throws(CommandParseError) in .removeImportMapping(name: try fields.string("name")) },
        "setExchangeRate": { fields, _ throws(CommandParseError) in
            let base = try fields.currency("base")
            let quote = try fields.currency("quote")
            let text = try fields.string("rate")
            do {
                return .setExchangeRate(try ExchangeRate.parse(base: base, quote: quote, text), asOf: try fields.date("asOf"))
            } catch let error as CommandParseError {
                throw error
            } catch {
                throw .bad("rate", "'\(text)' is not a rate like \"0.9412\" (decimal string, up to 8 decimals, base != quote)")
            }
        },
    ]
}
