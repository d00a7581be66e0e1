import Foundation
import Testing

/// `tally apply` reads ahead (`ApplyCommand.readAheadCommandsMax` commands per
/// `Ledger.execute(each:)`) and still reports exactly what one execute per line reported.
@Suite("tally apply read-ahead", .serialized)
struct ApplyReadAheadCLITests {
    /// More lines than two read-ahead windows (512 commands each).
    static let generatedLines = 1_200

    @Test("G6: apply of a file spanning several read-ahead windows prints the same lines and exit code as one execute per line (snapshot recorded before read-ahead)")
    func outputMatchesOneExecutePerLine() throws {
        let directory = TallyRunner.temporaryDirectory()
        let file = directory + "/commands.jsonl"
        try Self.commandFile(generatedLines: Self.generatedLines).write(toFile: file, atomically: true, encoding: .utf8)
        let ledger = directory + "/ledger"
        let result = try TallyRunner.run(["apply", "--ledger", ledger, file])
        #expect(result.status == 1, "\(result.stderr)")
        try TallyRunner.assertSnapshot(
            "exit \(result.status)\nstderr: \(result.stderr)\n" + result.stdout, named: "apply-read-ahead", replacing: ledger)
        let stats = try TallyRunner.run(["stats", "--json", ledger])
        let lastOK = try #require(result.stdout.split(separator: "\n").last { $0.contains(#""status":"ok""#) })
        let lastSequenceNumber = try #require((try TallyRunner.jsonObject(lastOK)["sequenceNumbers"] as? [Int])?.last)
        #expect(stats.stdout.contains(#""lastSequenceNumber":\#(lastSequenceNumber)"#), "every ok line is in the reopened ledger")
    }

    /// Sources/TallyCLI/Demo/household.jsonl, then `generatedLines` lines on 2026-03-01, one minute apart:
    /// a wallet is opened, the next line spends from it (it depends on the line before, across
    /// window boundaries too), and every ninth line opens a wallet under the name of one opened
    /// two lines before (rejected, W2). Line 500 of the generated ones does not parse.
    static func commandFile(generatedLines: Int) throws -> String {
        var text = try String(contentsOfFile: TallyRunner.household, encoding: .utf8)
        let alice = "00000002-0000-4000-8000-000000000001"
        let rent = "00000004-0000-4000-8000-000000000001"
        func id(_ prefix: String, _ index: Int) -> String {
            let hex = String(index, radix: 16)
            return prefix + "-0000-4000-8000-" + String(repeating: "0", count: 12 - hex.count) + hex
        }
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        for index in 0..<generatedLines {
            let envelope = #""commandID": "\#(id("0000000f", index))", "actor": "\#(alice)", "recordedAt": "2026-03-01T\#(twoDigits(index / 60)):\#(twoDigits(index % 60)):00.000Z""#
            let line: String
            if index == 500 {
                line = #"{"command": "openWallet", "#  + envelope + "}"
            } else if index % 3 == 0 || index % 9 == 2 {
                let name = index % 3 == 0 ? "Extra \(index)" : "EXTRA \(index - 2)"
                line = #"{"command": "openWallet", "# + envelope
                    + #", "walletID": "\#(id("00000010", index))", "name": "\#(name)", "kind": "cash", "openingBalance": "CHF 10.00", "openedOn": "2026-03-01"}"#
            } else {
                line = #"{"command": "recordTransaction", "# + envelope
                    + #", "transactionID": "\#(id("00000011", index))", "kind": "expense", "amount": {"minorUnits": \#(1 + index % 7), "currency": "CHF"}, "walletID": "\#(id("00000010", index - index % 3))", "categoryID": "\#(rent)", "date": "2026-03-01", "payer": "\#(alice)", "shared": false}"#
            }
            text += line + "\n"
        }
        return text
    }
}
