import Foundation
@testable import Tally
import TallySQLiteEncryption
import TallyModel
import TallyStore
import TallyTestSupport
import Testing

/// Issue 15: text search over notes and tags, the tag and person filters, and what a row
/// carries beside its columns (note, tags, split), from the read-side store.
@Suite("Transaction search, tags, people and splits (read side)", .serialized)
struct TransactionSearchTests {
    /// A household with notes, tags and shared expenses, by Alice and Bob.
    struct Household {
        var s = Scenario()
        let ledger: Ledger
        let directory: TemporaryDirectory
        /// The transactions by the label the tests use.
        var ids: [String: TransactionID] = [:]

        init() async throws {
            directory = try TemporaryDirectory("tally-search")
            ledger = try await Ledger.open(at: directory.appending("ledger"), options: LedgerOptions(durability: .synchronous))
            try await ledger.execute(s.setup())
            try await record("cafe", 450, note: "Café Central, breakfast", tags: ["Vienna", "holiday"], by: s.alice)
            try await record("coffee", 380, note: "Coffee shop near work", tags: [], by: s.bob)
            try await record("ski", 12_000, note: nil, tags: ["holiday", "ski"], shared: true, by: s.alice)
            try await record("rent", 150_000, note: "Rent for March Qorpleth", tags: ["home"], shared: true, by: s.bob)
            try await record("plain", 999, note: nil, tags: [], by: s.alice)
        }

        mutating func record(
            _ label: String, _ minorUnits: Int64, note: String?, tags: [String], shared: Bool = false, by actor: PersonID
        ) async throws {
            var entry = s.expense(minorUnits, shared: shared, payer: actor)
            entry.note = note
            entry.tags = tags
            let id: TransactionID = s.ids.next()
            ids[label] = id
            try await ledger.execute(s.command(.recordTransaction(transactionID: id, entry: entry), by: actor))
        }

        func labels(_ query: TransactionQuery) async throws -> Set<String> {
            let found = Set(try await ledger.transactions(query).rows.map(\.transaction.transactionID))
            return Set(ids.filter { found.contains($0.value) }.keys)
        }

        func search(_ text: String) async throws -> Set<String> {
            var query = TransactionQuery(visibleTo: .audit)
            query.text = text
            return try await labels(query)
        }
    }

    @Test("issue 15 search: every word must start a word of the note or the tags, case and accents ignored; words combine with AND and with the other filters")
    func searchMatchesWordPrefixes() async throws {
        var household = try await Household()
        defer { household.directory.remove() }
        #expect(try await household.search("caf") == ["cafe"])
        #expect(try await household.search("CAFE central") == ["cafe"], "accents and case are ignored")
        #expect(try await household.search("co") == ["coffee"])
        #expect(try await household.search("shop coffee") == ["coffee"], "word order does not matter")
        #expect(try await household.search("coffee breakfast") == [], "every word must match")
        #expect(try await household.search("holiday") == ["cafe", "ski"], "tags are searched")
        #expect(try await household.search("march") == ["rent"])
        #expect(try await household.search("\"rent\" (MARCH* -") == ["rent"], "what is typed is never FTS5 syntax")
        var combined = TransactionQuery(visibleTo: .audit)
        combined.text = "holiday"
        combined.minorUnits = 10_000...20_000
        #expect(try await household.labels(combined) == ["ski"])
        try await household.ledger.execute(household.s.command(.deleteTransaction(transactionID: try #require(household.ids["ski"]))))
        #expect(try await household.search("holiday") == ["cafe"], "deleted transactions are not found unless asked (T3)")
        var edited = household.s.expense(450, payer: household.s.alice)
        edited.note = "Sachertorte"
        try await household.ledger.execute(household.s.command(.editTransaction(transactionID: try #require(household.ids["cafe"]), entry: edited)))
        #expect(try await household.search("central") == [], "an edit replaces the searchable text (T2)")
        #expect(try await household.search("sacher") == ["cafe"])
        await #expect(throws: LedgerError.self) {
            try await household.search(" !? ")
        }
        try await household.ledger.close()
    }

    @Test("issue 15 tags and people: a tag filter selects transactions with any of the tags; a person filter selects those the person paid or has a share of (S3)")
    func tagAndPersonFilters() async throws {
        let household = try await Household()
        defer { household.directory.remove() }
        var tagged = TransactionQuery(visibleTo: .audit)
        tagged.tags = ["holiday"]
        #expect(try await household.labels(tagged) == ["cafe", "ski"])
        tagged.tags = ["home", "Vienna"]
        #expect(try await household.labels(tagged) == ["cafe", "rent"])
        tagged.tags = ["vienna"]
        #expect(try await household.labels(tagged) == [], "a tag matches exactly as entered")
        var bob = TransactionQuery(visibleTo: .audit)
        bob.people = [household.s.bob]
        #expect(try await household.labels(bob) == ["coffee", "ski", "rent"], "Bob paid coffee and rent and has a share of ski")
        bob.payers = [household.s.bob]
        #expect(try await household.labels(bob) == ["coffee", "rent"])
        try await household.ledger.close()
    }

    @Test("issue 15 rows: a row carries its note with its owner, its tags in the order entered, and the split with names summing to the amount (S3)")
    func rowsCarryNoteTagsAndSplit() async throws {
        let household = try await Household()
        defer { household.directory.remove() }
        let rows = try await household.ledger.transactions(TransactionQuery(visibleTo: .audit)).rows
        let byID = Dictionary(uniqueKeysWithValues: rows.map { ($0.transaction.transactionID, $0) })
        let row = { (label: String) in household.ids[label].flatMap { byID[$0] } }
        let cafe = try #require(row("cafe"))
        #expect(cafe.note == PersonalText("Café Central, breakfast", owner: household.s.alice))
        #expect(cafe.tags == ["Vienna", "holiday"])
        #expect(cafe.split.isEmpty)
        let rent = try #require(row("rent"))
        #expect(rent.split.map(\.person) == [household.s.alice, household.s.bob])
        #expect(rent.split.map(\.name) == ["Alice", "Bob"])
        #expect(rent.split.map(\.amount.minorUnits).reduce(0, +) == 150_000)
        #expect(rent.split.allSatisfy { $0.amount.currency == .chf })
        let plain = try #require(row("plain"))
        #expect(plain.note == nil && plain.tags.isEmpty)
        try await household.ledger.close()
    }

    @Test("issue 15 P3: after Bob is forgotten his notes come back redacted, no search finds them, and no page of the store or its WAL holds them; his tags stay searchable")
    func forgottenNotesLeaveTheIndex() async throws {
        let household = try await Household()
        defer { household.directory.remove() }
        let marker = "Rent for March"
        // The search index keeps words folded to lower case, each stored after the part it
        // shares with the word before it in sort order: this one and "vienna" share none.
        let term = "qorpleth"
        let database = household.directory.appending("ledger").appending(LedgerDirectory.readSideName).appending(LedgerDirectory.readSideStoreName).string
        let s = household.s
        var scenario = s
        try await household.ledger.execute(scenario.command(.removeMember(personID: s.bob, acknowledgeUnsettled: true)))
        try await household.ledger.execute(scenario.command(.forgetPerson(personID: s.bob)))
        #expect(try await household.search("march") == [])
        #expect(try await household.search("coffee") == [])
        #expect(try await household.search("home") == ["rent"], "tags are not personal texts")
        #expect(try await household.search("caf") == ["cafe"], "Alice's note stays")
        let rows = try await household.ledger.transactions(TransactionQuery(visibleTo: .audit)).rows
        let rent = try #require(rows.first { $0.transaction.transactionID == household.ids["rent"] })
        #expect(rent.note == .redacted(owner: s.bob))
        #expect(rent.payerName != "Bob")
        try await household.ledger.close()
        let image = EncryptedSQLite.readableImage(ofDatabaseAt: database, key: LedgerStore.integrityKey)
        #expect(!image.isEmpty)
        #expect(Data(image).range(of: Data(marker.utf8)) == nil, "a forgotten note survives in a page of the store or its WAL")
        #expect(Data(image).range(of: Data(term.utf8)) == nil, "a word of a forgotten note survives in the search index")
        #expect(Data(image).range(of: Data("Central".utf8)) != nil, "the control: a note not forgotten is in the store")
        #expect(Data(image).range(of: Data("vienna".utf8)) != nil, "the control: the words not forgotten are in the search index")
    }

    @Test("issue 15 search pages: a search read in pages of 1 lists every match once, newest first, with a transaction recorded between two pages")
    func searchPagesAreKeysetPages() async throws {
        var household = try await Household()
        defer { household.directory.remove() }
        var query = TransactionQuery(visibleTo: .audit)
        query.text = "holiday"
        query.limit = 1
        let first = try await household.ledger.transactions(query)
        try await household.record("later", 10, note: "holiday train", tags: [], by: household.s.alice)
        query.after = try #require(first.next)
        let second = try await household.ledger.transactions(query)
        #expect(second.next == nil)
        let listed = (first.rows + second.rows).map(\.transaction.transactionID)
        // Same business date: newest first is the later recording first.
        #expect(listed == [household.ids["ski"], household.ids["cafe"]].compactMap { $0 })
        try await household.ledger.close()
    }
}
