import TallyModel

/// What the scale workload's transactions look like on a list screen: which category, which
/// payee (its note and its range of amounts), which tag. Fixed tables, so the same seed always
/// gives the same ledger, and the query measurements can name words that are common or rare.
enum ScaleVocabulary {
    /// Someone paid: the note a transaction may carry and the amounts it takes.
    struct Payee: Sendable {
        let note: String
        let minorUnits: ClosedRange<Int64>
    }

    /// A category of the household's presets, how often it is used (weights summing to 100
    /// within its group) and its payees.
    struct CategoryUse: Sendable {
        let presetKey: String
        let weight: Int
        let payees: [Payee]
    }

    /// The ten expense presets with a household's mix: groceries most, communication least.
    static let expenses: [CategoryUse] = [
        CategoryUse(presetKey: "expense.groceries", weight: 30, payees: [
            Payee(note: "Migros", minorUnits: 500...18_000), Payee(note: "Coop", minorUnits: 500...18_000),
            Payee(note: "Denner", minorUnits: 300...9_000), Payee(note: "Aldi", minorUnits: 300...9_000),
            Payee(note: "Lidl", minorUnits: 300...9_000), Payee(note: "bakery", minorUnits: 250...2_500),
        ]),
        CategoryUse(presetKey: "expense.transport", weight: 14, payees: [
            Payee(note: "SBB", minorUnits: 280...15_000), Payee(note: "fuel", minorUnits: 4_000...12_000),
            Payee(note: "parking", minorUnits: 200...2_500), Payee(note: "Mobility", minorUnits: 1_500...9_000),
        ]),
        CategoryUse(presetKey: "expense.entertainment", weight: 6, payees: [
            Payee(note: "cinema", minorUnits: 1_500...4_000), Payee(note: "concert", minorUnits: 4_000...15_000),
            Payee(note: "museum", minorUnits: 1_000...3_000),
        ]),
        CategoryUse(presetKey: "expense.restaurants", weight: 14, payees: [
            Payee(note: "coffee", minorUnits: 350...900), Payee(note: "lunch", minorUnits: 1_500...3_500),
            Payee(note: "pizza", minorUnits: 1_800...6_000), Payee(note: "dinner", minorUnits: 4_000...18_000),
        ]),
        CategoryUse(presetKey: "expense.health", weight: 5, payees: [
            Payee(note: "pharmacy", minorUnits: 800...6_000), Payee(note: "dentist", minorUnits: 10_000...60_000),
        ]),
        CategoryUse(presetKey: "expense.clothing", weight: 6, payees: [
            Payee(note: "Zalando", minorUnits: 2_000...20_000), Payee(note: "Uniqlo", minorUnits: 1_500...12_000),
        ]),
        CategoryUse(presetKey: "expense.home", weight: 10, payees: [
            Payee(note: "rent", minorUnits: 180_000...240_000), Payee(note: "electricity", minorUnits: 5_000...15_000),
            Payee(note: "IKEA", minorUnits: 1_000...50_000), Payee(note: "cleaning", minorUnits: 2_000...8_000),
        ]),
        CategoryUse(presetKey: "expense.communication", weight: 3, payees: [
            Payee(note: "Swisscom", minorUnits: 3_000...9_000), Payee(note: "Salt", minorUnits: 2_000...6_000),
        ]),
        CategoryUse(presetKey: "expense.subscriptions", weight: 4, payees: [
            Payee(note: "Netflix", minorUnits: 1_290...2_490), Payee(note: "Spotify", minorUnits: 1_290...1_290),
            Payee(note: "newspaper", minorUnits: 2_000...4_000),
        ]),
        CategoryUse(presetKey: "expense.other", weight: 8, payees: [
            Payee(note: "gift", minorUnits: 1_000...10_000), Payee(note: "post office", minorUnits: 100...2_000),
            Payee(note: "haircut", minorUnits: 3_000...8_000),
        ]),
    ]

    /// The four income presets: salary most.
    static let incomes: [CategoryUse] = [
        CategoryUse(presetKey: "income.salary", weight: 70, payees: [Payee(note: "salary", minorUnits: 450_000...650_000)]),
        CategoryUse(presetKey: "income.freelance", weight: 15, payees: [Payee(note: "invoice", minorUnits: 20_000...300_000)]),
        CategoryUse(presetKey: "income.gifts", weight: 10, payees: [Payee(note: "birthday", minorUnits: 5_000...50_000)]),
        CategoryUse(presetKey: "income.other", weight: 5, payees: [Payee(note: "refund", minorUnits: 1_000...20_000)]),
    ]

    /// Share of transactions with a note (the payee's), in percent.
    static let notePercent = 65
    /// Words that stand alone as the note of about one transaction in `rareNoteOneIn` (each
    /// word a quarter of those): what a selective search finds.
    static let rareWords = ["locksmith", "notary", "harpsichord", "zither"]
    static let rareNoteOneIn = 2_000
    /// Share of transactions with one tag, in percent, and the tags.
    static let tagPercent = 12
    static let tags = ["vacation", "work", "kids", "tax", "car"]

    /// Searches for payees that many transactions carry (each a few percent of them).
    static let commonWords = ["Migros", "Coop", "SBB", "coffee", "rent"]

    /// The month the history starts with, and how many months it spans: dates of the build
    /// run from the first day of `firstMonth` to the last day of the 24th month.
    static let firstMonth = checked { () throws(ModelError) in try YearMonth(year: 2024, month: 1) }
    static let months = 24

    /// The `months` months of the history, oldest first.
    static let historyMonths: [YearMonth] = (0..<months).map { offset in
        checked { () throws(ModelError) in try firstMonth.adding(months: offset) }
    }

    /// The category at `roll` (0..<100) of a weighted table.
    static func category(at roll: Int, in uses: [CategoryUse]) -> CategoryUse {
        var remaining = roll
        for use in uses {
            if remaining < use.weight { return use }
            remaining -= use.weight
        }
        return uses[uses.count - 1]
    }

    /// The category id of a preset `key` in `household`.
    static func categoryID(_ key: String, in household: HouseholdID) -> CategoryID {
        guard let preset = CategoryPresets.all.first(where: { $0.key == key }) else {
            preconditionFailure("no category preset has key \(key)")
        }
        return preset.categoryID(in: household)
    }

    static func checked<Value>(_ body: () throws(ModelError) -> Value) -> Value {
        do {
            return try body()
        } catch {
            preconditionFailure("scale vocabulary built an invalid value: \(error)")
        }
    }
}
