import Foundation
import Testing

/// Flow US-005, US-006 (H6): invitations through `tally apply`, listed by `tally invitations`.
@Suite("CLI: invitations")
struct InvitationsCLITests {
    @Test("US-005, H6, G7: inviteMember through apply; invitations --at lists it pending with its e-mail for the admin, without it for Bob, to the invitee by --as; after 7 days it is gone, --all shows it expired")
    func invitationsThroughTheCLI() throws {
        let ledger = try TallyRunner.householdLedger()
        let invite = #"{"command": "inviteMember", "commandID": "0000000c-0000-4000-8000-00000000fa01", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-03-02T09:00:00.000Z", "invitationID": "00000015-0000-4000-8000-000000000001", "personID": "00000002-0000-4000-8000-000000000009", "name": "Dana", "email": "dana@example.ch"}"#
        let applied = try TallyRunner.run(["apply", "--ledger", ledger, "-"], stdin: invite + "\n")
        #expect(applied.status == 0 && !applied.stdout.contains("rejected"), "\(applied.stderr) \(applied.stdout)")

        let alice = try TallyRunner.run(["invitations", "--at", "2026-03-05T00:00:00Z", "--as", "00000002-0000-4000-8000-000000000001", ledger])
        #expect(alice.status == 0 && alice.stdout.contains("Dana") && alice.stdout.contains("dana@example.ch") && alice.stdout.contains("pending"), "\(alice.stdout) \(alice.stderr)")
        let bob = try TallyRunner.run(["invitations", "--at", "2026-03-05T00:00:00Z", "--as", "00000002-0000-4000-8000-000000000002", ledger])
        #expect(bob.status == 0 && bob.stdout.contains("Dana") && !bob.stdout.contains("dana@example.ch"), "\(bob.stdout) \(bob.stderr)")
        let dana = try TallyRunner.run(["invitations", "--json", "--at", "2026-03-05T00:00:00Z", "--as", "Dana", ledger])
        #expect(dana.status == 0 && dana.stdout.contains("\"email\":\"dana@example.ch\"") && dana.stdout.contains("\"expiresAt\":\"2026-03-09T09:00:00.000Z\""), "\(dana.stdout) \(dana.stderr)")
        let later = try TallyRunner.run(["invitations", "--at", "2026-03-09T09:00:00Z", ledger])
        #expect(later.status == 0 && later.stdout.contains("no invitations"), "\(later.stdout) \(later.stderr)")
        let all = try TallyRunner.run(["invitations", "--all", "--at", "2026-03-09T09:00:00Z", ledger])
        #expect(all.status == 0 && all.stdout.contains("expired"), "\(all.stdout) \(all.stderr)")
        let bad = try TallyRunner.run(["invitations", "--at", "tomorrow", ledger])
        #expect(bad.status != 0 && bad.stderr.contains("--at tomorrow"), "\(bad.stdout) \(bad.stderr)")
    }
}
