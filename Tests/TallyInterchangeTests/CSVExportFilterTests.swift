import Foundation
import Tally
import TallyInterchange
import TallyModel
import Testing

/// CSV export filters and columns (Docs/Domain.md section 9, Flow US-050, G7; Docs/Interchange.md).
@Suite("CSV export filters")
struct CSVExportFilterTests {
    static let bob = "00000002-0000-4000-8000-000000000002"

    static func lines(_ filter: CSVExporter.Filter) async throws -> [String] {
        let (_, history) = try await InterchangeLedgerTests.makeLedger()
        return try CSVExporter.export(history, filter: filter).split(separator: "\n").map(String.init)
    }

    @Test("section 9, US-050: the header is written once: the fixed columns, shared, payer, then one share column per person by name; shared rows carry their split amounts")
    func sharedFlagAndSplitAmounts() async throws {
        let lines = try await Self.lines(CSVExporter.Filter())
        #expect(lines[0] == "date,type,category,amount,note,wallet,currency,shared,payer,original_amount,original_currency,payee,subtitle,share:Alice,share:Bob")
        #expect(lines.filter { $0.hasPrefix("date,") }.count == 1)
        #expect(lines[1] == "2026-01-05,expense,Rent,2400.00,January rent,Joint account,CHF,yes,Alice,,,,,1440.00,960.00", "the household's 60/40 split (S3)")
        #expect(lines.contains("2026-01-10,expense,Restaurants,64.50,Lunch in Freiburg,Alice EUR card,EUR,no,Alice,,,,,,"), "a personal row has empty share cells")
        let (_, history) = try await InterchangeLedgerTests.makeLedger()
        #expect(CSVExporter.export(history) == lines.joined(separator: "\n") + "\n", "no filter exports what the unfiltered export does")
    }

    @Test("section 9: --from and --to bound the business dates (inclusive); --wallet and --category select any of the named ones, by name or id; filters never change the header")
    func dateWalletAndCategoryFilters() async throws {
        let all = try await Self.lines(CSVExporter.Filter())
        let january = try await Self.lines(CSVExporter.Filter(from: try LocalDate(iso: "2026-01-05"), through: try LocalDate(iso: "2026-01-31")))
        #expect(january[0] == all[0])
        #expect(january.count > 3)
        #expect(january.dropFirst().allSatisfy { $0.hasPrefix("2026-01-") })
        #expect(january.dropFirst().count == all.dropFirst().filter { $0.hasPrefix("2026-01-") }.count, "both ends are inclusive")
        let bobCash = try await Self.lines(CSVExporter.Filter(wallets: ["bob CASH"]))
        #expect(bobCash[0] == all[0])
        #expect(!bobCash.dropFirst().isEmpty && bobCash.dropFirst().allSatisfy { $0.contains(",Bob cash,CHF,") })
        let byID = try await Self.lines(CSVExporter.Filter(wallets: ["00000003-0000-4000-8000-000000000003", "Alice EUR card"]))
        #expect(byID.dropFirst().count == all.filter { $0.contains(",Bob cash,") || $0.contains(",Alice EUR card,") }.count)
        let groceries = try await Self.lines(CSVExporter.Filter(from: try LocalDate(iso: "2026-02-01"), categories: ["Groceries"]))
        #expect(!groceries.dropFirst().isEmpty && groceries.dropFirst().allSatisfy { $0.hasPrefix("2026-02-") && $0.contains(",expense,Groceries,") })
    }

    @Test("G7: an export for one person holds their personal transactions and the shared ones they paid or share in, never another person's personal ones")
    func personSeesOnlyOwnData() async throws {
        let all = try await Self.lines(CSVExporter.Filter())
        let bob = try await Self.lines(CSVExporter.Filter(person: "Bob"))
        #expect(bob[0] == all[0])
        #expect(!bob.contains { $0.contains("Lunch in Freiburg") || $0.contains("Parking in Konstanz") }, "Alice's personal expenses")
        #expect(!bob.contains { $0.contains("Salary") && $0.contains(",no,Alice,") }, "Alice's personal income")
        #expect(bob.contains { $0.contains("Half-fare card top-up") }, "Bob's own personal expense")
        #expect(bob.contains { $0.contains("January rent") }, "a shared expense Alice paid and Bob shares in")
        #expect(bob.dropFirst().allSatisfy { $0.contains(",yes,") || $0.contains(",no,Bob,") }, "every personal row is Bob's")
        #expect(try await Self.lines(CSVExporter.Filter(person: Self.bob)) == bob, "by id as by name")
    }

    @Test("section 9: an export filter naming nothing is a typed error that names it; --from after --to is exportRangeInvalid")
    func unknownFilterValues() async throws {
        let (_, history) = try await InterchangeLedgerTests.makeLedger()
        let cases: [(CSVExporter.Filter, String, String)] = [
            (CSVExporter.Filter(wallets: ["Piggy bank"]), "unknownWallet", "Piggy bank"),
            (CSVExporter.Filter(categories: ["Yachts"]), "unknownCategory", "Yachts"),
            (CSVExporter.Filter(person: "Mallory"), "unknownPerson", "Mallory"),
            (CSVExporter.Filter(from: try LocalDate(iso: "2026-02-01"), through: try LocalDate(iso: "2026-01-01")), "exportRangeInvalid", "2026-02-01"),
        ]
        for (filter, code, named) in cases {
            #expect { try CSVExporter.export(history, filter: filter) } throws: { error in
                guard let error = error as? InterchangeError else { return false }
                return error.code == code && error.message.contains(named)
            }
        }
    }
}
