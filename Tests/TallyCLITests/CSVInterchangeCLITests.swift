import Foundation
import Testing

/// `tally export --format csv` filters and `tally import csv` with accounts, external ids,
/// duplicates and saved mappings (section 9, G7; Docs/CLI.md, Docs/Interchange.md).
@Suite("CSV interchange CLI")
struct CSVInterchangeCLITests {
    @Test("section 9, G7: export csv --from --to --wallet --category --person select rows; an unknown filter value exits 2 naming it")
    func exportFilters() throws {
        let ledger = try TallyRunner.householdLedger()
        let all = try TallyRunner.run(["export", ledger, "--format", "csv"])
        #expect(all.status == 0, "\(all.stderr)")
        let header = try #require(all.stdout.split(separator: "\n").first)
        #expect(header == "date,type,category,amount,note,wallet,currency,shared,payer,original_amount,original_currency,payee,subtitle,share:Alice,share:Bob")
        let filtered = try TallyRunner.run([
            "export", ledger, "--format", "csv", "--from", "2026-02-01", "--to", "2026-02-28", "--wallet", "Joint account",
            "--wallet", "Bob cash", "--person", "Bob",
        ])
        #expect(filtered.status == 0, "\(filtered.stderr)")
        let rows = filtered.stdout.split(separator: "\n").dropFirst()
        #expect(!rows.isEmpty && rows.allSatisfy { $0.hasPrefix("2026-02-") && ($0.contains(",Joint account,") || $0.contains(",Bob cash,")) })
        #expect(!rows.contains { $0.contains(",no,Alice,") }, "G7: no personal row of Alice's")
        let unknown = try TallyRunner.run(["export", ledger, "--format", "csv", "--category", "Yachts"])
        #expect(unknown.status == 2 && unknown.stderr.contains("unknownCategory") && unknown.stderr.contains("Yachts"), "\(unknown.stderr)")
        let misplaced = try TallyRunner.run(["export", ledger, "--format", "ledger", "--from", "2026-01-01"])
        #expect(misplaced.status == 2, "\(misplaced.stderr)")
    }

    @Test("issue 31 item 7 (Drishti E14-S1, Flow US-040, US-050, Swiff 1.3.2), G7: export csv --entity wallets|settlements|group|budgets --as PERSON --number-format swiss writes that entity for the viewer; a misplaced option exits 2 saying what it goes with, a group the viewer is not in exits 2 with unknownGroup")
    func exportEntities() throws {
        let ledger = try TallyRunner.householdLedger()
        let wallets = try TallyRunner.run(["export", ledger, "--format", "csv", "--entity", "wallets", "--as", "Bob", "--number-format", "swiss"])
        #expect(wallets.status == 0, "\(wallets.stderr)")
        let lines = wallets.stdout.split(separator: "\n")
        #expect(lines.first == "id,name,kind,valuation,owner,currency,balance,as_of,state")
        #expect(lines.contains { $0.contains(",Bob cash,cash,tracked,Bob,CHF,") }, "\(wallets.stdout)")
        #expect(lines.contains { $0.contains(",ETF portfolio,investment,observed,,CHF,24'987.00,2026-02-28,active") }, "\(wallets.stdout)")
        #expect(!wallets.stdout.contains("Alice savings") && !wallets.stdout.contains("Alice EUR card"), "G7: Alice's own wallets are hers")
        let settlements = try TallyRunner.run(["export", ledger, "--format", "csv", "--entity", "settlements", "--as", "Alice"])
        #expect(settlements.status == 0 && settlements.stdout == "date,from,to,amount,currency,group,advance,id,paymentMethod,note\n2026-01-24,Bob,Alice,500.00,CHF,,no,00000008-0000-4000-8000-000000000001,,\n",
                "G7: Bob paying Carol is theirs: \(settlements.stdout)\(settlements.stderr)")
        let group = try TallyRunner.run(["export", ledger, "--format", "csv", "--entity", "group", "--group", "ski weekend", "--as", "Bob"])
        #expect(group.status == 0 && group.stdout.hasPrefix("date,description,paid_by,amount,currency,settled,share:Alice,share:Bob,share:Carol\n"), "\(group.stdout)\(group.stderr)")
        #expect(group.stdout.contains("\n,balance,,,CHF,,"), "\(group.stdout)")
        let budgets = try TallyRunner.run(["export", ledger, "--format", "csv", "--entity", "budgets", "--from", "2026-01-10", "--to", "2026-01-10"])
        #expect(budgets.status == 0 && budgets.stdout.contains("\n2025-12-25,2026-01-24,closed,Rent,needs,2400.00,2400.00,0.00,100.00,on-track,CHF\n"), "\(budgets.stdout)\(budgets.stderr)")
        let transactions = try TallyRunner.run(["export", ledger, "--format", "csv", "--as", "Bob", "--number-format", "swiss"])
        #expect(transactions.status == 0 && transactions.stdout.contains("\n2026-01-05,expense,Rent,2'400.00,January rent,Joint account,CHF,yes,Alice,,,,,1'440.00,960.00\n"), "\(transactions.stdout)")
        #expect(!transactions.stdout.contains("Lunch in Freiburg"), "G7: --as is the transactions export's --person")
        for (arguments, named) in [
            (["--format", "csv", "--entity", "group"], "--group"), (["--format", "csv", "--entity", "wallets", "--wallet", "Bob cash"], "--wallet"),
            (["--format", "csv", "--entity", "goals", "--from", "2026-01-01"], "--from"), (["--format", "csv", "--entity", "wallets", "--person", "Bob"], "--as"),
            (["--format", "ledger", "--entity", "wallets"], "--format csv"), (["--format", "csv", "--entity", "group", "--group", "Yachting"], "unknownGroup"),
        ] {
            let refused = try TallyRunner.run(["export", ledger] + arguments)
            #expect(refused.status == 2 && refused.stderr.contains(named), "\(arguments): \(refused.stderr)")
        }
    }

    @Test("US-072, US-046, US-071: import csv suggests the category of a known payee, creates an unknown category for review, marks the rows with --source; suggest-category prints the learned category; --dry-run writes nothing")
    func importReview() throws {
        let ledger = try TallyRunner.householdLedger()
        let file = TallyRunner.temporaryDirectory() + "/bank.csv"
        try "date,payee,amount,category\n2026-03-01,Migros weekly shop,-20.00,\n2026-03-02,Yarn shop,-5.00,Knitting\n".write(toFile: file, atomically: true, encoding: .utf8)
        let arguments = ["import", "csv", file, "--ledger", ledger, "--wallet", "Joint account", "--source", "UBS", "--unknown-categories", "create",
                         "--recorded-at", "2026-03-03T00:00:00Z"]
        let dry = try TallyRunner.run(arguments + ["--dry-run"])
        #expect(dry.status == 0 && dry.stderr.contains("new expense category \"Knitting\"") && dry.stderr.contains("would be created"), "\(dry.stderr)")
        #expect(dry.stdout.contains(#""suggestion":{"category":"#) && dry.stdout.contains(#""confidence":"high""#), "\(dry.stdout)")
        let suggestedBefore = try TallyRunner.run(["suggest-category", "Yarn shop", ledger])
        #expect(suggestedBefore.status == 1, "the dry run wrote nothing: \(suggestedBefore.stdout)\(suggestedBefore.stderr)")
        let imported = try TallyRunner.run(arguments)
        #expect(imported.status == 0 && imported.stderr.contains("2 inserted"), "\(imported.stderr)")
        let marked = try TallyRunner.run(["transactions", ledger, "--tag", "import:UBS", "--json"])
        #expect(marked.status == 0 && marked.stdout.components(separatedBy: "import:UBS").count == 3, "\(marked.stdout)")
        let suggested = try TallyRunner.run(["suggest-category", "  YARN shop", ledger, "--json"])
        #expect(suggested.status == 0 && suggested.stdout.contains(#""category":"Knitting""#) && suggested.stdout.contains(#""payee":"yarn shop""#), "\(suggested.stdout)\(suggested.stderr)")
        let bob = try TallyRunner.run(["suggest-category", "Yarn shop", ledger, "--as", "Bob"])
        #expect(bob.status == 1, "G7: Alice's personal import teaches Bob nothing: \(bob.stdout)")
        let refused = try TallyRunner.run(["import", "csv", file, "--ledger", ledger, "--wallet", "Joint account", "--duplicates", "both"])
        #expect(refused.status == 2 && refused.stderr.contains("keep-both"), "\(refused.stderr)")
    }

    @Test("section 9: import csv with an account column and external ids, then again with --duplicates replace: the changed row is replaced, the rest skipped")
    func importAccountsAndReplace() throws {
        let ledger = try TallyRunner.householdLedger()
        let directory = TallyRunner.temporaryDirectory()
        try "external_id,date,wallet,amount,payee,category\nT1,2026-03-01,Bob cash,-4.50,Kiosk,Groceries\nT2,2026-03-01,Joint account,-80,Migros,Groceries\n"
            .write(toFile: directory + "/a.csv", atomically: true, encoding: .utf8)
        let first = try TallyRunner.run(["import", "csv", directory + "/a.csv", "--ledger", ledger])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.components(separatedBy: #""status":"inserted""#).count == 3, "\(first.stdout)")
        try "external_id,date,wallet,amount,payee,category\nT1,2026-03-01,Bob cash,-4.50,Kiosk,Groceries\nT2,2026-03-01,Joint account,-85,Migros,Groceries\n"
            .write(toFile: directory + "/b.csv", atomically: true, encoding: .utf8)
        let replace = try TallyRunner.run(["import", "csv", directory + "/b.csv", "--ledger", ledger, "--duplicates", "replace"])
        #expect(replace.status == 0, "\(replace.stderr)")
        #expect(replace.stdout.contains(#""line":2,"status":"skipped""#) && replace.stdout.contains(#""line":3,"status":"replaced""#), "\(replace.stdout)")
        #expect(replace.stderr.contains("0 inserted, 1 replaced, 1 skipped"), "\(replace.stderr)")
        let export = try TallyRunner.run(["export", ledger, "--format", "csv", "--from", "2026-03-01", "--wallet", "Joint account"])
        #expect(export.stdout.contains(",85.00,,Joint account,CHF,no,") && export.stdout.contains(",Migros,"), "the payee in its column: \(export.stdout)")
        let unknown = try TallyRunner.run(["import", "csv", directory + "/b.csv", "--ledger", ledger, "--duplicates", "merge"])
        #expect(unknown.status == 2 && unknown.stderr.contains("skip, replace or keep-both"), "\(unknown.stderr)")
    }

    @Test("I29.5: import csv refuses what it would guess: an income row with amount -5.00 exits 1 naming line and column; a header with two amount columns exits 2 with csvColumnDuplicate naming the header line and both columns; nothing is imported")
    func guessesAreRefused() throws {
        let ledger = try TallyRunner.householdLedger()
        let directory = TallyRunner.temporaryDirectory()
        let before = try TallyRunner.run(["replay", ledger])
        try "date,type,amount,category\n2026-03-01,expense,-4.50,Groceries\n2026-03-02,income,-5.00,Salary\n"
            .write(toFile: directory + "/sign.csv", atomically: true, encoding: .utf8)
        let sign = try TallyRunner.run(["import", "csv", directory + "/sign.csv", "--ledger", ledger, "--wallet", "Bob cash"])
        #expect(sign.status == 1, "\(sign.stdout)\(sign.stderr)")
        #expect(sign.stdout.contains(#""line":3,"status":"failed""#) && sign.stdout.contains(#""column":"amount""#), "\(sign.stdout)")
        #expect(sign.stderr.contains("csvRowsFailed") && sign.stderr.contains("line 3, column amount") && sign.stderr.contains("typed income"), "\(sign.stderr)")
        try "date,amount,note,amount,category\n2026-03-01,-4.50,Kiosk,-7,Groceries\n".write(toFile: directory + "/two.csv", atomically: true, encoding: .utf8)
        let two = try TallyRunner.run(["import", "csv", directory + "/two.csv", "--ledger", ledger, "--wallet", "Bob cash"])
        #expect(two.status == 2, "\(two.stdout)\(two.stderr)")
        #expect(two.stderr.contains("csvColumnDuplicate") && two.stderr.contains("line 1") && two.stderr.contains("column 2") && two.stderr.contains("column 4"), "\(two.stderr)")
        #expect(try TallyRunner.run(["replay", ledger]).stdout == before.stdout, "nothing was imported")
    }

    @Test("section 9, E6-S9, US-049: import-mapping save, list, use by name with --mapping NAME, remove; an unknown name exits 1 with unknownImportMapping")
    func savedMappings() throws {
        let ledger = try TallyRunner.householdLedger()
        let directory = TallyRunner.temporaryDirectory()
        let save = try TallyRunner.run([
            "import-mapping", "save", "UBS", "--columns", "date=Datum,amount=Betrag,account=Konto,payee=Empfänger,external_id=Referenz",
            "--category-map", "Lebensmittel=Groceries", "--ledger", ledger,
        ])
        #expect(save.status == 0, "\(save.stderr)")
        let list = try TallyRunner.run(["import-mapping", "list", ledger])
        #expect(list.stdout.contains(#""name":"UBS""#) && list.stdout.contains(#""lebensmittel":"Groceries""#), "\(list.stdout)")
        try "Referenz;Datum;Konto;Betrag;Empfänger;category\nU-1;13.03.2026;Bob cash;-12,50;Bäckerei;Lebensmittel\n"
            .write(toFile: directory + "/ubs.csv", atomically: true, encoding: .utf8)
        let imported = try TallyRunner.run(["import", "csv", directory + "/ubs.csv", "--ledger", ledger, "--mapping", "ubs"])
        #expect(imported.status == 0 && imported.stdout.contains(#""status":"inserted""#), "\(imported.stdout) \(imported.stderr)")
        let export = try TallyRunner.run(["export", ledger, "--format", "csv", "--from", "2026-03-13", "--to", "2026-03-13"])
        #expect(export.stdout.contains("2026-03-13,expense,Groceries,12.50,,Bob cash,CHF,no,") && export.stdout.contains(",Bäckerei,"), "the payee in its column: \(export.stdout)")
        let unknownName = try TallyRunner.run(["import", "csv", directory + "/ubs.csv", "--ledger", ledger, "--mapping", "Revolut"])
        #expect(unknownName.status == 2 && unknownName.stderr.contains("saved: UBS"), "\(unknownName.stderr)")
        #expect(try TallyRunner.run(["import-mapping", "remove", "UBS", "--ledger", ledger]).status == 0)
        let again = try TallyRunner.run(["import-mapping", "remove", "UBS", "--ledger", ledger])
        #expect(again.status == 1 && again.stderr.contains("unknownImportMapping"), "\(again.stderr)")
    }
}
