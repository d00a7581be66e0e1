import Foundation
import Testing

/// `tally demo` (README quick start): the example household is compiled into the binary.
@Suite("tally demo")
struct DemoCLITests {
    @Test("the demo runs from a directory that holds no repository: the household is built into tally, and the ledger it records audits clean")
    func demoRunsFromAnyDirectory() throws {
        let elsewhere = TallyRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: elsewhere) }
        let ledger = elsewhere + "/ledger"
        let result = try TallyRunner.run(["demo", "--ledger", ledger], workingDirectory: elsewhere)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Recorded 76 commands (94 events) of household "))
        #expect(result.stdout.contains("Joint account"))
        #expect(result.stdout.contains("== Audit"))
        #expect(!result.stderr.contains("cannot read"))
        let audit = try TallyRunner.run(["audit", ledger], workingDirectory: elsewhere)
        #expect(audit.status == 0, "\(audit.stdout)\(audit.stderr)")
    }

    @Test("demo --commands FILE applies that file instead of the built-in household, and names it when a line is invalid")
    func demoCommandsOptionReadsTheFile() throws {
        let scratch = TallyRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let file = scratch + "/broken.jsonl"
        try Data("{\"command\": \"payRent\"}\n".utf8).write(to: URL(fileURLWithPath: file))
        let result = try TallyRunner.run(["demo", "--ledger", scratch + "/ledger", "--commands", file], workingDirectory: scratch)
        #expect(result.status != 0)
        #expect(result.stderr.contains("\(file): line 1:"), "\(result.stderr)")
    }
}
