import Foundation
import Tally
import TallySQLiteEncryption
import TallyModel
import TallyStore
import TallyTestSupport
import Testing

/// Swiff 1.1.2 Transaction: a title (`payee`, Flow's merchant, US-072) and a subtitle beside the
/// note and tags, personal text of the actor (P1), redacted when they are forgotten (P3), found
/// by the text search (Docs/Queries.md "Text search").
@Suite("Transaction title and subtitle (Swiff 1.1.2)", .serialized)
struct TransactionTitleTests {
    static func household(_ label: String) async throws -> (TestLedger, Scenario) {
        var s = Scenario()
        let test = try await TestLedger.make(label, durability: .synchronous)
        try await test.ledger.execute(s.setup())
        return (test, s)
    }

    static func shop(_ s: Scenario, payee: String? = "Migros Zürich", subtitle: String? = "Weekly shop", payer: PersonID? = nil) -> TransactionEntry {
        var entry = s.expense(2_380, payer: payer)
        entry.note = "for the weekend"
        entry.payee = payee
        entry.subtitle = subtitle
        return entry
    }

    static func row(_ ledger: Ledger, _ id: TransactionID) async throws -> StoredTransaction? {
        try await ledger.transactions(TransactionQuery(visibleTo: .audit)).rows.first { $0.transaction.transactionID == id }?.transaction
    }

    static func titles(_ row: StoredTransaction?) -> [String?] { [row?.payee?.description, row?.subtitle?.description] }

    @Test("Swiff 1.1.2, P1: payee and subtitle are recorded as the actor's personal text and listed; kept across a checkpoint, a rebuild of the store and a reopen")
    func recordKeepsTitleAndSubtitle() async throws {
        var (test, s) = try await Self.household("title-record")
        defer { test.directory.remove() }
        let id: TransactionID = s.ids.next()
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: id, entry: Self.shop(s, payer: s.bob)), by: s.bob))
        let row = try #require(try await Self.row(test.ledger, id))
        #expect(Self.titles(row) == ["Migros Zürich", "Weekly shop"])
        #expect(row.payee?.owner == s.bob && row.subtitle?.owner == s.bob, "P1: the actor's texts")
        let plain: TransactionID = s.ids.next()
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: plain, entry: Self.shop(s, payee: nil, subtitle: nil))))
        #expect(Self.titles(try await Self.row(test.ledger, plain)) == [nil, nil], "both are optional")

        try await test.ledger.checkpoint()
        _ = try await test.ledger.rebuildReadSide()
        #expect(Self.titles(try await Self.row(test.ledger, id)) == ["Migros Zürich", "Weekly shop"], "the rebuilt store has them from the journal")
        try await test.ledger.close()
        let reopened = try await test.reopen()
        #expect(Self.titles(try await Self.row(reopened, id)) == ["Migros Zürich", "Weekly shop"])
        try await reopened.close()
    }

    @Test("Swiff 1.1.2, T2/T5: an edit changes or removes payee and subtitle, an unchanged payee keeps its author (P1); undoing the edit puts both back")
    func editAndUndo() async throws {
        var (test, s) = try await Self.household("title-edit")
        defer { test.directory.remove() }
        let id: TransactionID = s.ids.next()
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: id, entry: Self.shop(s))))
        let edit = s.command(.editTransaction(transactionID: id, entry: Self.shop(s, subtitle: "Pronto")), by: s.bob)
        try await test.ledger.execute(edit)
        let edited = try await Self.row(test.ledger, id)
        #expect(Self.titles(edited) == ["Migros Zürich", "Pronto"])
        #expect(edited?.payee?.owner == s.alice && edited?.subtitle?.owner == s.bob, "P1: an unchanged text keeps its author, a new one is the editor's")
        try await test.ledger.execute(s.command(.undo(targetCommandID: edit.commandID)))
        let restored = try await Self.row(test.ledger, id)
        #expect(Self.titles(restored) == ["Migros Zürich", "Weekly shop"], "the undo puts the old texts back")
        #expect(restored?.payee?.owner == s.alice && restored?.subtitle?.owner == s.alice, "with their author (P1)")
        try await test.ledger.execute(s.command(.editTransaction(transactionID: id, entry: Self.shop(s, payee: nil, subtitle: nil))))
        #expect(Self.titles(try await Self.row(test.ledger, id)) == [nil, nil], "an edit without them removes them")
    }

    @Test("Swiff 1.1.2 search: every word must start a word of the note, the payee, the subtitle or the tags")
    func searchFindsPayeeAndSubtitle() async throws {
        var (test, s) = try await Self.household("title-search")
        defer { test.directory.remove() }
        let id: TransactionID = s.ids.next()
        let other: TransactionID = s.ids.next()
        var coop = Self.shop(s, payee: "Coop", subtitle: nil)
        coop.note = nil
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: id, entry: Self.shop(s))))
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: other, entry: coop)))
        func search(_ text: String) async throws -> [TransactionID] {
            var query = TransactionQuery(visibleTo: .audit)
            query.text = text
            return try await test.ledger.transactions(query).rows.map(\.transaction.transactionID)
        }
        #expect(try await search("migros zurich") == [id], "the payee, accents and case ignored")
        #expect(try await search("coop") == [other])
        #expect(try await search("shop") == [id], "the subtitle")
        #expect(try await search("migros weekend") == [id], "words of the payee and the note together")
        #expect(try await search("pronto") == [])
        try await test.ledger.execute(s.command(.editTransaction(transactionID: id, entry: Self.shop(s, payee: "Pronto", subtitle: nil))))
        #expect(try await search("migros") == [], "an edit replaces the searchable payee (T2)")
        #expect(try await search("shop") == [], "and the subtitle")
        #expect(try await search("pronto") == [id])
    }

    @Test("P3: after Bob is forgotten his payees and subtitles read redacted (also on Alice's transaction with her note, which stays), no search finds them, and no page of the store or its WAL holds them")
    func forgettingRedactsPayeeAndSubtitle() async throws {
        var (test, s) = try await Self.household("title-forget")
        defer { test.directory.remove() }
        let bobs: TransactionID = s.ids.next()
        let alices: TransactionID = s.ids.next()
        try await test.ledger.execute(s.command(
            .recordTransaction(transactionID: bobs, entry: Self.shop(s, payee: "Zorbnik Pharmacy", subtitle: "Quellwort refill", payer: s.bob)), by: s.bob))
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: alices, entry: Self.shop(s, payee: "Glimmerhaus", subtitle: nil))))
        // Alice's note, Bob's payee and subtitle (an edit keeps the unchanged note hers, P1): the
        // store's rewrite at the forgetting must find the row by its payee's owner, not its note's.
        let mixed: TransactionID = s.ids.next()
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: mixed, entry: Self.shop(s, payee: nil, subtitle: nil))))
        try await test.ledger.execute(s.command(
            .editTransaction(transactionID: mixed, entry: Self.shop(s, payee: "Vexilhorn Kiosk", subtitle: "Brelwick card")), by: s.bob))
        try await test.ledger.execute([
            s.command(.removeMember(personID: s.bob, acknowledgeUnsettled: true)),
            s.command(.forgetPerson(personID: s.bob)),
        ])
        let row = try await Self.row(test.ledger, bobs)
        #expect(row?.payee == .redacted(owner: s.bob) && row?.subtitle == .redacted(owner: s.bob))
        let mixedRow = try await Self.row(test.ledger, mixed)
        #expect(mixedRow?.payee == .redacted(owner: s.bob) && mixedRow?.subtitle == .redacted(owner: s.bob))
        #expect(await test.ledger.state.transactions[mixed]?.details.note == PersonalText("for the weekend", owner: s.alice), "Alice's note stays")
        var query = TransactionQuery(visibleTo: .audit)
        query.text = "zorbnik"
        #expect(try await test.ledger.transactions(query).rows.isEmpty)
        query.text = "vexilhorn"
        #expect(try await test.ledger.transactions(query).rows.isEmpty)
        query.text = "glimmerhaus"
        #expect(try await test.ledger.transactions(query).rows.map(\.transaction.transactionID) == [alices], "the control: Alice's payee stays")
        try await test.ledger.close()
        let database = test.directory.appending("ledger").appending(LedgerDirectory.readSideName).appending(LedgerDirectory.readSideStoreName).string
        let image = Data(EncryptedSQLite.readableImage(ofDatabaseAt: database, key: LedgerStore.integrityKey))
        #expect(!image.isEmpty)
        for gone in ["Zorbnik", "zorbnik", "Quellwort", "quellwort", "Vexilhorn", "vexilhorn", "Brelwick", "brelwick"] {
            #expect(image.range(of: Data(gone.utf8)) == nil, "\(gone) survives in a page of the store or its WAL")
        }
        #expect(image.range(of: Data("Glimmerhaus".utf8)) != nil, "the control: a payee not forgotten is in the store")
        let reopened = try await test.reopen()
        let replayed = try await Self.row(reopened, bobs)
        #expect(replayed?.payee?.isRedacted == true && replayed?.subtitle?.isRedacted == true, "replayed from the journal, the key is gone")
        try await reopened.close()
    }

    @Test("Swiff 1.1.2, G6: payee and subtitle are refused on a template (invalidValue) and over LedgerLimits.nameBytesMax (inputTooLarge); nothing is appended")
    func rejections() async throws {
        var (test, s) = try await Self.household("title-rejections")
        defer { test.directory.remove() }
        let template = s.command(.createTemplate(templateID: s.ids.next(), frequency: .monthly, entry: Self.shop(s, subtitle: nil)))
        await expectRejection(test.ledger, template, code: "invalidValue", rule: "G6")
        let long = String(repeating: "x", count: LedgerLimits.nameBytesMax + 1)
        await expectRejection(test.ledger, s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.shop(s, payee: long))),
                              code: "inputTooLarge", rule: "G6")
        await expectRejection(test.ledger, s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.shop(s, subtitle: long))),
                              code: "inputTooLarge", rule: "G6")
        try await test.ledger.execute(s.command(.createTemplate(templateID: s.ids.next(), frequency: .monthly, entry: Self.shop(s, payee: nil, subtitle: nil))))
    }
}
