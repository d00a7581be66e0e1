import Tally
import Testing

/// Executes `command`, expecting a rejection with `code` and `rule`, and that nothing was appended.
func expectRejection(
    _ ledger: Ledger, _ commands: [Command], code: String, rule: String,
    sourceLocation: SourceLocation = #_sourceLocation
) async {
    let before = await ledger.lastSequenceNumber
    do {
        try await ledger.execute(commands)
        Issue.record("expected \(code) [\(rule)], but the command was accepted", sourceLocation: sourceLocation)
    } catch {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        #expect(error.rule == rule, "\(error)", sourceLocation: sourceLocation)
        #expect(!error.message.isEmpty, sourceLocation: sourceLocation)
    }
    let after = await ledger.lastSequenceNumber
    #expect(after == before, "a rejected command appended events", sourceLocation: sourceLocation)
}

func expectRejection(
    _ ledger: Ledger, _ command: Command, code: String, rule: String,
    sourceLocation: SourceLocation = #_sourceLocation
) async {
    await expectRejection(ledger, [command], code: code, rule: rule, sourceLocation: sourceLocation)
}
