import Foundation
import SystemPackage
import Tally
@testable import TallyInterchange
import TallyModel
import Testing

/// Issue 29 item 5: an import never guesses. A cell that contradicts its row, a header that
/// names a mapped column twice, and a person export entry that names something the export does
/// not hold are typed errors naming where (line and column, or the entry), and nothing is written.
@Suite("Imports refuse what they would have to guess", .serialized)
struct ImportRefusalTests {
    static let recordedAt = Timestamp(millisecondsSinceEpoch: 1_771_400_000_000)

    static func importer() -> CSVImporter {
        CSVImporter(walletName: "Bob cash", recordedAt: recordedAt)
    }

    @Test("I29.5: a sign that contradicts the row's type (-5.00 on income, +5.00 on expense) or a type that is neither fails the row naming line and column; a plain amount or a matching sign takes the type; the file imports nothing")
    func signContradictingTheTypeIsRefused() async throws {
        let (_, history) = try await InterchangeLedgerTests.makeLedger()
        let csv = """
            date,type,amount,category
            2026-03-01,income,-5.00,Salary
            2026-03-02,expense,-5.00,Groceries
            2026-03-03,income,5.00,Salary
            2026-03-04,expense,+5.00,Groceries
            2026-03-05,Income,+6.00,Salary
            2026-03-06,expense,7.00,Groceries
            2026-03-07,refund,8.00,Groceries
            2026-03-08,,-9.00,Groceries

            """
        let plan = try Self.importer().plan(csv, state: history.state)
        let failed = plan.rows.filter { $0.status == .failed }
        #expect(failed.map(\.line) == [2, 5, 8], "\(plan.rows)")
        #expect(failed.map(\.column) == ["amount", "amount", "type"], "\(plan.rows)")
        #expect(failed[0].reason?.contains("signed -") == true && failed[0].reason?.contains("typed income") == true, "\(failed[0])")
        #expect(failed[1].reason?.contains("signed +") == true && failed[1].reason?.contains("typed expense") == true, "\(failed[1])")
        #expect(failed[2].reason?.contains("\"refund\" is neither income nor expense") == true, "\(failed[2])")
        let kinds = plan.commands.compactMap { command -> (TransactionKind, Int64)? in
            guard case .recordTransaction(_, let entry) = command.action else { return nil }
            return (entry.kind, entry.amount.minorUnits)
        }
        #expect(kinds.map(\.0) == [.expense, .income, .income, .expense, .expense], "the other rows take their type (an empty type cell: the sign)")
        #expect(kinds.allSatisfy { $0.1 > 0 }, "amounts are magnitudes")
        #expect { try plan.batch() } throws: { error in
            guard let error = error as? InterchangeError else { return false }
            return error.code == "csvRowsFailed" && error.message.contains("line 2, column amount") && error.message.contains("nothing was imported")
        }
    }

    @Test("I29.5: a header naming a mapped column twice (case-insensitively, as the mapping matches) is csvColumnDuplicate naming the header line and both columns; other repeated columns are fine")
    func duplicatedMappedColumnIsRefused() async throws {
        let (_, history) = try await InterchangeLedgerTests.makeLedger()
        let twoAmounts = "date,amount,note,Amount ,category\n2026-03-01,-5,Kiosk,-7,Groceries\n"
        #expect { try Self.importer().plan(twoAmounts, state: history.state) } throws: { error in
            guard let error = error as? InterchangeError else { return false }
            return error.code == "csvColumnDuplicate" && error.message.contains("line 1") && error.message.contains("column 2 (\"amount\")")
                && error.message.contains("column 4 (\"Amount \")") && error.message.contains("amount")
        }
        var mapped = Self.importer()
        mapped.mapping = try CSVImporter.Mapping(parsing: "date=Datum,amount=Betrag,note=Text,category=Kategorie")
        let afterBlankLine = "\nDatum,Betrag,Text,TEXT,Kategorie\n2026-03-01,-5,a,b,Groceries\n"
        #expect { try mapped.plan(afterBlankLine, state: history.state) } throws: { error in
            guard let error = error as? InterchangeError else { return false }
            return error.code == "csvColumnDuplicate" && error.message.contains("line 2") && error.message.contains("column 3")
                && error.message.contains("column 4") && error.message.contains("note")
        }
        let repeatedUnmapped = "date,amount,memo,memo,category\n2026-03-01,-5,a,b,Groceries\n"
        #expect(try Self.importer().plan(repeatedUnmapped, state: history.state).inserted == 1)
    }

    /// A shared expense Alice paid from her own savings wallet, which Bob's export may not show.
    static let sharedFromAlicesWallet = #"{"command": "recordTransaction", "commandID": "0000000c-0000-4000-8000-0000000009a1", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-03-02T08:00:00.000Z", "transactionID": "00000005-0000-4000-8000-0000000009a1", "kind": "expense", "amount": "CHF 42.00", "walletID": "00000003-0000-4000-8000-000000000002", "categoryID": "1888ea90-fe65-8eb9-b79a-cbe2cfa8e97e", "date": "2026-03-02", "note": "Paid from Alice's savings", "payer": "00000002-0000-4000-8000-000000000001", "shared": true}"#

    /// Bob's export of the household example with a shared expense paid from Alice's wallet.
    static func bobsExport() async throws -> PersonalDataExport {
        let (directory, _) = try await InterchangeLedgerTests.makeLedger()
        let ledger = try await Ledger.open(at: directory, options: LedgerOptions(durability: .none))
        for command in try CommandParser.parse(lines: sharedFromAlicesWallet) { try await ledger.execute(command) }
        try await ledger.close()
        let history = try LedgerHistory.load(at: directory)
        return try PersonalDataImport.decode(try PersonalDataExport.make(for: PersonalDataExportTests.bob, from: history).encoded())
    }

    @Test("I29.5: a mapping that names one field twice (amount=amount,amount=a2; wallet and account are one field) is csvMappingInvalid naming both columns, never the last one taken")
    func mappingNamingAFieldTwiceIsRefused() throws {
        for text in ["amount=amount,amount=a2", "account=Konto,wallet=Konto2", "external_id=Ref,externalid=Ref2", "date=Datum,AMOUNT=x,amount=y"] {
            #expect(throws: InterchangeError.self, "\(text)") { try CSVImporter.Mapping(parsing: text) }
            do {
                _ = try CSVImporter.Mapping(parsing: text)
            } catch {
                #expect(error.code == "csvMappingInvalid" && error.message.contains("mapped twice"), "\(error.message)")
            }
        }
        let once = try CSVImporter.Mapping(parsing: "date=Datum,amount=Betrag,account=Konto")
        #expect(once.amount == "Betrag" && once.account == "Konto")
    }

    @Test("I29.5: a person export lists the other members' wallets its transactions name (by id), so every reference of a genuine export resolves")
    func exportListsOtherWallets() async throws {
        let export = try await Self.bobsExport()
        let listed = Set(export.wallets.map(\.id))
        let named = Set(export.transactions.map(\.wallet))
        #expect(export.household?.otherWallets == named.subtracting(listed).sorted())
        #expect(export.household?.otherWallets == ["00000003-0000-4000-8000-000000000002"], "the shared expense paid from Alice's savings")
        #expect(!export.wallets.contains { $0.id == "00000003-0000-4000-8000-000000000002" }, "whose name and balance stay out (G7)")
        try PersonalDataImport.requireResolvedReferences(in: export)
        let target = try BackupKeyTests.scratch().appending("bob")
        let report = try await PersonalDataImport.importing(
            export, into: target, householdID: HouseholdID(UUIDValue(high: 0xB0B, low: 8)), recordedAt: Self.recordedAt)
        #expect(report.transactionsLeft >= 1, "the expense in Alice's wallet stays with the household")
        #expect(try LedgerHistory.load(at: target).state.transactions[TransactionID(UUIDValue(high: 0x0000_0005_0000_4000, low: 0x8000_0000_0000_09a1))] == nil)
    }

    @Test("I29.5: a person import whose transaction names a wallet, category, payer or share person the export does not hold (or a transfer or wallet owner that does not resolve) is personalDataReferenceUnknown naming the entry; nothing is created")
    func unresolvedReferencesAreRefused() async throws {
        let export = try await Self.bobsExport()
        let bob = PersonalDataExportTests.bob.description
        let stranger = "0000dead-0000-4000-8000-000000000001"
        let carried = try #require(export.transactions.firstIndex { transaction in
            !transaction.deleted && export.wallets.first { $0.id == transaction.wallet }?.owner == bob
        })
        let shared = try #require(export.transactions.firstIndex { !$0.deleted && $0.shares != nil })
        let transfer = export.transfers.firstIndex { !$0.deleted }
        var cases: [(String, String, PersonalDataExport)] = []
        var wallet = export
        wallet.transactions[carried].wallet = stranger
        cases.append(("wallet", "transactions[\(carried)].wallet", wallet))
        var category = export
        category.transactions[carried].category = stranger
        cases.append(("category", "transactions[\(carried)].category", category))
        var payer = export
        payer.transactions[carried].payer = stranger
        cases.append(("payer", "transactions[\(carried)].payer", payer))
        var share = export
        share.transactions[shared].shares?[0].person = stranger
        cases.append(("share", "transactions[\(shared)].shares[0].person", share))
        var legacy = export
        legacy.household?.otherWallets = nil
        let hidden = try #require(export.transactions.firstIndex { !$0.deleted && !export.wallets.map(\.id).contains($0.wallet) })
        cases.append(("older export", "transactions[\(hidden)].wallet", legacy))
        var owner = export
        owner.wallets[0].owner = stranger
        cases.append(("owner", "wallets[0].owner", owner))
        if let transfer {
            var from = export
            from.transfers[transfer].from = stranger
            cases.append(("transfer", "transfers[\(transfer)].from", from))
        }
        let parent = try BackupKeyTests.scratch()
        for (label, place, altered) in cases {
            let target = parent.appending(label.replacingOccurrences(of: " ", with: "-"))
            await #expect(performing: {
                try await PersonalDataImport.importing(altered, into: target, householdID: HouseholdID(UUIDValue(high: 0xB0B, low: 9)), recordedAt: Self.recordedAt)
            }, throws: { error in
                guard let error = error as? InterchangeError else { return false }
                let named = label == "older export" ? "cannot tell them from a wrong id" : stranger
                return error.code == "personalDataReferenceUnknown" && error.message.contains(place) && error.message.contains(named)
            })
            #expect(!FileManager.default.fileExists(atPath: target.string), "\(label): nothing is created")
        }
    }
}
