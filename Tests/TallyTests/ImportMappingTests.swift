import Foundation
@testable import Tally
import TallyModel
import TallyTestSupport
import Testing

/// Saved CSV import mappings (section 9, Drishti E6-S9, Flow US-049): `saveImportMapping`,
/// `removeImportMapping`, their events and undo.
@Suite("Import mappings")
struct ImportMappingTests {
    static func household() async throws -> (TestLedger, Scenario) {
        var s = Scenario()
        let test = try await TestLedger.make("import-mappings")
        try await test.ledger.execute(s.setup())
        return (test, s)
    }

    static func columns(_ pairs: KeyValuePairs<String, String>) -> [ImportColumnMapping] {
        pairs.map { ImportColumnMapping(field: $0.key, column: $0.value) }
    }

    @Test("section 9, E6-S9: a saved mapping is kept by name (case-insensitive), columns in field order; saving the name again replaces it; it survives a reopen")
    func saveReplaceAndReopen() async throws {
        var (test, s) = try await Self.household()
        try await test.ledger.execute(s.command(.saveImportMapping(
            name: "UBS", columns: Self.columns(["payee": "Empfänger", "date": "Datum", "amount": "Betrag"]),
            categories: [ImportCategoryMapping(name: "Lebensmittel", categoryID: s.groceries)])))
        var saved = try #require(await test.ledger.importMapping(named: "ubs"))
        #expect(saved.columns.map(\.field) == ["date", "amount", "payee"])
        #expect(saved.categories == [ImportCategoryMapping(name: "Lebensmittel", categoryID: s.groceries)])
        try await test.ledger.execute(s.command(.saveImportMapping(name: "ubs", columns: Self.columns(["date": "Valuta"]), categories: [])))
        saved = try #require(await test.ledger.importMapping(named: "UBS"))
        #expect(saved.name == "ubs" && saved.columns == Self.columns(["date": "Valuta"]) && saved.categories.isEmpty)
        #expect(await test.ledger.importMappings.count == 1)
        let state = await test.ledger.state
        #expect(try state.checkpointRoundTrip() == state, "the mappings round-trip through the state checkpoint")
        try await test.ledger.close()
        let reopened = try await test.reopen()
        #expect(await reopened.importMappings == [saved], "the mapping is in the journal, so it syncs with the ledger")
        try await reopened.close()
    }

    @Test("section 9: a mapping naming an unknown field, a field or a file category twice, or an empty column is importMappingInvalid; a deleted category is unknownCategory; an empty name is nameRequired")
    func saveRejections() async throws {
        var (test, s) = try await Self.household()
        let cases: [([ImportColumnMapping], [ImportCategoryMapping])] = [
            (Self.columns(["dat": "Datum"]), []),
            (Self.columns(["date": "Datum", "date": "Valuta"]), []),
            (Self.columns(["date": " "]), []),
            (Self.columns(["date": "Datum"]), [ImportCategoryMapping(name: "Food", categoryID: s.groceries), ImportCategoryMapping(name: "food", categoryID: s.groceries)]),
        ]
        for (columns, categories) in cases {
            await expectRejection(test.ledger, s.command(.saveImportMapping(name: "Bank", columns: columns, categories: categories)),
                                  code: "importMappingInvalid", rule: "§9")
        }
        await expectRejection(test.ledger, s.command(.saveImportMapping(
            name: "Bank", columns: [], categories: [ImportCategoryMapping(name: "Food", categoryID: s.ids.next())])),
                              code: "unknownCategory", rule: "C1")
        await expectRejection(test.ledger, s.command(.saveImportMapping(name: "  ", columns: [], categories: [])),
                              code: "nameRequired", rule: "G6")
    }

    @Test("section 9, T5: removing an unknown mapping is unknownImportMapping; undo of a save restores the previous mapping or removes the name; undo of a remove saves it again")
    func removeAndUndo() async throws {
        var (test, s) = try await Self.household()
        await expectRejection(test.ledger, s.command(.removeImportMapping(name: "UBS")), code: "unknownImportMapping", rule: "§9")
        let first = s.command(.saveImportMapping(name: "UBS", columns: Self.columns(["date": "Datum"]), categories: []))
        let second = s.command(.saveImportMapping(name: "UBS", columns: Self.columns(["date": "Valuta"]), categories: []))
        try await test.ledger.execute([first, second])
        try await test.ledger.execute(s.command(.undo(targetCommandID: second.commandID)))
        #expect(await test.ledger.importMapping(named: "UBS")?.columns == Self.columns(["date": "Datum"]))
        try await test.ledger.execute(s.command(.undo(targetCommandID: first.commandID)))
        #expect(await test.ledger.importMappings.isEmpty)
        try await test.ledger.execute(s.command(.redo(targetCommandID: first.commandID)))
        let remove = s.command(.removeImportMapping(name: "ubs"))
        try await test.ledger.execute(remove)
        #expect(await test.ledger.importMappings.isEmpty)
        try await test.ledger.execute(s.command(.undo(targetCommandID: remove.commandID)))
        #expect(await test.ledger.importMapping(named: "UBS")?.columns == Self.columns(["date": "Datum"]))
    }
}
