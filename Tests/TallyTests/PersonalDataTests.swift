import Foundation
import SystemPackage
@testable import Tally
import TallyJournal
import TallyModel
import TallyTestSupport
import Testing

/// Personal texts sealed per person and forgetting a person (P1-P4, `Docs/Security.md`).
@Suite("Personal data")
struct PersonalDataTests {
    static let aliceName = "Alice Zebrafinch"
    static let bobName = "Bob Quokkason"
    static let bobNote = "Quokka birthday cake"
    static let aliceNote = "Zebrafinch seeds"

    /// Alice and Bob, a shared expense noted by Bob and a personal one noted by Alice.
    struct Household {
        var scenario = Scenario()
        var commands: [Command] = []
        let bobExpense: TransactionID
        let aliceExpense: TransactionID

        init() {
            bobExpense = scenario.ids.next()
            aliceExpense = scenario.ids.next()
            let s = scenario
            commands = [
                scenario.command(.createHousehold(householdID: s.household, name: "Muster", baseCurrency: .chf, adminName: PersonalDataTests.aliceName)),
                scenario.command(.addMember(personID: s.bob, name: PersonalDataTests.bobName)),
                scenario.command(.openWallet(walletID: s.joint, name: "Joint", kind: .bank, openingBalance: Scenario.chf(100_000),
                                             openedOn: Scenario.date("2026-01-01"), owner: nil)),
            ]
            var shared = scenario.expense(6_000, shared: true, payer: s.bob)
            shared.note = PersonalDataTests.bobNote
            commands.append(scenario.command(.recordTransaction(transactionID: bobExpense, entry: shared), by: s.bob))
            var personal = scenario.expense(2_500)
            personal.note = PersonalDataTests.aliceNote
            commands.append(scenario.command(.recordTransaction(transactionID: aliceExpense, entry: personal)))
        }

        mutating func removeAndForgetBob() -> [Command] {
            [scenario.command(.removeMember(personID: scenario.bob, acknowledgeUnsettled: true)),
             scenario.command(.forgetPerson(personID: scenario.bob))]
        }
    }

    static func open(_ fileSystem: FaultInjectingFileSystem, _ path: FilePath = "/ledger", checkpointEvery: Int = 3) async throws -> Ledger {
        var options = LedgerOptions(durability: .synchronous)
        options.fileSystem = fileSystem
        options.checkpointIntervalEvents = checkpointEvery
        return try await Ledger.open(at: path, options: options)
    }

    static func note(_ ledger: Ledger, _ id: TransactionID) async -> PersonalText? {
        await ledger.state.transactions[id]?.details.note
    }

    /// Every byte the ledger directory holds, journal payloads decompressed.
    static func storedBytes(_ fileSystem: FaultInjectingFileSystem, _ path: FilePath = "/ledger") throws -> [[UInt8]] {
        let records = try JournalReader.open(at: path.appending(LedgerDirectory.journalName), fileSystem: fileSystem).records()
        var files = records.map { Array($0.payload) }
        for name in (try? fileSystem.contentsOfDirectory(at: path)) ?? [] {
            if let bytes = fileSystem.contents(of: path.appending(name)) { files.append(bytes) }
        }
        return files
    }

    /// Puts a file back as it was (created again if it was removed).
    static func restore(_ fileSystem: FaultInjectingFileSystem, _ path: FilePath, _ bytes: [UInt8]) throws {
        if fileSystem.contents(of: path) == nil { _ = try fileSystem.createFile(at: path) }
        fileSystem.setContents(of: path, to: bytes)
    }

    static func contains(_ files: [[UInt8]], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        return files.contains { bytes in
            bytes.count >= needle.count && (0...(bytes.count - needle.count)).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
        }
    }

    @Test("P1: names and notes are sealed in the journal, readable through the engine")
    func personalTextsAreSealed() async throws {
        let fileSystem = FaultInjectingFileSystem()
        var household = Household()
        let ledger = try await Self.open(fileSystem)
        for command in household.commands { try await ledger.execute(command) }
        #expect(await ledger.state.people[household.scenario.bob]?.name.text == Self.bobName)
        #expect(await Self.note(ledger, household.bobExpense) == PersonalText(Self.bobNote, owner: household.scenario.bob))
        #expect(await Self.note(ledger, household.aliceExpense)?.owner == household.scenario.alice, "a note belongs to its author")
        let events = try await ledger.events()
        #expect(events.contains { event in
            if case .memberAdded(let added) = event.event.payload { added.name.text == Self.bobName } else { false }
        })
        try await ledger.close()
        let records = try JournalReader.open(at: LedgerDirectory("/ledger").journal, fileSystem: fileSystem).records().map { Array($0.payload) }
        for text in [Self.aliceName, Self.bobName, Self.bobNote, Self.aliceNote] {
            #expect(!Self.contains(records, text), "\(text) is in clear in a journal record")
        }
        _ = household.removeAndForgetBob()
    }

    @Test("P2: a person's key is durable before the append that uses it is acknowledged")
    func keyIsDurableBeforeAcknowledgement() async throws {
        let fileSystem = FaultInjectingFileSystem(seed: 7)
        let household = Household()
        let ledger = try await Self.open(fileSystem)
        for command in household.commands { try await ledger.execute(command) }
        fileSystem.crash(.dropUnsynced)
        let reopened = try await Self.open(fileSystem)
        #expect(reopened.openReport.unreadablePersonalTexts == 0)
        #expect(await reopened.state.people[household.scenario.bob]?.name.text == Self.bobName)
        #expect(await Self.note(reopened, household.bobExpense)?.text == Self.bobNote)
        try await reopened.close()
    }

    @Test("P3, P4: forgetting Bob redacts his name and notes everywhere; amounts, balances and Alice's texts stay")
    func forgettingRedactsEverywhere() async throws {
        let fileSystem = FaultInjectingFileSystem()
        var household = Household()
        let bob = household.scenario.bob
        let ledger = try await Self.open(fileSystem)
        for command in household.commands { try await ledger.execute(command) }
        let before = try await ledger.readModels.canonicalJSON().text
        let walletsBefore = await ledger.state.wallets
        try await ledger.execute(household.removeAndForgetBob())

        #expect(await ledger.state.people[bob]?.name == .redacted(owner: bob))
        #expect(await ledger.state.people[bob]?.isForgotten == true)
        #expect(await Self.note(ledger, household.bobExpense) == .redacted(owner: bob))
        #expect(await Self.note(ledger, household.aliceExpense)?.text == Self.aliceNote)
        #expect(await ledger.state.people[household.scenario.alice]?.name.text == Self.aliceName)
        #expect(try await ledger.readModels.canonicalJSON().text == before, "P4: the read models do not change")
        #expect(await ledger.state.wallets == walletsBefore)
        let live = try await ledger.readModels.canonicalJSON().text
        let liveState = await ledger.state
        try await ledger.close()

        let stored = try Self.storedBytes(fileSystem)
        #expect(!Self.contains(stored, Self.bobName) && !Self.contains(stored, Self.bobNote), "no readable copy of Bob's texts is left")

        let reopened = try await Self.open(fileSystem)
        #expect(reopened.openReport.forgettingCompleted.isEmpty)
        #expect(await reopened.state == liveState, "replay == live after forgetting")
        #expect(try await reopened.readModels.canonicalJSON().text == live)
        try await reopened.close()
        let replayed = try LedgerReplay.replay(at: "/ledger", fileSystem: fileSystem)
        #expect(replayed.state == liveState)
        #expect(replayed.unreadablePersonalTexts == 0, "texts of a forgotten person are redacted, not unreadable")
        #expect(try LedgerAudit.audit(at: "/ledger", fileSystem: fileSystem).isClean)
    }

    @Test("P3: only the admin forgets, only removed members and contacts, once; the id is never reused; not undoable")
    func forgettingRules() async throws {
        let test = try await TestLedger.make("forget-rules")
        defer { test.directory.remove() }
        var household = Household()
        let s = household.scenario
        for command in household.commands { try await test.ledger.execute(command) }
        await expectRejection(test.ledger, household.scenario.command(.forgetPerson(personID: s.bob)), code: "forgetActiveMember", rule: "P3")
        await expectRejection(test.ledger, household.scenario.command(.forgetPerson(personID: s.alice)), code: "adminCannotLeave", rule: "H5")
        await expectRejection(test.ledger, household.scenario.command(.forgetPerson(personID: household.scenario.ids.next())), code: "unknownPerson", rule: "H3")
        let carla: PersonID = household.scenario.ids.next()
        try await test.ledger.execute(household.scenario.command(.addMember(personID: carla, name: "Carla")))
        await expectRejection(test.ledger, household.scenario.command(.forgetPerson(personID: carla), by: carla), code: "adminOnly", rule: "H5")
        let forget = household.removeAndForgetBob()
        try await test.ledger.execute(forget)
        await expectRejection(test.ledger, household.scenario.command(.forgetPerson(personID: s.bob)), code: "personForgotten", rule: "P3")
        await expectRejection(test.ledger, household.scenario.command(.addPerson(personID: s.bob, name: "Bob again")), code: "personForgotten", rule: "P3")
        await expectRejection(test.ledger, household.scenario.command(.undo(targetCommandID: forget[1].commandID)), code: "notUndoable", rule: "T5")
        try await test.ledger.close()
    }

    @Test("P3: a crash between PersonForgotten and destroying the key is finished by the next open")
    func interruptedForgettingIsFinishedAtOpen() async throws {
        let fileSystem = FaultInjectingFileSystem()
        var household = Household()
        let bob = household.scenario.bob
        let ledger = try await Self.open(fileSystem)
        for command in household.commands { try await ledger.execute(command) }
        try await ledger.checkpoint()
        // The state a crash right after the append leaves: the old key file. (On this injected
        // file system there is no store, so no checkpoint: the one in a store is covered by
        // CheckpointArchiveTests.)
        let keyFile: FilePath = LedgerDirectory("/ledger").personalKeys
        let oldKeys = try #require(fileSystem.contents(of: keyFile))
        try await ledger.execute(household.removeAndForgetBob())
        try await ledger.close()
        try Self.restore(fileSystem, keyFile, oldKeys)

        let reopened = try await Self.open(fileSystem)
        #expect(reopened.openReport.forgettingCompleted == [bob])
        #expect(await reopened.state.people[bob]?.name == .redacted(owner: bob))
        #expect(await Self.note(reopened, household.bobExpense) == .redacted(owner: bob))
        try await reopened.close()
        let stored = try Self.storedBytes(fileSystem)
        #expect(!Self.contains(stored, Self.bobName) && !Self.contains(stored, Self.bobNote))
        #expect(try LedgerAudit.audit(at: "/ledger", fileSystem: fileSystem).isClean)
    }

    @Test("P3: when destroying the key fails, nothing readable is checkpointed and the next call or open finishes the forgetting")
    func failedForgettingIsRetried() async throws {
        let fileSystem = FaultInjectingFileSystem(seed: 3)
        var household = Household()
        let bob = household.scenario.bob
        let ledger = try await Self.open(fileSystem, checkpointEvery: 1)
        for command in household.commands { try await ledger.execute(command) }
        let forget = household.removeAndForgetBob()
        try await ledger.execute(forget[0])
        try await ledger.execute(household.scenario.command(.recordTransaction(transactionID: household.scenario.ids.next(), entry: household.scenario.expense(100))))
        await ledger.checkpointWritten()  // in the background, off the actor
        // The append succeeds, the key file write fails (aimed at the key file, so a background
        // write in between cannot take the fault).
        fileSystem.failNextWrite(toPathContaining: LedgerDirectory.personalKeysName, with: .ioError)
        try await ledger.execute(forget[1])
        #expect(await ledger.unfinishedForgetting == [bob])
        #expect(await ledger.state.people[bob]?.isForgotten == true)
        // The retry before the next command fails too; the command still commits, but its
        // interval checkpoint is not written while the state holds Bob's texts.
        fileSystem.failNextWrite(toPathContaining: LedgerDirectory.personalKeysName, with: .ioError)
        try await ledger.execute(household.scenario.command(.recordTransaction(transactionID: household.scenario.ids.next(), entry: household.scenario.expense(200))))
        #expect(await ledger.unfinishedForgetting == [bob])
        await ledger.checkpointWritten()
        #expect(await ledger.checkpointJob() == nil, "no checkpoint is written while the live state still holds Bob's texts")
        try await ledger.checkpoint()  // retries: the key goes, the state is rebuilt, then the checkpoint
        #expect(await ledger.unfinishedForgetting.isEmpty)
        #expect(await Self.note(ledger, household.bobExpense) == .redacted(owner: bob))
        try await ledger.close()
        let stored = try Self.storedBytes(fileSystem)
        #expect(!Self.contains(stored, Self.bobName) && !Self.contains(stored, Self.bobNote))

        // The same failure, then a power loss before any retry: the next open finishes it.
        let fileSystem2 = FaultInjectingFileSystem(seed: 4)
        var household2 = Household()
        let ledger2 = try await Self.open(fileSystem2)
        for command in household2.commands { try await ledger2.execute(command) }
        let forget2 = household2.removeAndForgetBob()
        try await ledger2.execute(forget2[0])
        await ledger2.checkpointWritten()
        fileSystem2.failNextWrite(toPathContaining: LedgerDirectory.personalKeysName, with: .ioError)
        try await ledger2.execute(forget2[1])
        #expect(await ledger2.unfinishedForgetting == [bob])
        fileSystem2.crash(.dropUnsynced)
        let reopened = try await Self.open(fileSystem2)
        #expect(reopened.openReport.forgettingCompleted == [bob])
        #expect(await Self.note(reopened, household2.bobExpense) == .redacted(owner: bob))
        try await reopened.close()
        let stored2 = try Self.storedBytes(fileSystem2)
        #expect(!Self.contains(stored2, Self.bobName) && !Self.contains(stored2, Self.bobNote))
    }

    @Test("P2, issue 32: a missing or damaged key file is a typed error; opening anyway reads the texts as sealed (kept, not redacted) and says so")
    func missingKeysAreNotHidden() async throws {
        let fileSystem = FaultInjectingFileSystem()
        let household = Household()
        let ledger = try await Self.open(fileSystem)
        for command in household.commands { try await ledger.execute(command) }
        try await ledger.close()
        let keyFile: FilePath = LedgerDirectory("/ledger").personalKeys
        var damaged = try #require(fileSystem.contents(of: keyFile))
        damaged[damaged.count / 2] ^= 0x40
        fileSystem.setContents(of: keyFile, to: damaged)
        await #expect { try await Self.open(fileSystem) } throws: { error in
            (error as? LedgerError)?.code == "personalKeys" && "\(error)".contains("damaged")
        }
        try fileSystem.removeFile(at: keyFile)
        await #expect { try await Self.open(fileSystem) } throws: { error in
            (error as? LedgerError)?.code == "personalKeys" && "\(error)".contains("missing")
        }
        var options = LedgerOptions(durability: .none)
        options.fileSystem = fileSystem
        options.opensWithUnreadablePersonalTexts = true
        let reopened = try await Ledger.open(at: "/ledger", options: options)
        #expect(reopened.openReport.unreadablePersonalTexts > 0)
        let bobsName = await reopened.state.people[household.scenario.bob]?.name
        #expect(bobsName?.isSealed == true && bobsName?.isRedacted == false && bobsName?.description == PersonalText.sealedMarker)
        // Read-only: a new text of Bob's would get a new key and the restored file would lose it.
        var s = household.scenario
        await #expect { try await reopened.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(100)))) } throws: { error in
            (error as? LedgerError)?.code == "personalKeys"
        }
        try await reopened.close()
        let audit = try LedgerAudit.audit(at: "/ledger", fileSystem: fileSystem)
        #expect(audit.problems.contains { $0.code == "personalTextUnreadable" && $0.rule == "P2" })
    }

    @Test("P1: an edit that keeps a note keeps its author; a changed note belongs to the editor")
    func editKeepsTheNotesAuthor() async throws {
        let test = try await TestLedger.make("forget-edit")
        defer { test.directory.remove() }
        var household = Household()
        for command in household.commands { try await test.ledger.execute(command) }
        var entry = household.scenario.expense(7_000)
        entry.note = Self.aliceNote
        try await test.ledger.execute(household.scenario.command(.editTransaction(transactionID: household.aliceExpense, entry: entry), by: household.scenario.bob))
        #expect(await Self.note(test.ledger, household.aliceExpense)?.owner == household.scenario.alice)
        entry.note = "Bob's correction"
        try await test.ledger.execute(household.scenario.command(.editTransaction(transactionID: household.aliceExpense, entry: entry), by: household.scenario.bob))
        #expect(await Self.note(test.ledger, household.aliceExpense) == PersonalText("Bob's correction", owner: household.scenario.bob))
        try await test.ledger.close()
    }

    @Test("P2: with encryption at rest each record of the key file is sealed with the ledger's key: no key and no person id in clear")
    func keyFileIsSealedWhenEncrypted() async throws {
        let fileSystem = FaultInjectingFileSystem()
        var options = LedgerOptions(durability: .none)
        options.fileSystem = fileSystem
        options.encryption = try JournalEncryption(keyID: 1, key: [UInt8](repeating: 9, count: 32))
        var household = Household()
        let ledger = try await Ledger.open(at: "/ledger", options: options)
        for command in household.commands { try await ledger.execute(command) }
        try await ledger.execute(household.scenario.command(.addPerson(personID: household.scenario.ids.next(), name: "Carla")))
        try await ledger.close()
        let keys = try PersonalKeyRing.load(
            ledgerDirectory: "/ledger", fileSystem: fileSystem, encryption: options.encryption, readOnly: true).snapshot.keys
        let keyFile = try #require(fileSystem.contents(of: LedgerDirectory("/ledger").personalKeys))
        #expect(keyFile.starts(with: Array("TALLYPK3".utf8)) && keyFile[8] == 1, "TALLYPK3, records sealed")
        #expect(Self.recordRanges(keyFile).count == 3, "one sealed record per write")
        #expect(keys.count == 3)
        for (person, key) in keys {
            #expect(!Self.contains(keyFile, key) && !Self.contains(keyFile, Array(key.prefix(8))), "a key in clear")
            #expect(!Self.contains(keyFile, Self.idBytes(person)), "a person id in clear")
        }
        let reopened = try await Ledger.open(at: "/ledger", options: options)
        #expect(await reopened.state.people[household.scenario.bob]?.name.text == Self.bobName)
        try await reopened.close()
    }

    @Test("P3: names and notes of older layouts (plain strings) read as redacted once their owner is forgotten")
    func legacyPlainTextsAreRedactedAfterForgetting() async throws {
        let fixture = RepositoryFiles.fixture("household-ledger")
        let directory = try TemporaryDirectory("tally-legacy-forget")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        try FileManager.default.copyItem(atPath: fixture.path, toPath: path.string)
        let alice = PersonID(UUIDValue(high: 0x0000_0002_0000_4000, low: 0x8000_0000_0000_0001))
        let bob = PersonID(UUIDValue(high: 0x0000_0002_0000_4000, low: 0x8000_0000_0000_0002))
        let ledger = try await Ledger.open(at: path, options: LedgerOptions(durability: .none))
        #expect(await ledger.state.people[bob]?.name.text == "Bob", "the fixture predates sealing: plain strings")
        let bobsNotes = await ledger.state.transactions.allEntries.values.compactMap(\.details.note).filter { $0.owner == bob }
        #expect(!bobsNotes.isEmpty && bobsNotes.allSatisfy { !$0.isRedacted })
        let now = Timestamp(millisecondsSinceEpoch: 1_772_400_000_000)
        try await ledger.execute([
            Command(commandID: CommandID(UUIDValue(high: 0xF1, low: 1)), actor: alice, recordedAt: now,
                    action: .removeMember(personID: bob, acknowledgeUnsettled: true)),
            Command(commandID: CommandID(UUIDValue(high: 0xF1, low: 2)), actor: alice, recordedAt: now, action: .forgetPerson(personID: bob)),
        ])
        #expect(await ledger.state.people[bob]?.name == .redacted(owner: bob))
        let after = await ledger.state.transactions.allEntries.values.compactMap(\.details.note).filter { $0.owner == bob }
        #expect(after.count == bobsNotes.count && after.allSatisfy(\.isRedacted))
        let live = await ledger.state
        try await ledger.close()
        #expect(try LedgerReplay.replay(at: path).state == live, "replay == live")
    }
}
