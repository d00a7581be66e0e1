import Foundation
import Tally
import TallyInterchange

// Sources/Tally/Tally.docc/Embedding.md, "Personal data: one person's export, forgetting a person": the guide's block verbatim (EmbeddingGuideTests
// checks it), compiled here and in Examples/External, against the public API with its own imports.
extension GuideBlocks {
    public static func exportThenForget(ledger: Ledger, admin: PersonID, bob: PersonID, removeID: CommandID, forgetID: CommandID, now: Timestamp) async throws -> (export: Data, payer: String?, unfinished: Set<PersonID>) {
        // One person's data (TECH-009): everything they can see, as JSON (Docs/Interchange.md).
        let history = try LedgerHistory.load(at: ledger.directory)
        let export: Data = try PersonalDataExport.make(for: bob, from: history).encoded()

        // Forget them (P3): a removed member or a contact; admin only; once; not undoable.
        try await ledger.execute([
            Command(commandID: removeID, actor: admin, recordedAt: now,
                    action: .removeMember(personID: bob, acknowledgeUnsettled: true)),
            Command(commandID: forgetID, actor: admin, recordedAt: now, action: .forgetPerson(personID: bob)),
        ])
        var paidByBob = TransactionQuery(visibleTo: .audit)  // the admin's audit read: every member's entries
        paidByBob.payers = [bob]
        let payer = try await ledger.transactions(paidByBob).rows.first?.payerName  // "[redacted]"
        let unfinished = await ledger.unfinishedForgetting  // not empty only after an I/O failure
        return (export, payer, unfinished)
    }
}
