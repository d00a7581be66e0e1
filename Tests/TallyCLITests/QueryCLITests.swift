import Foundation
import Testing

/// Issue 15: `tally transactions` and `tally report` on Sources/TallyCLI/Demo/household.jsonl.
@Suite("CLI queries: transactions and report")
struct QueryCLITests {
    /// The rows of every page of `tally <arguments> --json`, following `next` with `--after`.
    static func pagedRows(_ arguments: [String]) throws -> [[String: Any]] {
        var rows: [[String: Any]] = []
        var after: String?
        repeat {
            let result = try TallyRunner.run(arguments + (after.map { ["--after", $0] } ?? []))
            #expect(result.status == 0, "\(result.stderr)")
            let page = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            rows += try #require(page["rows"] as? [[String: Any]])
            after = page["next"] as? String
        } while after != nil
        return rows
    }

    /// The rows of every page of `tally transactions --json` with `arguments`, following `next`.
    static func allRows(_ ledger: String, _ arguments: [String]) throws -> [[String: Any]] {
        try pagedRows(["transactions", "--json", "--ledger", ledger] + arguments)
    }

    static func minorUnits(_ row: [String: Any]) -> Int { (row["amount"] as? [String: Any])?["minorUnits"] as? Int ?? -1 }

    /// The running balance of a statement row (`nil` for an observed wallet).
    static func balance(_ row: [String: Any]) -> Int? { (row["balance"] as? [String: Any])?["minorUnits"] as? Int }

    /// Every row of `tally statement --json --sort date-asc` for `wallet`, following `next`.
    static func statementRows(_ ledger: String, wallet: String, _ arguments: [String]) throws -> [[String: Any]] {
        try pagedRows(["statement", "--json", "--sort", "date-asc", "--wallet", wallet, "--ledger", ledger] + arguments)
    }

    @Test("pages of 2 read with --after equal one page of 1000, in every order; filters by wallet name, kind and month narrow it")
    func pagesFollowTheCursor() throws {
        let ledger = try TallyRunner.householdLedger()
        for order in ["date-desc", "date-asc", "amount-desc", "amount-asc"] {
            let paged = try Self.allRows(ledger, ["--sort", order, "--limit", "2"])
            let whole = try Self.allRows(ledger, ["--sort", order, "--limit", "1000"])
            #expect(!whole.isEmpty)
            #expect(paged.map { $0["transactionID"] as? String } == whole.map { $0["transactionID"] as? String }, "\(order)")
            if order == "amount-desc" {
                let amounts = whole.map(Self.minorUnits)
                #expect(amounts == amounts.sorted(by: >))
            }
        }
        let all = try Self.allRows(ledger, ["--limit", "1000"])
        let wallet = try #require(all.first?["walletName"] as? String)
        let narrowed = try Self.allRows(ledger, ["--wallet", wallet, "--kind", "expense", "--limit", "1000"])
        #expect(!narrowed.isEmpty && narrowed.count <= all.count)
        #expect(narrowed.allSatisfy { $0["walletName"] as? String == wallet && $0["kind"] as? String == "expense" })
        let month = try #require((all.first?["date"] as? String)?.prefix(7))
        let inMonth = try Self.allRows(ledger, ["--month", String(month), "--limit", "1000"])
        #expect(inMonth.count == all.filter { ($0["date"] as? String)?.hasPrefix(month) == true }.count)
    }

    @Test("US-018, US-020: rows carry recordedAt, lastEditedAt and deletedAt from the journal; --recently-deleted lists the deletions of the 30 days before an instant, latest first, in pages")
    func recentlyDeletedAndEditTimes() throws {
        let ledger = try TallyRunner.householdLedger()
        let all = try Self.allRows(ledger, ["--deleted", "included", "--limit", "1000"])
        let edited = try #require(all.first { $0["transactionID"] as? String == "00000005-0000-4000-8000-000000000002" })
        #expect(edited["lastEditedAt"] as? String == "2026-01-12T08:17:00.000Z")
        let deleted = try #require(all.first { $0["transactionID"] as? String == "00000005-0000-4000-8000-000000000008" })
        #expect(deleted["recordedAt"] as? String == "2026-01-22T08:17:00.000Z")
        #expect(deleted["deletedAt"] as? String == "2026-01-22T09:08:00.000Z", "the second deletion, after a restore")
        #expect(all.filter { $0["isLive"] as? Bool == true }.allSatisfy { $0["deletedAt"] is NSNull })

        // The undo of a recording (2026-02-09T08:34) deleted 00000005-...-00000000000d.
        let recent = try Self.allRows(ledger, ["--recently-deleted", "2026-02-10T00:00:00Z", "--limit", "1"])
        #expect(recent.map { $0["transactionID"] as? String } == ["00000005-0000-4000-8000-00000000000d", "00000005-0000-4000-8000-000000000008"])
        let later = try Self.allRows(ledger, ["--recently-deleted", "2026-02-22T00:00:00Z"])
        #expect(later.map { $0["transactionID"] as? String } == ["00000005-0000-4000-8000-00000000000d"], "2026-01-22 is more than 30 days before")
        let bad = try TallyRunner.run(["transactions", "--recently-deleted", "yesterday", "--ledger", ledger])
        #expect(bad.status != 0 && bad.stderr.contains("--recently-deleted"), "\(bad.stderr)")
    }

    @Test("T7, Swiff Phase 5 currency: a card payment abroad applied from a command file lists with its original amount (JSON and table) and exports it in the CSV's original columns")
    func foreignCurrencyTransaction() throws {
        let ledger = try TallyRunner.householdLedger()
        let file = TallyRunner.temporaryDirectory() + "/milan.jsonl"
        let line = #"{"command": "recordTransaction", "commandID": "0000000c-0000-4000-8000-0000000007e7", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-03-02T08:00:00.000Z", "transactionID": "00000005-0000-4000-8000-0000000007e7", "kind": "expense", "amount": "CHF 47.35", "walletID": "00000003-0000-4000-8000-000000000001", "categoryID": "1888ea90-fe65-8eb9-b79a-cbe2cfa8e97e", "date": "2026-03-02", "note": "Dinner in Milan", "originalAmount": "EUR 50.00"}"#
        try (line + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let applied = try TallyRunner.run(["apply", "--ledger", ledger, file])
        #expect(applied.status == 0, "\(applied.stderr)")
        let row = try #require(try Self.allRows(ledger, []).first { $0["transactionID"] as? String == "00000005-0000-4000-8000-0000000007e7" })
        let original = try #require(row["originalAmount"] as? [String: Any])
        #expect(original["minorUnits"] as? Int == 5_000 && original["currency"] as? String == "EUR" && Self.minorUnits(row) == 4_735)
        #expect(try Self.allRows(ledger, []).filter { !($0["originalAmount"] is NSNull) }.count == 1, "the demo's own rows have none")
        let table = try TallyRunner.run(["transactions", "--ledger", ledger, "--limit", "1"])
        #expect(table.stdout.contains("-CHF 47.35 (EUR 50.00)"), "\(table.stdout)")
        let csv = try TallyRunner.run(["export", "--format", "csv", "--ledger", ledger])
        #expect(csv.stdout.contains(",Alice,50.00,EUR,"), "\(csv.stdout)")
    }

    @Test("S6, G7, Flow US-040, Swiff 1.3.1: settlements list newest first in keyset pages with both names; --as shows only the viewer's own; --person, --household and --group narrow it")
    func settlementsInPages() throws {
        let ledger = try TallyRunner.householdLedger()
        func ids(_ arguments: [String]) throws -> [String] {
            try Self.pagedRows(["settlements", "--json", "--ledger", ledger] + arguments).compactMap { $0["settlementID"] as? String }
        }
        let (household, trip) = ("00000008-0000-4000-8000-000000000001", "00000008-0000-4000-8000-000000000002")
        #expect(try ids(["--limit", "1"]) == [trip, household], "newest first, one per page")
        #expect(try ids(["--sort", "date-asc"]) == [household, trip])
        let rows = try Self.pagedRows(["settlements", "--json", "--ledger", ledger])
        #expect(rows.first?["fromName"] as? String == "Bob" && rows.first?["toName"] as? String == "Carol")
        #expect(Self.minorUnits(try #require(rows.last)) == 50_000)
        #expect(try ids(["--as", "Alice"]) == [household], "G7: not Bob's settlement with Carol")
        #expect(try ids(["--as", "Bob"]) == [trip, household])
        #expect(try ids(["--person", "Carol"]) == [trip])
        #expect(try ids(["--household"]) == [household])
        #expect(try ids(["--group", "00000009-0000-4000-8000-000000000001"]) == [trip])
        #expect(try ids(["--from", "2026-02-01"]) == [trip])
        let text = try TallyRunner.run(["settlements", "--ledger", ledger])
        #expect(text.status == 0 && text.stdout.contains("household") && text.stdout.contains("end of list"), "\(text.stdout)")
        let bad = try TallyRunner.run(["settlements", "--sort", "amount-desc", "--ledger", ledger])
        #expect(bad.status != 0 && bad.stderr.contains("by date"), "\(bad.stderr)")
    }

    @Test("the table shows names and signed amounts and ends with the --after cursor of the next page")
    func tableNamesTheNextPage() throws {
        let ledger = try TallyRunner.householdLedger()
        let result = try TallyRunner.run(["transactions", "--ledger", ledger, "--limit", "3"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("Date") == true && lines.count == 6, "\(result.stdout)")
        let last = try #require(lines.last)
        #expect(last.hasPrefix("more: --after "), "\(last)")
        let next = try TallyRunner.run(["transactions", "--ledger", ledger, "--limit", "3", "--after", String(last.dropFirst("more: --after ".count))])
        #expect(next.status == 0 && next.stdout != result.stdout, "\(next.stderr)")
    }

    @Test("bad input exits 2 naming what to fix: a cursor that is none, a cursor of another order, a page size of 0, an unknown wallet name, --month with --from")
    func badInputIsNamed() throws {
        let ledger = try TallyRunner.householdLedger()
        let cases: [([String], String)] = [
            (["--after", "nonsense"], "--after nonsense"),
            (["--after", "date-desc.20260101.5", "--sort", "amount-asc"], "amount-asc"),
            (["--limit", "0"], "1...1000"),
            (["--wallet", "No such wallet"], "No such wallet"),
            (["--month", "2026-02", "--from", "2026-01-01"], "--month"),
        ]
        for (arguments, needle) in cases {
            let result = try TallyRunner.run(["transactions", "--ledger", ledger] + arguments)
            #expect(result.status == 2 && result.stderr.contains(needle), "\(arguments): \(result.status) \(result.stderr)")
        }
    }

    @Test("G7 (TECH-008): --as PERSON lists only their personal rows and the shared ones they pay or share; the report sums those rows; balances leave out the other member's wallets; a statement of one is refused; the activity feed is shorter; an unknown person is named")
    func readsAsAPerson() throws {
        let ledger = try TallyRunner.householdLedger()
        let audit = try Self.allRows(ledger, ["--limit", "1000"])
        for person in ["Alice", "Bob"] {
            let rows = try Self.allRows(ledger, ["--limit", "1000", "--as", person])
            let personID = try #require(audit.first { $0["payerName"] as? String == person }?["payerID"] as? String)
            let seen = audit.filter { row in
                let sharers = (row["split"] as? [[String: Any]] ?? []).compactMap { $0["personID"] as? String }
                return row["payerID"] as? String == personID || sharers.contains(personID)
            }
            #expect(rows.map { $0["transactionID"] as? String } == seen.map { $0["transactionID"] as? String }, "\(person): the audit rows they pay or share, in order")
            #expect(rows.count < audit.count, "\(person): the other member has personal rows (the check can fail)")

            var expected: [String: Int] = [:]
            for row in rows where row["kind"] as? String == "expense" {
                let currency = (row["amount"] as? [String: Any])?["currency"] as? String ?? ""
                expected["\(row["categoryID"] as? String ?? "") \(String((row["date"] as? String ?? "").prefix(7))) \(currency)", default: 0] += Self.minorUnits(row)
            }
            let json = try TallyRunner.run(["report", "--json", "--as", person, "--ledger", ledger])
            let cells = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]], "\(json.stderr)")
            var reported: [String: Int] = [:]
            for cell in cells {
                let money = cell["total"] as? [String: Any]
                reported["\(cell["categoryID"] as? String ?? "") \(cell["month"] as? String ?? "") \(money?["currency"] as? String ?? "")"] = money?["minorUnits"] as? Int
            }
            #expect(reported == expected, "\(person): the report sums their rows")
        }
        let balances = try TallyRunner.run(["balances", "--as", "Alice", "--ledger", ledger])
        #expect(balances.status == 0 && balances.stdout.contains("Alice savings") && !balances.stdout.contains("Bob cash"), "\(balances.stdout)")
        let household = try TallyRunner.run(["balances", "--ledger", ledger])
        #expect(household.stdout.contains("Bob cash"), "the audit read lists every wallet")
        let statement = try TallyRunner.run(["statement", "--wallet", "Bob cash", "--as", "Alice", "--ledger", ledger])
        #expect(statement.status == 2 && statement.stderr.contains("Bob cash"), "\(statement.status) \(statement.stderr)")
        let feed = { (arguments: [String]) throws -> Int in
            let result = try TallyRunner.run(["activity", "--json", "--limit", "1000", "--ledger", ledger] + arguments)
            let page = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
            return (page["entries"] as? [Any])?.count ?? -1
        }
        let (all, alices) = (try feed([]), try feed(["--as", "Alice"]))
        #expect(alices > 0 && alices < all, "Alice's feed leaves out Bob's personal commands: \(alices) of \(all)")
        // S2 (issue 31 item 3): --sharing splits the household's list in two.
        let shared = try Self.allRows(ledger, ["--limit", "1000", "--sharing", "shared"])
        let personal = try Self.allRows(ledger, ["--limit", "1000", "--sharing", "personal"])
        #expect(!shared.isEmpty && shared.allSatisfy { !($0["split"] as? [Any] ?? []).isEmpty })
        #expect(!personal.isEmpty && personal.allSatisfy { ($0["split"] as? [Any] ?? []).isEmpty })
        #expect(shared.count + personal.count == audit.count)
        // Global search (issue 31 item 3): Bob's own wallet is found by the audit read, not by Alice.
        let found = try TallyRunner.run(["search", "bob", "--json", "--ledger", ledger])
        #expect(found.status == 0 && found.stdout.contains("Bob cash"), "\(found.stdout) \(found.stderr)")
        let alicesSearch = try TallyRunner.run(["search", "bob", "--json", "--as", "Alice", "--ledger", ledger])
        #expect(alicesSearch.status == 0 && alicesSearch.stdout.contains(#""kind":"person""#) && !alicesSearch.stdout.contains("Bob cash"), "\(alicesSearch.stdout)")
        let unknown = try TallyRunner.run(["transactions", "--as", "Nobody", "--ledger", ledger])
        #expect(unknown.status == 2 && unknown.stderr.contains("--as Nobody") && unknown.stderr.contains("Alice"), "\(unknown.stderr)")
        let both = try TallyRunner.run(["balances", "--json", "--as", "Alice", "--ledger", ledger])
        #expect(both.status == 2 && both.stderr.contains("audit"), "\(both.stderr)")
    }

    @Test("report --csv sums equal the expense rows of `transactions` per category and month; --json holds the same cells; the table has a total column")
    func reportMatchesTheList() throws {
        let ledger = try TallyRunner.householdLedger()
        let rows = try Self.allRows(ledger, ["--kind", "expense", "--limit", "1000"])
        var expected: [String: Int] = [:]
        for row in rows {
            let month = String((row["date"] as? String ?? "").prefix(7))
            let currency = (row["amount"] as? [String: Any])?["currency"] as? String ?? ""
            expected["\(row["categoryID"] as? String ?? "") \(month) \(currency)", default: 0] += Self.minorUnits(row)
        }
        let csv = try TallyRunner.run(["report", "--csv", "--ledger", ledger])
        #expect(csv.status == 0, "\(csv.stderr)")
        let lines = csv.stdout.split(separator: "\n").dropFirst()
        #expect(lines.count == expected.count)
        let json = try TallyRunner.run(["report", "--json", "--ledger", ledger])
        let cells = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(cells.count == expected.count)
        for cell in cells {
            let money = cell["total"] as? [String: Any]
            let key = "\(cell["categoryID"] as? String ?? "") \(cell["month"] as? String ?? "") \(money?["currency"] as? String ?? "")"
            let total = money?["minorUnits"] as? Int
            #expect(total == expected[key], "\(key)")
        }
        let table = try TallyRunner.run(["report", "--ledger", ledger])
        #expect(table.status == 0 && table.stdout.contains("Total"), "\(table.stdout)")
    }

    @Test("--text, --tag and --person narrow the list to the rows whose note or tags hold the words, that carry the tag, that the person paid or shares; rows carry note, tags and split")
    func searchTagAndPersonOptions() throws {
        let ledger = try TallyRunner.householdLedger()
        let all = try Self.allRows(ledger, ["--limit", "1000"])
        func note(_ row: [String: Any]) -> String { ((row["note"] as? [String: Any])?["text"] as? String) ?? "" }
        func tags(_ row: [String: Any]) -> [String] { row["tags"] as? [String] ?? [] }
        let found = try Self.allRows(ledger, ["--text", "MIGR shop", "--limit", "1000"])
        #expect(!found.isEmpty)
        #expect(found.count == all.filter { note($0).lowercased().contains("migros") && note($0).lowercased().contains("shop") }.count)
        let tagged = try Self.allRows(ledger, ["--tag", "weekly", "--limit", "1000"])
        #expect(!tagged.isEmpty && tagged.count == all.filter { tags($0).contains("weekly") }.count)
        let bob = try Self.allRows(ledger, ["--person", "Bob", "--limit", "1000"])
        let bobID = try #require(all.first { $0["payerName"] as? String == "Bob" }?["payerID"] as? String)
        let expected = all.filter { row in
            row["payerID"] as? String == bobID || (row["split"] as? [[String: Any]] ?? []).contains { $0["personID"] as? String == bobID }
        }
        #expect(!bob.isEmpty && bob.count == expected.count)
        for row in all {
            let shares = (row["split"] as? [[String: Any]] ?? []).compactMap { ($0["amount"] as? [String: Any])?["minorUnits"] as? Int }
            if !shares.isEmpty { #expect(shares.reduce(0, +) == Self.minorUnits(row), "S3: the split sums to the amount") }
        }
        let bad = try TallyRunner.run(["transactions", "--ledger", ledger, "--text", "?!"])
        #expect(bad.status == 2 && bad.stderr.contains("letter or a digit"), "\(bad.stderr)")
    }

    @Test("B1: report --by period --csv holds, per category and pay period, the sum of the expense rows of `transactions` dated in that period; a range outside every period is an empty report")
    func reportByPayPeriod() throws {
        let ledger = try TallyRunner.householdLedger()
        let csv = try TallyRunner.run(["report", "--csv", "--by", "period", "--periods", "24", "--ledger", ledger])
        #expect(csv.status == 0, "\(csv.stderr)")
        let lines = csv.stdout.split(separator: "\n")
        #expect(lines.first == "category_id,category,period_start,period_end,kind,currency,amount,count")
        var periods: Set<[String]> = []
        var got: [String: Int] = [:]
        for line in lines.dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            try #require(fields.count == 8, "\(line)")
            #expect(fields[2] <= fields[3], "a period starts before it ends")
            periods.insert([fields[2], fields[3]])
            // Plain decimals with two places (CHF, EUR): minor units without the point.
            got["\(fields[0]) \(fields[2]) \(fields[5])"] = Int(fields[6].replacingOccurrences(of: ".", with: ""))
        }
        var want: [String: Int] = [:]
        for row in try Self.allRows(ledger, ["--kind", "expense", "--limit", "1000"]) {
            let date = try #require(row["date"] as? String)
            let period = try #require(periods.first { $0[0] <= date && date <= $0[1] }, "\(date) lies in a listed period")
            let currency = (row["amount"] as? [String: Any])?["currency"] as? String ?? ""
            want["\(row["categoryID"] as? String ?? "") \(period[0]) \(currency)", default: 0] += Self.minorUnits(row)
        }
        #expect(!want.isEmpty && got == want)
        let outside = try TallyRunner.run(["report", "--by", "period", "--month", "2020-01", "--ledger", ledger])
        #expect(outside.status == 0 && outside.stdout.contains("no transactions match"), "\(outside.stdout)\(outside.stderr)")
        let zero = try TallyRunner.run(["report", "--by", "period", "--periods", "0", "--ledger", ledger])
        #expect(zero.status == 2 && zero.stderr.contains("1...1000"), "\(zero.stderr)")
    }

    @Test("activity lists every command once, newest first, page after page with --before; --json marks undo (T5) with the reason when unavailable")
    func activityPages() throws {
        let ledger = try TallyRunner.householdLedger()
        var before: String?
        var commands: [String] = []
        var sequences: [Int] = []
        repeat {
            let result = try TallyRunner.run(["activity", "--json", "--limit", "7", "--ledger", ledger] + (before.map { ["--before", $0] } ?? []))
            #expect(result.status == 0, "\(result.stderr)")
            let page = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let entries = try #require(page["entries"] as? [[String: Any]])
            commands += entries.compactMap { $0["commandID"] as? String }
            sequences += entries.compactMap { $0["firstSequenceNumber"] as? Int }
            for entry in entries {
                let undo = try #require(entry["undo"] as? [String: Any])
                let state = try #require(undo["state"] as? String)
                #expect(["undoable", "redoable", "unavailable"].contains(state))
                #expect((state == "unavailable") == (undo["reason"] != nil))
            }
            before = page["next"] as? String
        } while before != nil
        let lines = try String(contentsOfFile: TallyRunner.household, encoding: .utf8).split(separator: "\n").filter { !$0.isEmpty }
        #expect(commands.count == lines.count, "one entry per command of the example")
        #expect(Set(commands).count == commands.count)
        #expect(sequences == sequences.sorted(by: >))
        #expect(sequences.last == 1)
        let table = try TallyRunner.run(["activity", "--limit", "3", "--ledger", ledger])
        #expect(table.status == 0 && table.stdout.contains("more: --before before."), "\(table.stdout)")
    }

    @Test("W3, W5: every wallet's statement read oldest first in pages of 4 adds each row's amount to the balance before it and ends at the balance `balances --json` reports; an observed wallet has no running balance")
    func statementEndsAtTheBalance() throws {
        let ledger = try TallyRunner.householdLedger()
        let balances = try TallyRunner.run(["balances", "--json", "--ledger", ledger])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(balances.stdout.utf8)) as? [String: Any])
        let wallets = try #require(report["wallets"] as? [[String: Any]])
        #expect(wallets.count >= 4)
        for wallet in wallets {
            let name = try #require(wallet["name"] as? String)
            let rows = try Self.statementRows(ledger, wallet: name, ["--limit", "4"])
            let balance = Self.balance
            if wallet["valuation"] as? String == "observed" {
                #expect(rows.allSatisfy { balance($0) == nil }, "\(name): W5, no running balance")
                continue
            }
            for (previous, row) in zip(rows, rows.dropFirst()) {
                #expect(balance(row).map { $0 - Self.minorUnits(row) } == balance(previous), "\(name): a row adds its amount")
            }
            if let last = rows.last {
                #expect(balance(last) == (wallet["balance"] as? [String: Any])?["minorUnits"] as? Int, "\(name): ends at the balance")
            }
        }
        // A statement's transaction rows are the rows `transactions --json` writes.
        let listed = Dictionary(uniqueKeysWithValues: try Self.allRows(ledger, ["--limit", "1000"]).compactMap { row in
            (row["transactionID"] as? String).map { ($0, NSDictionary(dictionary: row)) }
        })
        let joint = try Self.statementRows(ledger, wallet: "Joint account", ["--limit", "1000"]).compactMap { $0["transaction"] as? [String: Any] }
        #expect(!joint.isEmpty)
        for row in joint {
            #expect(listed[row["transactionID"] as? String ?? ""] == NSDictionary(dictionary: row), "\(row)")
        }
        let sorted = try TallyRunner.run(["statement", "--sort", "amount-desc", "--wallet", "Joint account", "--ledger", ledger])
        #expect(sorted.status == 2 && sorted.stderr.contains("date-desc"), "\(sorted.stderr)")
    }

    @Test("W3: balances --as-of DATE --json shows the wallets at the end of that date (totals asOf set), each equal to the running balance of its statement through that date")
    func balancesAsOfInJSON() throws {
        let ledger = try TallyRunner.householdLedger()
        let asOf = try TallyRunner.run(["balances", "--json", "--as-of", "2026-01-31", "--ledger", ledger])
        #expect(asOf.status == 0, "\(asOf.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(asOf.stdout.utf8)) as? [String: Any])
        #expect((report["totals"] as? [String: Any])?["asOf"] as? String == "2026-01-31")
        let now = try TallyRunner.run(["balances", "--json", "--ledger", ledger])
        #expect(now.stdout != asOf.stdout, "February's movements are not in it")
        var compared = 0
        for wallet in try #require(report["wallets"] as? [[String: Any]]) where wallet["valuation"] as? String != "observed" {
            let name = try #require(wallet["name"] as? String)
            guard let last = try Self.statementRows(ledger, wallet: name, ["--to", "2026-01-31", "--limit", "1000"]).last else { continue }
            #expect(Self.balance(last) == (wallet["balance"] as? [String: Any])?["minorUnits"] as? Int, "\(name)")
            compared += 1
        }
        #expect(compared >= 3)
    }

    @Test("H3: `log --person NAME` with two people of that name is refused naming both ids (never the first in hash order); the id, or a unique name in any case, selects one person")
    func logPersonByAmbiguousNameIsRefused() throws {
        let ledger = try TallyRunner.householdLedger()
        let second = #"{"command": "addPerson", "commandID": "0000000c-0000-4000-8000-0000000007c1", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-12-01T10:00:00.000Z", "personID": "00000002-0000-4000-8000-0000000007c1", "name": "Carol"}"#
        #expect(try TallyRunner.run(["apply", "--ledger", ledger, "-"], stdin: second + "\n").status == 0)
        let ambiguous = try TallyRunner.run(["log", "--ledger", ledger, "--person", "Carol"])
        #expect(ambiguous.status == 2)
        #expect(ambiguous.stderr.contains("2 have this name") && ambiguous.stderr.contains("00000002-0000-4000-8000-000000000003")
                && ambiguous.stderr.contains("00000002-0000-4000-8000-0000000007c1"), "\(ambiguous.stderr)")
        let byID = try TallyRunner.run(["log", "--ledger", ledger, "--json", "--person", "00000002-0000-4000-8000-0000000007c1"])
        #expect(byID.status == 0 && byID.stdout.split(separator: "\n").count == 1, "only the event about the new Carol: \(byID.stdout)")
        let anyCase = try TallyRunner.run(["log", "--ledger", ledger, "--json", "--person", "bob"])
        #expect(anyCase.status == 0 && !anyCase.stdout.isEmpty, "\(anyCase.stderr)")
    }
}
