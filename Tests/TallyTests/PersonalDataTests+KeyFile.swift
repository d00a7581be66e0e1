import Foundation
import SystemPackage
@testable import Tally
import TallyJournal
import TallyModel
import TallyTestSupport
import Testing

/// The key file's layout (`PersonalKeyRing`, `TALLYPK3`): P2 (keys durable, never silently
/// missing) and P3 (forgetting destroys the key's bytes).
extension PersonalDataTests {
    static let keyFile: FilePath = LedgerDirectory("/ledger").personalKeys
    /// A record holding one key: marker 4, length 4, acknowledged through 8, count 4, person id
    /// 16, kind 1, key 32, CRC32C 4.
    static let oneKeyRecordBytes = 4 + 4 + 8 + 4 + 16 + 1 + 32 + 4

    /// The ranges of the records that check out, from the header on.
    static func recordRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var offset = PersonalKeyFile.headerBytes
        while offset < bytes.count, let body = PersonalKeyFile.checkedRecord(bytes, at: offset) {
            ranges.append(offset..<(body.upperBound + PersonalKeyFile.checksumBytes))
            offset = body.upperBound + PersonalKeyFile.checksumBytes
        }
        return ranges
    }

    static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        bytes.count >= needle.count && (0...(bytes.count - needle.count)).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    static func idBytes(_ person: PersonID) -> [UInt8] {
        var writer = BinaryWriter(reservingCapacity: 16)
        writer.write(person)
        return writer.bytes
    }

    @Test("P2: each new person's key is appended as one record and the bytes before it stay as they were (the file is not rewritten)")
    func newKeyIsAppendedAsOneRecord() async throws {
        let fileSystem = FaultInjectingFileSystem()
        var household = Household()
        let ledger = try await Self.open(fileSystem)
        for command in household.commands { try await ledger.execute(command) }
        var before = try #require(fileSystem.contents(of: Self.keyFile))
        #expect(before.starts(with: Array("TALLYPK3".utf8)) && before[8] == 0, "TALLYPK3, records in clear")
        #expect(Self.recordRanges(before).count == 2, "Alice's key, then Bob's")
        #expect(Self.recordRanges(before).last?.upperBound == before.count)
        for index in 0..<5 {
            let person: PersonID = household.scenario.ids.next()
            try await ledger.execute(household.scenario.command(.addPerson(personID: person, name: "Person \(index)")))
            let after = try #require(fileSystem.contents(of: Self.keyFile))
            #expect(after.count == before.count + Self.oneKeyRecordBytes, "grows by one record")
            #expect(after.starts(with: before), "the bytes before the new record are untouched")
            #expect(Self.recordRanges(after).count == Self.recordRanges(before).count + 1)
            #expect(Self.contains(after, Self.idBytes(person)))
            before = after
        }
        // A command that needs no new key leaves the file alone.
        try await ledger.execute(household.scenario.command(.recordTransaction(transactionID: household.scenario.ids.next(), entry: household.scenario.expense(300))))
        #expect(fileSystem.contents(of: Self.keyFile) == before)
        try await ledger.close()
    }

    @Test("P2, issue 28 (addPerson with 10k people): each key's fingerprint, which checkpoints list, is made with the key and goes with it (a new key, one dropped before its append, a forgotten person, a reload), so a checkpoint does not hash every key again; each equals the HMAC of the person's id under the key")
    func fingerprintsFollowTheKeys() async throws {
        let fileSystem = FaultInjectingFileSystem(seed: 5)
        var household = Household()
        let ledger = try await Self.open(fileSystem)
        for command in household.commands { try await ledger.execute(command) }
        try await ledger.close()
        let ring = try PersonalKeyRing.load(ledgerDirectory: "/ledger", fileSystem: fileSystem, encryption: nil, readOnly: false)
        func expectFingerprintsOfEveryKey(_ ring: PersonalKeyRing, _ comment: Comment) {
            let keys = ring.snapshot.keys
            #expect(!keys.isEmpty, "the control: there are keys")
            #expect(ring.fingerprints == keys.reduce(into: [:]) { $0[$1.key] = PersonalKeyRing.fingerprint(of: $1.value, for: $1.key) }, comment)
        }
        expectFingerprintsOfEveryKey(ring, "loaded")
        let dora: PersonID = household.scenario.ids.next()
        #expect(ring.seal("Dora", owner: dora) != nil)
        #expect(ring.fingerprints[dora] != nil)
        expectFingerprintsOfEveryKey(ring, "a new key")
        ring.discardUnpersisted()
        #expect(ring.fingerprints[dora] == nil, "a key dropped before its append takes its fingerprint with it")
        expectFingerprintsOfEveryKey(ring, "a key dropped")
        try ring.forget([household.scenario.bob])
        #expect(ring.fingerprints[household.scenario.bob] == nil, "a forgotten person's fingerprint goes with their key (P3)")
        expectFingerprintsOfEveryKey(ring, "a person forgotten")
        let reloaded = try PersonalKeyRing.load(ledgerDirectory: "/ledger", fileSystem: fileSystem, encryption: nil, readOnly: true)
        #expect(reloaded.fingerprints == ring.fingerprints)
        let first = try #require(ring.snapshot.keys.first)
        #expect(PersonalKeyRing.fingerprint(of: first.value, for: household.scenario.bob) != PersonalKeyRing.fingerprint(of: first.value, for: first.key),
                "the control: a fingerprint depends on the person")
    }

    @Test("P2: appended keys survive a reopen and a power loss after acknowledgement; the evidence is the highest of the records")
    func appendedKeysSurviveReopen() async throws {
        let fileSystem = FaultInjectingFileSystem(seed: 11)
        var household = Household()
        let ledger = try await Self.open(fileSystem)
        for command in household.commands { try await ledger.execute(command) }
        var added: [PersonID: String] = [:]
        for index in 0..<3 {
            let person: PersonID = household.scenario.ids.next()
            added[person] = "Person \(index)"
            try await ledger.execute(household.scenario.command(.addPerson(personID: person, name: "Person \(index)")))
        }
        let lastBeforeCrash = await ledger.lastSequenceNumber
        fileSystem.crash(.dropUnsynced)
        let reopened = try await Self.open(fileSystem)
        #expect(reopened.openReport.unreadablePersonalTexts == 0)
        for (person, name) in added { #expect(await reopened.state.people[person]?.name.text == name) }
        #expect(await reopened.state.people[household.scenario.bob]?.name.text == Self.bobName)
        let ring = try PersonalKeyRing.load(ledgerDirectory: "/ledger", fileSystem: fileSystem, encryption: nil, readOnly: true)
        #expect(ring.snapshot.keys.count == 5)
        // The last key record was written before the append of its person, after every earlier record.
        #expect(ring.evidence?.lastSequenceNumber == lastBeforeCrash - 1)
        let before = try #require(fileSystem.contents(of: Self.keyFile))
        let dora: PersonID = household.scenario.ids.next()
        try await reopened.execute(household.scenario.command(.addPerson(personID: dora, name: "Dora")))
        let after = try #require(fileSystem.contents(of: Self.keyFile))
        #expect(after.starts(with: before) && after.count == before.count + Self.oneKeyRecordBytes, "a reopened ledger appends too")
        try await reopened.close()
        let again = try await Self.open(fileSystem)
        #expect(await again.state.people[dora]?.name.text == "Dora")
        try await again.close()
    }

    @Test("P2: a power loss during a key append leaves a torn record: a read-only open reads the file without it and changes nothing, a writer open cuts it")
    func tornKeyRecordIsCutByTheWriter() async throws {
        var tornCases = 0
        for mode in [FaultInjectingFileSystem.CrashMode.tornPrefix, .tornWithZeros] {
            for seed in UInt64(1)...12 {
                let fileSystem = FaultInjectingFileSystem(seed: seed)
                var household = Household()
                let ledger = try await Self.open(fileSystem, checkpointEvery: 1_000)
                for command in household.commands { try await ledger.execute(command) }
                await ledger.checkpointWritten()
                let before = try #require(fileSystem.contents(of: Self.keyFile))
                let carla: PersonID = household.scenario.ids.next()
                // The key record's write happens; the power goes before its fdatasync.
                fileSystem.crash(afterOperations: 1, mode: mode)
                await #expect(throws: (any Error).self) {
                    try await ledger.execute(household.scenario.command(.addPerson(personID: carla, name: "Carla")))
                }
                let crashed = try #require(fileSystem.contents(of: Self.keyFile))
                #expect(crashed.starts(with: before))
                let wholeRecordSurvived = crashed.count >= before.count + Self.oneKeyRecordBytes
                    && Self.recordRanges(crashed).count == Self.recordRanges(before).count + 1
                if !wholeRecordSurvived, crashed.count > before.count { tornCases += 1 }

                let readOnly = try PersonalKeyRing.load(ledgerDirectory: "/ledger", fileSystem: fileSystem, encryption: nil, readOnly: true)
                #expect(readOnly.snapshot.keys.count == (wholeRecordSurvived ? 3 : 2), "\(mode) \(seed)")
                #expect(try LedgerReplay.replay(at: "/ledger", fileSystem: fileSystem).unreadablePersonalTexts == 0)
                #expect(fileSystem.contents(of: Self.keyFile) == crashed, "read-only opens change nothing (\(mode) \(seed))")

                let reopened = try await Self.open(fileSystem)
                #expect(await reopened.state.people[carla] == nil, "the command was never acknowledged")
                let cut = try #require(fileSystem.contents(of: Self.keyFile))
                #expect(cut == (wholeRecordSurvived ? Array(crashed.prefix(before.count + Self.oneKeyRecordBytes)) : before), "\(mode) \(seed)")
                try await reopened.execute(household.scenario.command(.addPerson(personID: carla, name: "Carla")))
                try await reopened.close()
                let again = try await Self.open(fileSystem)
                #expect(await again.state.people[carla]?.name.text == "Carla", "\(mode) \(seed)")
                #expect(again.openReport.unreadablePersonalTexts == 0)
                try await again.close()
            }
        }
        #expect(tornCases > 0, "some crash left a torn record")
    }

    @Test("P2: a flipped bit in a record followed by others is damage: open, replay and a read-only load refuse it with personalKeys naming the file and offset, and nothing is cut")
    func flippedBitInMiddleRecordIsDamage() async throws {
        let fileSystem = FaultInjectingFileSystem()
        var household = Household()
        let ledger = try await Self.open(fileSystem)
        for command in household.commands { try await ledger.execute(command) }
        for index in 0..<2 {
            try await ledger.execute(household.scenario.command(.addPerson(personID: household.scenario.ids.next(), name: "P\(index)")))
        }
        try await ledger.close()
        let good = try #require(fileSystem.contents(of: Self.keyFile))
        let ranges = Self.recordRanges(good)
        #expect(ranges.count == 4)
        var damaged = good
        damaged[ranges[1].lowerBound + 30] ^= 0x08
        fileSystem.setContents(of: Self.keyFile, to: damaged)
        func isDamageAtTheSecondRecord(_ error: any Error) -> Bool {
            guard let error = error as? LedgerError, case .personalKeys(let message) = error else { return false }
            return message.contains("\(Self.keyFile)") && message.contains("offset \(ranges[1].lowerBound)")
        }
        await #expect(performing: { try await Self.open(fileSystem) }, throws: isDamageAtTheSecondRecord)
        #expect(performing: { try LedgerReplay.replay(at: "/ledger", fileSystem: fileSystem) }, throws: isDamageAtTheSecondRecord)
        #expect(performing: {
            try PersonalKeyRing.load(ledgerDirectory: "/ledger", fileSystem: fileSystem, encryption: nil, readOnly: true)
        }, throws: isDamageAtTheSecondRecord)
        #expect(fileSystem.contents(of: Self.keyFile) == damaged, "damage is never cut")

        // Every single flipped bit, anywhere (the last record too), is refused: never a crash,
        // never a ring with a key silently missing.
        for index in good.indices {
            for bit in 0..<8 {
                var flipped = good
                flipped[index] ^= UInt8(1 << bit)
                fileSystem.setContents(of: Self.keyFile, to: flipped)
                #expect("byte \(index) bit \(bit)", performing: {
                    try PersonalKeyRing.load(ledgerDirectory: "/ledger", fileSystem: fileSystem, encryption: nil)
                }, throws: { ($0 as? LedgerError)?.code == "personalKeys" })
            }
        }
    }

    @Test("P2: the older layouts (TALLYPK2, TALLYPK1, TALLYPKE, recorded) load with their keys, tombstones and evidence; the first new key converts the file to TALLYPK3 once")
    func olderLayoutsLoadAndConvert() async throws {
        let carol = Scenario.carol
        let household = Household()
        for (fixture, magic) in [("personal-keys-v2", "TALLYPK2"), ("personal-keys-v1", "TALLYPK1"), ("personal-keys-sealed", "TALLYPKE")] {
            let directory = try TemporaryDirectory("tally-\(fixture)")
            defer { directory.remove() }
            let path = directory.appending("ledger")
            try FileManager.default.copyItem(atPath: RepositoryFiles.fixture(fixture).path, toPath: path.string)
            let keyFile = LedgerDirectory(path).personalKeys
            var options = LedgerOptions(durability: .synchronous)
            options.keepsReadSide = false
            if magic == "TALLYPKE" { options.encryption = try JournalEncryption(keyID: 1, key: [UInt8](repeating: 9, count: 32)) }
            let recorded = try [UInt8](Data(contentsOf: URL(fileURLWithPath: keyFile.string)))
            #expect(recorded.starts(with: Array(magic.utf8)), "\(fixture)")
            let ring = try PersonalKeyRing.load(
                ledgerDirectory: path, fileSystem: PosixFileSystem(), encryption: options.encryption, readOnly: true)
            #expect(ring.snapshot.keys.count == 2 && ring.forgotten == [carol], "\(fixture)")
            #expect((ring.evidence == nil) == (magic == "TALLYPK1"), "\(fixture): TALLYPK1 is evidence of nothing")

            let ledger = try await Ledger.open(at: path, options: options)
            #expect(ledger.openReport.unreadablePersonalTexts == 0)
            #expect(await ledger.state.people[household.scenario.bob]?.name.text == Self.bobName, "\(fixture)")
            #expect(await ledger.state.people[carol]?.isForgotten == true)
            #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: keyFile.string))) == recorded, "opening writes nothing")
            // Ids the recording never used (it went on from the household's scenario).
            let now = Timestamp(millisecondsSinceEpoch: 1_772_400_000_000)
            func addPerson(_ low: UInt64, _ name: String) -> Command {
                Command(commandID: CommandID(UUIDValue(high: 0xF2, low: low)), actor: household.scenario.alice, recordedAt: now,
                        action: .addPerson(personID: PersonID(UUIDValue(high: 0xF3, low: low)), name: name))
            }
            let dora = PersonID(UUIDValue(high: 0xF3, low: 1))
            try await ledger.execute(addPerson(1, "Dora"))
            let converted = try [UInt8](Data(contentsOf: URL(fileURLWithPath: keyFile.string)))
            #expect(converted.starts(with: Array("TALLYPK3".utf8)) && converted[8] == (magic == "TALLYPKE" ? 1 : 0), "\(fixture)")
            try await ledger.execute(addPerson(2, "Emil"))
            let appended = try [UInt8](Data(contentsOf: URL(fileURLWithPath: keyFile.string)))
            #expect(appended.starts(with: converted) && appended.count > converted.count, "converted once, then appended")
            try await ledger.close()

            let reopened = try await Ledger.open(at: path, options: options)
            #expect(await reopened.state.people[dora]?.name.text == "Dora")
            #expect(await reopened.state.people[household.scenario.bob]?.name.text == Self.bobName)
            try await reopened.close()
            let after = try PersonalKeyRing.load(ledgerDirectory: path, fileSystem: PosixFileSystem(), encryption: options.encryption, readOnly: true)
            #expect(after.snapshot.keys.count == 4 && after.forgotten == [carol], "\(fixture)")
            #expect((after.evidence?.lastSequenceNumber ?? 0) >= (ring.evidence?.lastSequenceNumber ?? 0))
            for (person, key) in ring.snapshot.keys { #expect(after.snapshot.keys[person] == key, "\(fixture): keys carried over") }
        }
    }

    @Test("P3: forgetting rewrites the key file compacted, with a tombstone and without any byte of the forgotten person's key; later keys are appended to it")
    func forgettingLeavesNoKeyBytes() async throws {
        let fileSystem = FaultInjectingFileSystem()
        var household = Household()
        let bob = household.scenario.bob
        let ledger = try await Self.open(fileSystem)
        for command in household.commands { try await ledger.execute(command) }
        for index in 0..<3 {
            try await ledger.execute(household.scenario.command(.addPerson(personID: household.scenario.ids.next(), name: "P\(index)")))
        }
        let bobsKey = try #require(
            try PersonalKeyRing.load(ledgerDirectory: "/ledger", fileSystem: fileSystem, encryption: nil, readOnly: true).snapshot.keys[bob])
        #expect(Self.contains(try #require(fileSystem.contents(of: Self.keyFile)), bobsKey))
        try await ledger.execute(household.removeAndForgetBob())
        let forgotten = try #require(fileSystem.contents(of: Self.keyFile))
        #expect(!Self.contains(forgotten, bobsKey), "no byte sequence of Bob's key is left")
        #expect(!Self.contains(forgotten, Array(bobsKey.prefix(8))))
        #expect(Self.recordRanges(forgotten).count == 1 && Self.recordRanges(forgotten).last?.upperBound == forgotten.count, "compacted into one record")
        #expect(!fileSystem.fileExists(at: FilePath(Self.keyFile.string + LedgerDirectory.temporarySuffix)))
        let ring = try PersonalKeyRing.load(ledgerDirectory: "/ledger", fileSystem: fileSystem, encryption: nil, readOnly: true)
        #expect(ring.forgotten == [bob] && ring.snapshot.keys.count == 4)
        try await ledger.execute(household.scenario.command(.addPerson(personID: household.scenario.ids.next(), name: "After")))
        let after = try #require(fileSystem.contents(of: Self.keyFile))
        #expect(after.starts(with: forgotten) && after.count == forgotten.count + Self.oneKeyRecordBytes)
        try await ledger.close()
    }
}
