import TallyModel

// The JSON form of a saved view's filter and report template (Flow US-058;
// Docs/Commands.md `saveView`).

extension TransactionFilter: CommandFieldObject {
    /// `{"walletIDs": [...], "categoryIDs": [...], "payers": [...], "people": [...], "shared": true,
    /// "tags": [...], "kinds": ["expense"], "text": "…", "minMinorUnits": 100, "maxMinorUnits": 5000}`,
    /// each member optional; an amount bound left out is open (0, or the largest amount).
    init(object: JSONFields) throws(CommandParseError) {
        let low: Int64? = try object.optionalField("minMinorUnits")
        let high: Int64? = try object.optionalField("maxMinorUnits")
        var range: ClosedRange<Int64>?
        if low != nil || high != nil {
            let first = low ?? 0, last = high ?? .max
            guard first <= last else { throw .bad(object.name("maxMinorUnits"), "\(last) is below minMinorUnits \(first)") }
            range = first...last
        }
        self.init(walletIDs: try object.field("walletIDs", default: []), categoryIDs: try object.field("categoryIDs", default: []),
                  payers: try object.field("payers", default: []), people: try object.field("people", default: []),
                  shared: try object.optionalField("shared"), tags: try object.field("tags", default: []),
                  kinds: try object.field("kinds", default: []), text: try object.optionalField("text"), minorUnits: range)
    }

    /// Writes the members that narrow; an empty filter is `{}`.
    func write(to object: inout CommandJSONObject) {
        if !walletIDs.isEmpty { object.write("walletIDs", walletIDs) }
        if !categoryIDs.isEmpty { object.write("categoryIDs", categoryIDs) }
        if !payers.isEmpty { object.write("payers", payers) }
        if !people.isEmpty { object.write("people", people) }
        object.write("shared", shared)
        if !tags.isEmpty { object.write("tags", tags) }
        if !kinds.isEmpty { object.write("kinds", kinds) }
        object.write("text", text)
        if let minorUnits {
            object.write("minMinorUnits", minorUnits.lowerBound)
            object.write("maxMinorUnits", minorUnits.upperBound)
        }
    }
}

extension ReportLayout: CommandFieldObject {
    /// `{"range": "lastMonth", "span": "category"}`, or a custom range with `from` and `through`.
    init(object: JSONFields) throws(CommandParseError) {
        self.init(range: try object.field("range"), span: try object.field("span"),
                  from: try object.optionalField("from"), through: try object.optionalField("through"))
    }

    func write(to object: inout CommandJSONObject) {
        object.write("range", range)
        object.write("span", span)
        object.write("from", from)
        object.write("through", through)
    }
}

extension ReportRange: CommandFieldName {
    static var schemaNames: KeyValuePairs<String, ReportRange> {
        ["custom": .custom, "thisMonth": .thisMonth, "lastMonth": .lastMonth, "lastThreeMonths": .lastThreeMonths,
         "lastTwelveMonths": .lastTwelveMonths, "yearToDate": .yearToDate, "lastYear": .lastYear, "lastThirtyDays": .lastThirtyDays]
    }
}

extension ReportSpan: CommandFieldName {
    /// `category` reads as `range`: the whole range as one period, by category.
    static var schemaNames: KeyValuePairs<String, ReportSpan> {
        ["month": .month, "week": .week, "day": .day, "range": .range, "category": .range]
    }
}

extension TransactionFilter {
    /// The filter in the JSON form `saveView` takes (the members that narrow): how tools print a
    /// saved view's filter, from the one field list above.
    package var json: CanonicalJSON { commandJSON }
}

extension ReportLayout {
    /// The layout in the JSON form `saveView` takes, as ``TransactionFilter/json``.
    package var json: CanonicalJSON { commandJSON }
}
