import Foundation
import Testing

/// The sign rule of Docs/CLI.md ("Signs"): text shows a liability's (card, loan: W1) balance as
/// a card statement does, unsigned with `owed` or `in credit`; JSON keeps signed minor units.
@Suite("tally liability balances", .serialized)
struct LiabilityBalanceCLITests {
    /// An expense of EUR 20.00 on Alice's EUR card, which the household leaves EUR 9.75 in credit.
    static let cardExpense = #"{"command": "recordTransaction", "commandID": "0000000c-0000-4000-8000-0000000000f1", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-02-28T09:00:00.000Z", "transactionID": "00000005-0000-4000-8000-0000000000f1", "kind": "expense", "amount": {"minorUnits": 2000, "currency": "EUR"}, "walletID": "00000003-0000-4000-8000-000000000004", "categoryID": "e820deb0-3bd0-843b-94de-bfc0828c78b0", "date": "2026-02-28", "note": "Fuel", "payer": "00000002-0000-4000-8000-000000000001"}"#

    static func cardLine(_ ledger: String) throws -> String {
        let result = try TallyRunner.run(["balances", ledger])
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("Alice EUR card") }).description
    }

    static func cardMinorUnits(_ ledger: String) throws -> Int {
        let object = try TallyRunner.jsonObject(Substring(try TallyRunner.run(["balances", "--json", ledger]).stdout))
        let wallets = try #require(object["wallets"] as? [[String: Any]])
        let card = try #require(wallets.first { $0["name"] as? String == "Alice EUR card" })
        return try #require((card["balance"] as? [String: Any])?["minorUnits"] as? Int)
    }

    @Test("W1, sign rule: a card's balance reads unsigned with 'in credit' when more was paid in than owed and with 'owed' after purchases exceed it, in balances and in its statement; JSON keeps the signed amount owed")
    func liabilityBalanceReadsAsOnACardStatement() throws {
        let ledger = try TallyRunner.householdLedger()

        let inCredit = try Self.cardLine(ledger)
        #expect(inCredit.contains("EUR 9.75") && inCredit.hasSuffix("in credit"), "\(inCredit)")
        #expect(!inCredit.contains("-EUR"), "\(inCredit)")
        #expect(try Self.cardMinorUnits(ledger) == -975)

        let applied = try TallyRunner.run(["apply", "--ledger", ledger, "-"], stdin: Self.cardExpense + "\n")
        #expect(applied.status == 0, "\(applied.stdout)\(applied.stderr)")

        let owed = try Self.cardLine(ledger)
        #expect(owed.contains("EUR 10.25") && owed.hasSuffix("owed"), "\(owed)")
        #expect(!owed.contains("-EUR"), "\(owed)")
        #expect(try Self.cardMinorUnits(ledger) == 1025)

        let statement = try TallyRunner.run(["statement", "--wallet", "Alice EUR card", "--ledger", ledger])
        #expect(statement.status == 0, "\(statement.stderr)")
        let rows = statement.stdout.split(separator: "\n").dropFirst(2)
        let newest = try #require(rows.first).description
        #expect(newest.contains("Fuel") && newest.contains("EUR 20.00") && newest.contains("EUR 10.25") && newest.hasSuffix("owed"), "\(newest)")
        let before = try #require(rows.dropFirst().first).description
        #expect(before.contains("EUR 9.75") && before.hasSuffix("in credit") && !before.contains("-EUR 9.75"), "\(before)")
    }

    @Test("W1, sign rule: an asset's balance keeps its sign and gets no owed/in credit column")
    func assetBalanceKeepsItsSign() throws {
        let ledger = try TallyRunner.householdLedger()
        let result = try TallyRunner.run(["balances", ledger])
        let joint = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("Joint account") }).description
        #expect(joint.hasSuffix("CHF 14'968.55"), "\(joint)")
        let statement = try TallyRunner.run(["statement", "--wallet", "Joint account", "--limit", "1", "--ledger", ledger])
        let header = try #require(statement.stdout.split(separator: "\n").first).description
        #expect(header.hasSuffix("Balance"), "\(header)")
    }
}
