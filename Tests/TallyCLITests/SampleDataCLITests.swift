import Foundation
import Testing

/// `tally demo --sample` and `tally sample load|show|clear` (Drishti E5-S6, T5).
@Suite("tally sample")
struct SampleDataCLITests {
    @Test("E5-S6, T5: demo --sample loads the built-in sample flagged; sample show lists it; sample clear takes it back and leaves the demo household's balances")
    func demoSampleShowAndClear() throws {
        let scratch = TallyRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let plain = scratch + "/plain"
        let withSample = scratch + "/sample"
        #expect(try TallyRunner.run(["demo", "--ledger", plain]).status == 0)
        let demo = try TallyRunner.run(["demo", "--ledger", withSample, "--sample"])
        #expect(demo.status == 0, "\(demo.stderr)")
        #expect(demo.stdout.contains("then 4 sample commands flagged as sample"), "\(demo.stdout)")
        #expect(demo.stdout.contains("Sample cash"))
        let shown = try TallyRunner.run(["sample", "show", withSample, "--json"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("\"wallets\":[\"00000003-0000-4000-8000-0000000005a1\"]"), "\(shown.stdout)")
        #expect(shown.stdout.contains("\"transactions\":[\"00000005-0000-4000-8000-0000000005a1\",\"00000005-0000-4000-8000-0000000005a2\"]"), "\(shown.stdout)")
        let again = try TallyRunner.run(["sample", "load", withSample])
        // The built-in sample's ids are fixed: it loads once per ledger.
        #expect(again.status == 2 && again.stderr.contains("duplicateCommandID"), "\(again.stderr)")
        let clear = try TallyRunner.run(["sample", "clear", withSample, "--recorded-at", "2026-03-02T09:00:00Z"])
        #expect(clear.status == 0, "\(clear.stderr)")
        #expect(try TallyRunner.run(["sample", "show", withSample, "--json"]).stdout.hasPrefix("null"))
        let balances = { (path: String) throws -> [String] in
            try TallyRunner.run(["balances", path]).stdout.split(separator: "\n").map(String.init).filter { !$0.contains("Sample cash") }
        }
        #expect(try balances(withSample) == balances(plain))
        #expect(try TallyRunner.run(["audit", withSample]).status == 0)
    }

    @Test("E5-S6, T5: sample clear is refused, exit 2 naming the blocking event, while a real transaction is in the sample wallet; nothing is appended")
    func clearRefusedWhileRealDataDependsOnTheSample() throws {
        let scratch = TallyRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let ledger = scratch + "/ledger"
        #expect(try TallyRunner.run(["demo", "--ledger", ledger, "--sample"]).status == 0)
        let real = scratch + "/real.jsonl"
        let line = #"{"command": "recordTransaction", "commandID": "0000000c-0000-4000-8000-0000000006a1", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-03-01T10:00:00.000Z", "transactionID": "00000005-0000-4000-8000-0000000006a1", "kind": "expense", "amount": "CHF 9.00", "walletID": "00000003-0000-4000-8000-0000000005a1", "categoryID": "1888ea90-fe65-8eb9-b79a-cbe2cfa8e97e", "date": "2026-03-01", "payer": "00000002-0000-4000-8000-000000000001"}"#
        try Data((line + "\n").utf8).write(to: URL(fileURLWithPath: real))
        #expect(try TallyRunner.run(["apply", "--ledger", ledger, real]).status == 0)
        let before = try TallyRunner.run(["stats", ledger]).stdout
        let clear = try TallyRunner.run(["sample", "clear", ledger, "--recorded-at", "2026-03-02T09:00:00Z"])
        #expect(clear.status == 2)
        #expect(clear.stderr.contains("undoBlocked") && clear.stderr.contains("0000000c-0000-4000-8000-0000000006a1"), "\(clear.stderr)")
        #expect(try TallyRunner.run(["stats", ledger]).stdout == before)
    }
}
