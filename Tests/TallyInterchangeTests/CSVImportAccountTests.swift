import Foundation
import SystemPackage
import Tally
import TallyInterchange
import TallyModel
import TallyProjections
import Testing

/// CSV import: account column, payee, external id, duplicates skip or replace, category mapping
/// (Docs/Domain.md section 9, Drishti E6-S5..S9, Flow US-049, US-071; Docs/Interchange.md).
@Suite("CSV import accounts and duplicates", .serialized)
struct CSVImportAccountTests {
    static let recordedAt = Timestamp(millisecondsSinceEpoch: 1_771_400_000_000)

    static func execute(_ plan: CSVImporter.Plan, in directory: FilePath) async throws -> LedgerHistory {
        let ledger = try await Ledger.open(at: directory, options: LedgerOptions(durability: .none))
        try await ledger.execute(try plan.batch())
        try await ledger.close()
        return try LedgerHistory.load(at: directory)
    }

    static func transaction(noted note: String, in history: LedgerHistory) -> (key: TransactionID, value: TallyProjections.TransactionRecord)? {
        history.state.transactions.allEntries.first { $0.value.details.note?.description == note && !$0.value.isDeleted }
    }

    @Test("section 9, E6-S5: an account column puts each row in its wallet, by name or id; an empty cell takes --wallet")
    func accountColumn() async throws {
        let (_, history) = try await InterchangeLedgerTests.makeLedger()
        let csv = """
            date,wallet,amount,note,category
            2026-03-01,Bob cash,-5.00,Bread,Groceries
            2026-03-01,00000003-0000-4000-8000-000000000004,-7.00,Brot,Groceries
            2026-03-02,,-9.00,Milk,Groceries

            """
        let plan = try CSVImporter(walletName: "Joint account", recordedAt: Self.recordedAt).plan(csv, state: history.state)
        #expect(plan.inserted == 3)
        let wallets = plan.commands.compactMap { command -> String? in
            guard case .recordTransaction(_, let entry) = command.action else { return nil }
            return "\(history.walletName(entry.walletID)) \(entry.amount)"
        }
        #expect(wallets == ["Bob cash CHF 5.00", "Alice EUR card EUR 7.00", "Joint account CHF 9.00"], "each amount read in its wallet's currency")
    }

    @Test("section 9, E6-S6: an unknown account fails its row, naming line and column; without --wallet an empty account cell fails too; with neither an account column nor --wallet the import is csvWalletMissing")
    func unknownAccountFailsTheRow() async throws {
        let (_, history) = try await InterchangeLedgerTests.makeLedger()
        let csv = "date,Konto,amount,category\n2026-03-01,Bob cash,-5,Groceries\n2026-03-01,Piggy bank,-7,Groceries\n2026-03-02,,-9,Groceries\n"
        var importer = CSVImporter(walletName: nil, recordedAt: Self.recordedAt)
        importer.mapping = try CSVImporter.Mapping(parsing: "account=Konto")
        let plan = try importer.plan(csv, state: history.state)
        #expect(plan.rows.map(\.status) == [.inserted, .failed, .failed])
        #expect(plan.rows[1].column == "Konto" && plan.rows[1].reason?.contains("Piggy bank") == true)
        #expect(plan.rows[2].column == "Konto")
        #expect { try plan.batch() } throws: { error in
            (error as? InterchangeError)?.message.contains("line 3, column Konto") == true
        }
        #expect { try CSVImporter(walletName: nil, recordedAt: Self.recordedAt).plan("date,amount,category\n2026-03-01,-5,Groceries\n", state: history.state) } throws: { error in
            (error as? InterchangeError)?.code == "csvWalletMissing"
        }
    }

    @Test("section 9, Swiff 1.1.2: the payee cell is the transaction's payee and the note cell its note; `payee: note` counts in duplicate detection, so a row imported before payees had a field is a duplicate")
    func payeeIsItsOwnField() async throws {
        let (directory, history) = try await InterchangeLedgerTests.makeLedger()
        var importer = CSVImporter(walletName: "Bob cash", recordedAt: Self.recordedAt)
        importer.mapping = try CSVImporter.Mapping(parsing: "payee=Empfänger,note=Text")
        let file = "date;amount;Empfänger;Text;category\n2026-03-01;-5;Migros;Bread;Groceries\n2026-03-01;-5;Coop;;Groceries\n2026-03-01;-5;Coop;;Groceries\n"
        let plan = try importer.plan(file, state: history.state)
        let entries = plan.commands.compactMap { command -> TransactionEntry? in
            guard case .recordTransaction(_, let entry) = command.action else { return nil }
            return entry
        }
        #expect(entries.map(\.payee) == ["Migros", "Coop"])
        #expect(entries.map(\.note) == ["Bread", nil])
        #expect(plan.rows[2].status == .skipped)

        // A row imported before payees had a field: its payee in the note, `Migros: Bread`.
        var legacy = try #require(entries.first)
        legacy.payee = nil
        legacy.note = "Migros: Bread"
        let ledger = try await Ledger.open(at: directory, options: LedgerOptions(durability: .none))
        let actor = try #require(history.state.household?.admin)
        try await ledger.execute([Command(
            commandID: CommandID(.derived(namespace: UUIDValue(high: 9, low: 9), name: "legacy")), actor: actor, recordedAt: Self.recordedAt,
            action: .recordTransaction(transactionID: TransactionID(.derived(namespace: UUIDValue(high: 9, low: 9), name: "legacy")), entry: legacy))])
        try await ledger.close()
        let again = try importer.plan(file, state: try LedgerHistory.load(at: directory).state)
        #expect(again.rows.first?.status == .skipped, "the old `payee: note` row and the new payee and note are one duplicate key")
    }

    @Test("section 9, US-071: an external id is the duplicate key across imports and files: a re-import, even of another file, inserts nothing; equal rows with different ids are both inserted")
    func externalIDDetectsDuplicatesAcrossSessions() async throws {
        let (directory, history) = try await InterchangeLedgerTests.makeLedger()
        let first = "external_id,date,amount,payee,category\nA-1,2026-03-01,-4.50,Cafe,Restaurants\nA-2,2026-03-01,-4.50,Cafe,Restaurants\nA-2,2026-03-01,-4.50,Cafe,Restaurants\n"
        let importer = CSVImporter(walletName: "Bob cash", recordedAt: Self.recordedAt)
        let plan = try importer.plan(first, state: history.state)
        #expect(plan.rows.map(\.status) == [.inserted, .inserted, .skipped], "the same id twice in one file is one transaction")
        guard case .recordTransaction(let id, let entry) = plan.commands[0].action else { Issue.record("not a record"); return }
        #expect(id == CSVImporter.transactionID(externalID: "A-1", wallet: entry.walletID))
        let after = try await Self.execute(plan, in: directory)
        // Another file (other bytes, other lines, a changed note) with the same ids.
        let second = "date,external_id,amount,note,category\n2026-03-01,A-2,-4.50,Cafe with a note,Restaurants\n2026-03-02,A-1,-4.50,Cafe,Restaurants\n2026-03-03,A-3,-6,Kiosk,Groceries\n"
        let again = try importer.plan(second, state: after.state)
        #expect(again.rows.map(\.status) == [.skipped, .skipped, .inserted])
        #expect(again.rows[0].reason?.contains("external id \"A-2\"") == true)
        let reopened = try await Self.execute(again, in: directory)
        #expect(try importer.plan(first, state: reopened.state).inserted == 0, "importing twice inserts nothing the second time")
    }

    @Test("section 9, E6-S7, G4: --duplicates replace edits the duplicate with editTransaction (a new event), keeping its split, tags and payer; an unchanged row is skipped")
    func replaceEditsTheDuplicate() async throws {
        let (directory, history) = try await InterchangeLedgerTests.makeLedger()
        let market = try #require(Self.transaction(noted: "Farmers market", in: history))
        #expect(market.value.details.split != nil, "the demo's farmers market is shared")
        var importer = CSVImporter(walletName: "Bob cash", recordedAt: Self.recordedAt)
        importer.duplicates = .replace
        // Same wallet, date, amount and note: a duplicate by key; the file says Restaurants.
        let csv = "date,amount,note,category\n2026-02-12,-62.30,Farmers market,Restaurants\n2026-02-12,-62.30,Farmers market,Restaurants\n"
        let plan = try importer.plan(csv, state: history.state)
        #expect(plan.rows.map(\.status) == [.replaced, .skipped])
        guard case .editTransaction(let id, _) = plan.commands.first?.action else { Issue.record("not an edit: \(plan.commands)"); return }
        #expect(id == market.key)
        let before = history.eventCount
        let after = try await Self.execute(plan, in: directory)
        let edited = try #require(after.state.transactions[market.key])
        #expect(after.categoryName(edited.details.categoryID) == "Restaurants")
        #expect(edited.details.split == market.value.details.split && edited.details.tags == market.value.details.tags && edited.details.payer == market.value.details.payer)
        #expect(after.eventCount == before + 1, "one TransactionEdited appended; history is not rewritten")
        #expect(try importer.plan(csv, state: after.state).rows.first?.status == .skipped, "the row now matches: unchanged")
        var skipping = importer
        skipping.duplicates = .skip
        #expect(try skipping.plan("date,amount,note,category\n2026-02-12,-62.30,Farmers market,Groceries\n", state: after.state).commands.isEmpty)
    }

    @Test("section 9, US-071: with an external id, replace applies the row's new amount and date to the transaction imported before")
    func replaceByExternalID() async throws {
        let (directory, history) = try await InterchangeLedgerTests.makeLedger()
        var importer = CSVImporter(walletName: "Bob cash", recordedAt: Self.recordedAt)
        let first = try await Self.execute(try importer.plan("external_id,date,amount,category\nX9,2026-03-01,-10,Groceries\n", state: history.state), in: directory)
        importer.duplicates = .replace
        importer.recordedAt = Timestamp(millisecondsSinceEpoch: Self.recordedAt.millisecondsSinceEpoch + 1000)
        let plan = try importer.plan("external_id,date,amount,category\nX9,2026-03-02,-12.40,Groceries\n", state: first.state)
        #expect(plan.rows.map(\.status) == [.replaced])
        let after = try await Self.execute(plan, in: directory)
        let wallet = try #require(after.state.wallets.first { $0.value.name == "Bob cash" }?.key)
        let id = CSVImporter.transactionID(externalID: "X9", wallet: wallet)
        let record = try #require(after.state.transactions[id])
        let expectedDate = try LocalDate(iso: "2026-03-02")
        #expect(record.details.amount == Money(minorUnits: 1240, currency: .chf) && record.details.date == expectedDate)
    }

    @Test("section 9, US-049: a category mapping sends several file names to one ledger category; an unmapped unknown name fails naming the mapping")
    func categoryMapping() async throws {
        let (_, history) = try await InterchangeLedgerTests.makeLedger()
        var importer = CSVImporter(walletName: "Bob cash", recordedAt: Self.recordedAt)
        importer.categoryMapping = ["Food": "Groceries", "lebensmittel": "groceries"]
        let plan = try importer.plan("date,amount,note,category\n2026-03-01,-5,a,food\n2026-03-01,-6,b,Lebensmittel\n2026-03-01,-7,c,Yachts\n", state: history.state)
        #expect(plan.rows.map(\.status) == [.inserted, .inserted, .failed])
        #expect(plan.rows[2].column == "category" && plan.rows[2].reason?.contains("Yachts") == true)
        let categories = Set(plan.commands.compactMap { command -> String? in
            guard case .recordTransaction(_, let entry) = command.action else { return nil }
            return history.categoryName(entry.categoryID)
        })
        #expect(categories == ["Groceries"])
    }

    @Test("T5: every imported row is its own command, so one row is undone without the others")
    func undoOneImportedRow() async throws {
        let (directory, history) = try await InterchangeLedgerTests.makeLedger()
        let plan = try CSVImporter(walletName: "Bob cash", recordedAt: Self.recordedAt).plan(
            "date,amount,note,category\n2026-03-01,-5,first,Groceries\n2026-03-02,-6,second,Groceries\n", state: history.state)
        _ = try await Self.execute(plan, in: directory)
        let ledger = try await Ledger.open(at: directory, options: LedgerOptions(durability: .none))
        try await ledger.execute(Command(
            commandID: CommandID(UUIDValue(high: 0xDEAD, low: 1)), actor: plan.commands[0].actor, recordedAt: Self.recordedAt,
            action: .undo(targetCommandID: plan.commands[0].commandID)))
        try await ledger.close()
        let after = try LedgerHistory.load(at: directory)
        #expect(Self.transaction(noted: "first", in: after) == nil)
        #expect(Self.transaction(noted: "second", in: after) != nil)
    }
}
