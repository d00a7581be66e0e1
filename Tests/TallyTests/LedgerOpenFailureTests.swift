import Foundation
import SystemPackage
import Tally
import TallyJournal
import TallyModel
import TallyTestSupport
import Testing

/// `Ledger.open` on a ledger another writer holds, and on a journal holding a record that does
/// not decode: typed errors, never a trap or a second writer.
@Suite("Ledger open failures")
struct LedgerOpenFailureTests {
    @Test("journal guarantee: Ledger.open on a ledger another Ledger holds open is storage(journalLocked); it opens once the first closes")
    func secondLedgerIsLocked() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("locked")
        try await test.ledger.execute(s.setup())
        do {
            let second = try await test.reopen()
            try await second.close()
            Issue.record("a second writer opened the ledger")
        } catch {
            guard let error = error as? LedgerError, case .storage(.journalLocked(_)) = error else {
                Issue.record("expected journalLocked, got \(error)")
                return
            }
            #expect(error.code == "journalLocked" && error.rule == nil)
        }
        try await test.ledger.execute(s.command(.addPerson(personID: s.ids.next(), name: "Carol")))
        let last = await test.ledger.lastSequenceNumber
        try await test.ledger.close()
        let reopened = try await test.reopen()
        #expect(await reopened.lastSequenceNumber == last)
        try await reopened.close()
    }

    @Test("G4: a stored record that does not decode fails Ledger.open with LedgerError.codec naming its sequence number; the audit reports eventUndecodable there")
    func undecodableRecordIsCodecError() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("codec")
        try await test.ledger.execute(s.setup())
        try await test.ledger.close()
        let journal = try Journal.open(at: test.directory.appending("ledger").appending(LedgerDirectory.journalName))
        let receipt = try await journal.append([NewRecord(recordedAtMilliseconds: 1_780_000_000_000, typeTag: 999, schemaVersion: 1, payload: [1, 2, 3])])
        try journal.close()
        do {
            let ledger = try await test.reopen()
            try await ledger.close()
            Issue.record("a ledger with an undecodable record opened")
        } catch {
            let error = try #require(error as? LedgerError)
            #expect(error == .codec(.unknownTag(999), sequenceNumber: receipt.firstSequenceNumber), "\(error)")
            #expect(error.code == "unknownTag" && error.message.contains("record \(receipt.firstSequenceNumber) cannot be decoded"))
        }
        let audit = try LedgerAudit.audit(at: test.directory.appending("ledger"))
        #expect(audit.problems.map(\.code) == ["eventUndecodable"])
        #expect(audit.problems.first?.location?.sequenceNumber == receipt.firstSequenceNumber)
    }
}
