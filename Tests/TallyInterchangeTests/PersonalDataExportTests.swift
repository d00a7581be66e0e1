import Foundation
import SystemPackage
import Tally
@testable import TallyInterchange
import TallyModel
import Testing

/// One person's data as JSON (TECH-009): everything they can see, nothing of others'
/// personal entries (G7), other people by id only; after forgetting, texts are redacted (P3).
@Suite("Personal data export", .serialized)
struct PersonalDataExportTests {
    static let alice = PersonID(UUIDValue(high: 0x0000_0002_0000_4000, low: 0x8000_0000_0000_0001))
    static let bob = PersonID(UUIDValue(high: 0x0000_0002_0000_4000, low: 0x8000_0000_0000_0002))
    static let carol = PersonID(UUIDValue(high: 0x0000_0002_0000_4000, low: 0x8000_0000_0000_0003))

    /// The transactions Bob may see, computed from the events, independently of the exporter.
    static func expectedTransactions(for person: PersonID, in history: LedgerHistory) -> Set<String> {
        Set(history.state.transactions.allEntries.filter { _, record in
            let details = record.details
            if let split = details.split { return details.payer == person || split.shares.contains { $0.person == person } }
            return details.payer == person
        }.keys.map(\.description))
    }

    @Test("P5, G7, TECH-009: Bob's export holds his entries and the shared ones he is part of, never Alice's personal entries or wallets")
    func exportHoldsOnlyWhatThePersonCanSee() async throws {
        let (_, history) = try await InterchangeLedgerTests.makeLedger()
        let export = try PersonalDataExport.make(for: Self.bob, from: history)
        #expect(export.person.name == "Bob" && export.person.role == "member")
        #expect(Set(export.transactions.map(\.id)) == Self.expectedTransactions(for: Self.bob, in: history))
        let alicesPersonal = history.state.transactions.allEntries.filter { $0.value.details.split == nil && $0.value.details.payer == Self.alice }
        #expect(!alicesPersonal.isEmpty, "the example has personal entries of Alice to leave out")
        #expect(alicesPersonal.keys.allSatisfy { id in !export.transactions.contains { $0.id == id.description } })
        #expect(!export.wallets.contains { $0.owner == Self.alice.description }, "wallets owned by Alice stay out (G7)")
        #expect(export.wallets.contains { $0.name == "Bob cash" } && export.wallets.contains { $0.name == "Joint account" })
        #expect(export.household?.otherPeople == [Self.alice, Self.carol].map(\.description).sorted())
        #expect(export.groups.map(\.name) == ["Ski weekend"])
        #expect(!export.debts.isEmpty)
        let text = String(decoding: try export.encoded(), as: UTF8.self)
        for name in ["\"Alice\"", "\"Carol\"", "Alice savings", "Alice EUR card"] {
            #expect(!text.contains(name), "\(name) must not be in Bob's export (other people by id only)")
        }
        #expect(text.contains("\"format\" : \"tally.personalData\""))
        #expect(throws: InterchangeError.self) { try PersonalDataExport.make(for: PersonID(UUIDValue(high: 1, low: 1)), from: history) }
    }

    @Test("P3, P5, TECH-009: after Bob is forgotten his export keeps the amounts but his name and notes are redacted")
    func exportAfterForgetting() async throws {
        let (directory, before) = try await InterchangeLedgerTests.makeLedger()
        let ledger = try await Ledger.open(at: directory, options: LedgerOptions(durability: .none))
        let now = Timestamp(millisecondsSinceEpoch: 1_772_400_000_000)
        try await ledger.execute([
            Command(commandID: CommandID(UUIDValue(high: 0xF0, low: 1)), actor: Self.alice, recordedAt: now,
                    action: .removeMember(personID: Self.bob, acknowledgeUnsettled: true)),
            Command(commandID: CommandID(UUIDValue(high: 0xF0, low: 2)), actor: Self.alice, recordedAt: now, action: .forgetPerson(personID: Self.bob)),
        ])
        try await ledger.close()
        let after = try LedgerHistory.load(at: directory)
        let export = try PersonalDataExport.make(for: Self.bob, from: after)
        let earlier = try PersonalDataExport.make(for: Self.bob, from: before)
        #expect(export.person.name == nil && export.person.forgotten)
        #expect(export.transactions.map(\.amount) == earlier.transactions.map(\.amount), "P4: amounts are unchanged")
        let bobsNotes = after.state.transactions.allEntries.values.compactMap(\.details.note).filter { $0.owner == Self.bob }
        #expect(!bobsNotes.isEmpty && bobsNotes.allSatisfy(\.isRedacted))
        #expect(export.transactions.contains { $0.noteRedacted == true })
        let backup = try LedgerBackup.make(from: directory, protection: .key(BackupRestoreTests.backupKey))
        #expect(backup.forgottenPeople == [Self.bob.description])
        #expect(backup.personalKeyHolders?.contains(Self.bob.description) == false)
        let keys = try backup.openSealedKeys(try #require(backup.sealedPersonalKeys), unlock: .key(BackupRestoreTests.backupKey))
        #expect(keys[Self.bob] == nil, "no backup made after forgetting can bring Bob's texts back")
    }
}
