import Foundation
import SystemPackage
import Tally
import TallyInterchange
import TallyModel
import Testing

/// CSV exports of the entities besides transactions (issue 31 item 7; Docs/Interchange.md, "CSV
/// export"): wallets (Drishti E14-S1), goals (E14-S2), settlements (Flow US-040), budgets
/// (Flow US-050, B4), one group's report (Swiff 1.3.2), people, groups and subscriptions (Swiff
/// 2.4.2), each for a viewer (G7), and the Swiss number format (Flow US-050).
@Suite("Entity CSV exports", .serialized)
struct EntityCSVExportTests {
    static let alice = "00000002-0000-4000-8000-000000000001"
    static let bob = "00000002-0000-4000-8000-000000000002"
    static let carol = "00000002-0000-4000-8000-000000000003"
    static let joint = "00000003-0000-4000-8000-000000000001"
    static let aliceSavings = "00000003-0000-4000-8000-000000000002"
    static let bobCash = "00000003-0000-4000-8000-000000000003"
    static let house = "00000003-0000-4000-8000-000000000004"
    static let oldCard = "00000003-0000-4000-8000-000000000005"
    static let rent = "00000004-0000-4000-8000-000000000001"
    static let hobbies = "00000004-0000-4000-8000-000000000002"
    static let ski = "00000009-0000-4000-8000-000000000001"
    static let pottery = "00000009-0000-4000-8000-000000000002"

    /// A small household, built through commands: Alice (admin), Bob (member) and Carol (a
    /// contact); a joint account, each member's own wallet, an observed house and a closed card;
    /// rent shared 50/50 in January and February, a personal hobby expense each; groups Ski
    /// (all three) and Pottery (Bob and Carol) with a settlement in each and one household
    /// settlement; a linked goal in Alice's own wallet, one in the joint account, one by hand;
    /// Bob's personal monthly gym subscription.
    static let commands: [(day: String, actor: String, command: String, fields: String)] = [
        ("2026-01-01", alice, "createHousehold", #""householdID": "00000001-0000-4000-8000-000000000001", "name": "Test", "baseCurrency": "CHF", "adminName": "Alice""#),
        ("2026-01-01", alice, "addMember", #""personID": "\#(bob)", "name": "Bob""#),
        ("2026-01-01", alice, "addPerson", #""personID": "\#(carol)", "name": "Carol""#),
        ("2026-01-01", alice, "openWallet", #""walletID": "\#(joint)", "name": "Joint", "kind": "bank", "openingBalance": "CHF 3000.00", "openedOn": "2026-01-01""#),
        ("2026-01-01", alice, "openWallet", #""walletID": "\#(aliceSavings)", "name": "Alice savings", "kind": "savings", "openingBalance": "CHF 5000.00", "openedOn": "2026-01-01", "owner": "\#(alice)""#),
        ("2026-01-01", bob, "openWallet", #""walletID": "\#(bobCash)", "name": "Bob cash", "kind": "cash", "openingBalance": "CHF 200.00", "openedOn": "2026-01-01", "owner": "\#(bob)""#),
        ("2026-01-01", alice, "openWallet", #""walletID": "\#(house)", "name": "House", "kind": "property", "openingBalance": "CHF 500000.00", "openedOn": "2026-01-01""#),
        ("2026-01-01", alice, "openWallet", #""walletID": "\#(oldCard)", "name": "Old card", "kind": "card", "openingBalance": "CHF 0.00", "openedOn": "2026-01-01""#),
        ("2026-01-01", alice, "createCategory", #""categoryID": "\#(rent)", "name": "Rent", "group": "expense", "budgetType": "needs", "shareable": true"#),
        ("2026-01-01", alice, "createCategory", #""categoryID": "\#(hobbies)", "name": "Hobbies", "group": "expense", "budgetType": "wants", "shareable": true"#),
        ("2026-01-01", alice, "setPayday", #""day": 25"#),
        ("2026-01-01", alice, "allocateBudget", #""categoryID": "\#(rent)", "amount": "CHF 1200.00", "fromPeriod": "2025-12-25""#),
        ("2026-01-01", alice, "allocateBudget", #""categoryID": "\#(hobbies)", "amount": "CHF 100.00", "fromPeriod": "2025-12-25""#),
        ("2026-01-05", alice, "recordTransaction", #""transactionID": "00000005-0000-4000-8000-000000000001", "kind": "expense", "amount": "CHF 1200.00", "walletID": "\#(joint)", "categoryID": "\#(rent)", "date": "2026-01-05", "note": "January rent", "payer": "\#(alice)", "shared": true"#),
        ("2026-01-10", bob, "recordTransaction", #""transactionID": "00000005-0000-4000-8000-000000000002", "kind": "expense", "amount": "CHF 45.00", "walletID": "\#(bobCash)", "categoryID": "\#(hobbies)", "date": "2026-01-10", "note": "Climbing", "payer": "\#(bob)""#),
        ("2026-01-12", alice, "recordTransaction", #""transactionID": "00000005-0000-4000-8000-000000000003", "kind": "expense", "amount": "CHF 80.00", "walletID": "\#(aliceSavings)", "categoryID": "\#(hobbies)", "date": "2026-01-12", "note": "Yarn", "payer": "\#(alice)""#),
        ("2026-01-13", bob, "createTemplate", #""templateID": "00000007-0000-4000-8000-000000000001", "frequency": "monthly", "kind": "expense", "amount": "CHF 60.00", "walletID": "\#(bobCash)", "categoryID": "\#(hobbies)", "date": "2026-01-15", "note": "Gym", "payer": "\#(bob)""#),
        ("2026-01-14", alice, "createGroup", #""groupID": "\#(ski)", "name": "Ski", "members": ["\#(alice)", "\#(bob)", "\#(carol)"]"#),
        ("2026-01-17", alice, "recordGroupExpense", #""expenseID": "0000000a-0000-4000-8000-000000000001", "groupID": "\#(ski)", "paidBy": "\#(carol)", "amount": "CHF 300.00", "date": "2026-01-17", "note": "Chalet", "split": {"kind": "equal", "people": ["\#(alice)", "\#(bob)", "\#(carol)"]}"#),
        ("2026-01-18", bob, "createGroup", #""groupID": "\#(pottery)", "name": "Pottery", "members": ["\#(bob)", "\#(carol)"]"#),
        ("2026-01-19", bob, "recordGroupExpense", #""expenseID": "0000000a-0000-4000-8000-000000000002", "groupID": "\#(pottery)", "paidBy": "\#(bob)", "amount": "CHF 50.00", "date": "2026-01-19", "note": "Clay", "split": {"kind": "equal", "people": ["\#(bob)", "\#(carol)"]}"#),
        ("2026-01-20", alice, "closeWallet", #""walletID": "\#(oldCard)", "closedOn": "2026-01-20""#),
        ("2026-01-24", bob, "recordSettlement", #""settlementID": "00000008-0000-4000-8000-000000000001", "from": "\#(bob)", "to": "\#(alice)", "amount": "CHF 600.00", "date": "2026-01-24", "paymentMethod": "TWINT", "note": "January, rent and food""#),
        ("2026-01-25", bob, "recordSettlement", #""settlementID": "00000008-0000-4000-8000-000000000002", "from": "\#(bob)", "to": "\#(carol)", "amount": "CHF 100.00", "date": "2026-01-25", "groupID": "\#(ski)""#),
        ("2026-01-26", bob, "recordSettlement", #""settlementID": "00000008-0000-4000-8000-000000000003", "from": "\#(carol)", "to": "\#(bob)", "amount": "CHF 25.00", "date": "2026-01-26", "groupID": "\#(pottery)""#),
        ("2026-02-05", alice, "recordTransaction", #""transactionID": "00000005-0000-4000-8000-000000000004", "kind": "expense", "amount": "CHF 1200.00", "walletID": "\#(joint)", "categoryID": "\#(rent)", "date": "2026-02-05", "note": "February rent", "payer": "\#(alice)", "shared": true"#),
        ("2026-02-28", alice, "recordBalance", #""walletID": "\#(house)", "date": "2026-02-28", "balance": "CHF 510000.00""#),
        ("2026-03-01", alice, "createGoal", #""goalID": "0000000d-0000-4000-8000-000000000001", "name": "Emergency fund", "target": "CHF 10000.00", "targetDate": "2026-12-31", "walletIDs": ["\#(aliceSavings)"]"#),
        ("2026-03-01", alice, "createGoal", #""goalID": "0000000d-0000-4000-8000-000000000002", "name": "Holiday", "target": "CHF 2000.00", "targetDate": "2026-07-01""#),
        ("2026-03-01", alice, "setGoalAmount", #""goalID": "0000000d-0000-4000-8000-000000000002", "date": "2026-01-10", "amount": "CHF 200.00""#),
        ("2026-03-01", alice, "setGoalAmount", #""goalID": "0000000d-0000-4000-8000-000000000002", "date": "2026-02-01", "amount": "CHF 500.00""#),
        ("2026-03-01", alice, "createGoal", #""goalID": "0000000d-0000-4000-8000-000000000003", "name": "Joint buffer", "target": "CHF 2000.00", "walletIDs": ["\#(joint)"]"#),
    ]

    /// The household's ledger, folded as an export reads it.
    static func history() async throws -> LedgerHistory {
        let lines = commands.enumerated().map { index, entry in
            #"{"command": "\#(entry.command)", "commandID": "0000000c-0000-4000-8000-\#(String(format: "%012x", index + 1))", "actor": "\#(entry.actor)", "recordedAt": "\#(entry.day)T08:00:00.000Z", \#(entry.fields)}"#
        }
        let directory = FilePath(FileManager.default.temporaryDirectory.appendingPathComponent("tally-entity-csv-\(UUID().uuidString)").path)
        let ledger = try await Ledger.open(at: directory, options: LedgerOptions(durability: .none))
        for command in try CommandParser.parse(lines: lines.joined(separator: "\n")) { try await ledger.execute(command) }
        try await ledger.close()
        return try LedgerHistory.load(at: directory)
    }

    static func viewer(_ id: String) throws -> Viewer { .member(try PersonID(parsing: id)) }

    @Test("Drishti E14-S1, W3, W4, W5: the wallet export lists id, name, kind, valuation, owner, currency, balance, as-of date (an observed wallet's latest balance point, a tracked one's latest entry, else its opening day) and state, by name")
    func walletsForTheAudit() async throws {
        let history = try await Self.history()
        #expect(try CSVExporter.wallets(history, visibleTo: .audit) == """
            id,name,kind,valuation,owner,currency,balance,as_of,state
            \(Self.aliceSavings),Alice savings,savings,tracked,Alice,CHF,4920.00,2026-01-12,active
            \(Self.bobCash),Bob cash,cash,tracked,Bob,CHF,155.00,2026-01-10,active
            \(Self.house),House,property,observed,,CHF,510000.00,2026-02-28,active
            \(Self.joint),Joint,bank,tracked,,CHF,600.00,2026-02-05,active
            \(Self.oldCard),Old card,card,tracked,,CHF,0.00,2026-01-01,closed

            """)
        #expect(try CSVExporter.wallets(history, asOf: try LocalDate(iso: "2026-01-31"), visibleTo: .audit).contains(
            "\(Self.joint),Joint,bank,tracked,,CHF,1800.00,2026-01-05,active\n"), "the balance and its as-of date at the end of the date asked")
    }

    @Test("G7, Drishti E14-S1: a member's wallet export holds the household's wallets and their own, never another member's own wallet (Viewer.sees(walletOwnedBy:))")
    func walletsForAMember() async throws {
        let history = try await Self.history()
        let bob = try CSVExporter.wallets(history, visibleTo: try Self.viewer(Self.bob))
        #expect(bob == """
            id,name,kind,valuation,owner,currency,balance,as_of,state
            \(Self.bobCash),Bob cash,cash,tracked,Bob,CHF,155.00,2026-01-10,active
            \(Self.house),House,property,observed,,CHF,510000.00,2026-02-28,active
            \(Self.joint),Joint,bank,tracked,,CHF,600.00,2026-02-05,active
            \(Self.oldCard),Old card,card,tracked,,CHF,0.00,2026-01-01,closed

            """)
        #expect(!(try CSVExporter.wallets(history, visibleTo: try Self.viewer(Self.alice))).contains("Bob cash"))
    }

    @Test("Flow US-050: --number-format swiss writes every amount grouped by three with the Swiss apostrophe (the rule Money.formatted() gives CHF), on every export; the CSV import reads it back")
    func swissNumberFormat() async throws {
        let history = try await Self.history()
        let wallets = try CSVExporter.wallets(history, visibleTo: .audit, numberFormat: .swiss)
        #expect(wallets.contains("\(Self.house),House,property,observed,,CHF,510'000.00,2026-02-28,active\n"))
        #expect(wallets.contains(",Alice savings,savings,tracked,Alice,CHF,4'920.00,"))
        #expect(wallets.contains(",Bob cash,cash,tracked,Bob,CHF,155.00,"), "no separator under 1000")
        let transactions = try CSVExporter.export(history, filter: CSVExporter.Filter(numberFormat: .swiss))
        #expect(transactions.contains("2026-01-05,expense,Rent,1'200.00,January rent,Joint,CHF,yes,Alice,,,,,600.00,600.00\n"))
        #expect(try CSVExporter.budgets(history, visibleTo: .audit, numberFormat: .swiss).contains(",Rent,needs,1'200.00,1'200.00,0.00,100.00,on-track,CHF"))
        #expect(try CSVExporter.goals(history, on: try LocalDate(iso: "2026-03-01"), visibleTo: .audit, numberFormat: .swiss).contains(",Emergency fund,10'000.00,CHF,"))
        #expect(Money(minorUnits: -123_456_789, currency: .chf).swissNumber() == "-1'234'567.89")
        #expect(Money(minorUnits: 1_234_567, currency: try Currency("JPY")).swissNumber() == "1'234'567")
        #expect(CSVExporter.NumberFormat.plain.text(Money(minorUnits: 123_450, currency: .eur)) == "1234.50")
        #expect(Money(minorUnits: 123_456, currency: .chf).formatted() == "CHF 1'234.56", "the CHF rule is unchanged")
    }

    @Test("Drishti E14-S2, R2, G7: the goal export lists id, title, target, target date, saved, progress percent, finish estimate and linked wallets by name and id; a member never gets a goal saved in another member's own wallet (ledger.goals(on:visibleTo:))")
    func goals() async throws {
        let history = try await Self.history()
        let date = try LocalDate(iso: "2026-03-01")
        let header = "id,title,target,currency,target_date,saved,progress_percent,estimated_finish,wallets,wallet_ids"
        let emergency = "0000000d-0000-4000-8000-000000000001,Emergency fund,10000.00,CHF,2026-12-31,4920.00,49.20,,Alice savings,\(Self.aliceSavings)"
        // R2: 300.00 saved in the 90 days before (200.00 on 2026-01-10, 500.00 on 2026-02-01):
        // the 1500.00 left take 1500 / 300 x 90 = 450 days.
        let holiday = "0000000d-0000-4000-8000-000000000002,Holiday,2000.00,CHF,2026-07-01,500.00,25.00,2027-05-25,,"
        let buffer = "0000000d-0000-4000-8000-000000000003,Joint buffer,2000.00,CHF,,600.00,30.00,,Joint,\(Self.joint)"
        let audit = try CSVExporter.goals(history, on: date, visibleTo: .audit)
        #expect(audit == [header, emergency, holiday, buffer, ""].joined(separator: "\n"), "\(audit)")
        let bob = try CSVExporter.goals(history, on: date, visibleTo: try Self.viewer(Self.bob))
        #expect(bob == [header, holiday, buffer, ""].joined(separator: "\n"), "G7: the emergency fund is saved in Alice's own wallet: \(bob)")
        #expect(try CSVExporter.goals(history, on: date, visibleTo: try Self.viewer(Self.alice)) == audit)
    }

    @Test("Flow US-040, S6, G7, Swiff 2.1.3: the settlement export lists date, from, to, amount, currency, group, advance, id, payment method and note, oldest first; a member gets the settlements they paid or received, never one between two others (Viewer.sees(anyOf:), the debts' rule)")
    func settlements() async throws {
        let history = try await Self.history()
        let header = "date,from,to,amount,currency,group,advance,id,paymentMethod,note"
        let household = "2026-01-24,Bob,Alice,600.00,CHF,,no,00000008-0000-4000-8000-000000000001,TWINT,\"January, rent and food\""
        let ski = "2026-01-25,Bob,Carol,100.00,CHF,Ski,no,00000008-0000-4000-8000-000000000002,,"
        let pottery = "2026-01-26,Carol,Bob,25.00,CHF,Pottery,no,00000008-0000-4000-8000-000000000003,,"
        #expect(try CSVExporter.settlements(history, visibleTo: .audit) == [header, household, ski, pottery, ""].joined(separator: "\n"))
        #expect(try CSVExporter.settlements(history, visibleTo: try Self.viewer(Self.alice)) == [header, household, ""].joined(separator: "\n"),
                "Alice is in Ski, but Bob paying Carol is theirs")
        #expect(try CSVExporter.settlements(history, visibleTo: try Self.viewer(Self.bob)) == [header, household, ski, pottery, ""].joined(separator: "\n"))
        #expect(try CSVExporter.settlements(history, from: try LocalDate(iso: "2026-01-25"), through: try LocalDate(iso: "2026-01-25"), visibleTo: .audit)
            == [header, ski, ""].joined(separator: "\n"))
        #expect { try CSVExporter.settlements(history, from: try LocalDate(iso: "2026-02-01"), through: try LocalDate(iso: "2026-01-01"), visibleTo: .audit) } throws: { error in
            (error as? InterchangeError)?.code == "exportRangeInvalid"
        }
    }

    @Test("Flow US-050, B2, B4, B6: the budget export has one row per pay period and category: budgeted, spent, remaining, percent and B4 status (over above +10%, under below 80% at period end), closed periods from their snapshot; every viewer gets the household's budget")
    func budgets() async throws {
        let history = try await Self.history()
        let expected = """
            period_start,period_end,period_state,category,budget_type,budgeted,spent,remaining,percent,status,currency
            2025-12-25,2026-01-24,closed,Hobbies,wants,100.00,125.00,-25.00,125.00,over,CHF
            2025-12-25,2026-01-24,closed,Rent,needs,1200.00,1200.00,0.00,100.00,on-track,CHF
            2026-01-25,2026-02-24,closed,Hobbies,wants,100.00,0.00,100.00,0.00,under,CHF
            2026-01-25,2026-02-24,closed,Rent,needs,1200.00,1200.00,0.00,100.00,on-track,CHF

            """
        #expect(try CSVExporter.budgets(history, visibleTo: .audit) == expected)
        #expect(try CSVExporter.budgets(history, visibleTo: try Self.viewer(Self.bob)) == expected, "G7: a budget is the household's")
        let february = try CSVExporter.budgets(history, from: try LocalDate(iso: "2026-02-01"), through: try LocalDate(iso: "2026-02-01"), visibleTo: .audit)
        #expect(february.split(separator: "\n").dropFirst().allSatisfy { $0.hasPrefix("2026-01-25,2026-02-24,") })
        #expect { try CSVExporter.budgets(history, from: try LocalDate(iso: "1900-01-01"), through: try LocalDate(iso: "2026-01-01"), visibleTo: .audit) } throws: { error in
            guard let error = error as? InterchangeError else { return false }
            return error.code == "exportRangeTooLarge" && error.message.contains("--from")
        }
    }

    @Test("Swiff 1.3.2, S7, S8, G7: a group report lists the group's expenses with each member's share, then per currency the members' paid, owed, settlements and balance (summing to zero); a member gets only a group they are in, any other is unknownGroup")
    func groupReport() async throws {
        let history = try await Self.history()
        #expect(try CSVExporter.groupReport(history, group: "ski", visibleTo: .audit) == """
            date,description,paid_by,amount,currency,settled,share:Alice,share:Bob,share:Carol
            2026-01-17,Chalet,Carol,300.00,CHF,no,100.00,100.00,100.00
            ,paid,,,CHF,,0.00,0.00,300.00
            ,owed,,,CHF,,100.00,100.00,100.00
            ,settlements paid,,,CHF,,0.00,100.00,0.00
            ,settlements received,,,CHF,,0.00,0.00,100.00
            ,balance,,,CHF,,-100.00,0.00,100.00

            """)
        let byID = try CSVExporter.groupReport(history, group: Self.pottery, visibleTo: try Self.viewer(Self.bob), numberFormat: .swiss)
        #expect(byID.hasPrefix("date,description,paid_by,amount,currency,settled,share:Bob,share:Carol\n2026-01-19,Clay,Bob,50.00,CHF,no,25.00,25.00\n"), "\(byID)")
        #expect(byID.hasSuffix(",balance,,,CHF,,0.00,0.00\n"), "Carol settled her part of the clay")
        let alice = try Self.viewer(Self.alice)
        func refusal(_ group: String) -> InterchangeError? {
            do {
                _ = try CSVExporter.groupReport(history, group: group, visibleTo: alice)
                return nil
            } catch {
                return error
            }
        }
        let hidden = try #require(refusal("Pottery"))
        #expect(hidden.code == "unknownGroup" && hidden.message.contains("\"Pottery\"") && hidden.message.contains("--entity groups"), "\(hidden)")
        let missing = try #require(refusal("Knitting"))
        #expect(hidden.message.replacingOccurrences(of: "Pottery", with: "Knitting") == missing.message,
                "G7: a group Alice is not in is refused as one that does not exist")
    }

    @Test("Swiff 2.4.2, H3, S7, R1, G7: people (every viewer: names are the household's; no contact details), groups (a member's own) and subscriptions (the ones a member pays or shares) export one CSV each")
    func peopleGroupsAndSubscriptions() async throws {
        let history = try await Self.history()
        #expect(CSVExporter.people(history, visibleTo: try Self.viewer(Self.bob)) == """
            id,name,role,state,emoji,color,photo
            \(Self.alice),Alice,admin,active,,,
            \(Self.bob),Bob,member,active,,,
            \(Self.carol),Carol,contact,active,,,

            """)
        #expect(CSVExporter.groups(history, visibleTo: .audit) == """
            id,name,members,state,description,emoji
            \(Self.pottery),Pottery,Bob; Carol,active,,
            \(Self.ski),Ski,Alice; Bob; Carol,active,,

            """)
        #expect(CSVExporter.groups(history, visibleTo: try Self.viewer(Self.alice)) == "id,name,members,state,description,emoji\n\(Self.ski),Ski,Alice; Bob; Carol,active,,\n")
        let subscriptionHeader = "id,name,kind,cycle,price,currency,monthly_equivalent,standing,next_date,wallet,category,payer\n"
        let gym = "00000007-0000-4000-8000-000000000001,Gym,expense,monthly,60.00,CHF,60.00,active,2026-03-15,Bob cash,Hobbies,Bob\n"
        #expect(CSVExporter.subscriptions(history, on: try LocalDate(iso: "2026-03-01"), visibleTo: try Self.viewer(Self.bob)) == subscriptionHeader + gym)
        #expect(CSVExporter.subscriptions(history, on: try LocalDate(iso: "2026-03-01"), visibleTo: try Self.viewer(Self.alice)) == subscriptionHeader,
                "Bob's personal subscription is his")
    }
}
