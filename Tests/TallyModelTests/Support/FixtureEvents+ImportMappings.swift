import TallyModel

extension FixtureEvents {
    /// `ImportMappingSaved` (tag 800, version 1) and `ImportMappingRemoved` (tag 801, version 1),
    /// section 9: a mapping with columns and a category pair, one with columns only, and the
    /// removal of the first.
    static let importMappings: [Event] = [
        Event(commandID: id(8001), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_500_000_000),
              payload: .importMappingSaved(ImportMappingSaved(
                name: "UBS",
                columns: [ImportColumnMapping(field: "date", column: "Datum"), ImportColumnMapping(field: "amount", column: "Betrag"),
                          ImportColumnMapping(field: "payee", column: "Empfänger"), ImportColumnMapping(field: "external_id", column: "Referenz")],
                categories: [ImportCategoryMapping(name: "Lebensmittel", categoryID: groceries)]))),
        Event(commandID: id(8002), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_500_001_000),
              payload: .importMappingSaved(ImportMappingSaved(
                name: "Revolut", columns: [ImportColumnMapping(field: "date", column: "Started Date")], categories: []))),
        Event(commandID: id(8003), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_500_002_000),
              payload: .importMappingRemoved(ImportMappingRemoved(name: "UBS"))),
    ]
}
