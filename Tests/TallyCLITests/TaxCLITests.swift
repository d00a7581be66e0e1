import Foundation
import Testing

/// Swiss tax categorization and Phase 5 business: `setCategoryTaxClass` through `tally apply`,
/// the year's sums per class by `tally tax`.
@Suite("CLI: tax report")
struct TaxCLITests {
    @Test("Future Swiss tax categorization, Phase 5 business, G2: setCategoryTaxClass through apply; tax --year lists the class with its category and sums, --json the same; a year outside 1...9999 is an error")
    func taxThroughTheCLI() throws {
        let ledger = try TallyRunner.householdLedger()
        let none = try TallyRunner.run(["tax", "--year", "2026", ledger])
        #expect(none.status == 0 && none.stdout.contains("no category has a tax class"), "\(none.stderr) \(none.stdout)")
        let set = #"{"command": "setCategoryTaxClass", "commandID": "0000000c-0000-4000-8000-00000000fb01", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-03-02T09:00:00.000Z", "categoryID": "00000004-0000-4000-8000-000000000001", "taxClass": "business"}"#
        let applied = try TallyRunner.run(["apply", "--ledger", ledger, "-"], stdin: set + "\n")
        #expect(applied.status == 0 && !applied.stdout.contains("rejected"), "\(applied.stderr) \(applied.stdout)")

        let text = try TallyRunner.run(["tax", "--year", "2026", "--as", "00000002-0000-4000-8000-000000000001", ledger])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Tax report 2026 in CHF") && text.stdout.contains("business") && text.stdout.contains("Rent"), "\(text.stdout)")
        let json = try TallyRunner.run(["tax", "--json", "--year", "2026", ledger])
        #expect(json.status == 0 && json.stdout.contains(#""taxClass":"business""#) && json.stdout.contains(#""name":"Rent""#), "\(json.stdout)")
        #expect(!json.stdout.contains(#""expense":{"currency":"CHF","minorUnits":0}"#), "Rent's transactions of 2026 count: \(json.stdout)")
        let earlier = try TallyRunner.run(["tax", "--json", "--year", "2025", ledger])
        #expect(earlier.stdout.contains(#""count":0"#), "\(earlier.stdout)")
        let bad = try TallyRunner.run(["tax", "--year", "0", ledger])
        #expect(bad.status != 0 && bad.stderr.contains("year 0"), "\(bad.stderr)")
    }
}
