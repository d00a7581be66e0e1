import Foundation
import SystemPackage
import Tally
import TallyJournal
import TallyModel
import TallyTestSupport
import Testing

/// `LedgerDirectory` owns the ledger folder's layout, and `Ledger.restore` is the one way a
/// ledger folder is created from frames and keys (Docs/Engine.md, "Ledger folder").
@Suite("Ledger directory")
struct LedgerDirectoryTests {
    /// A closed ledger with the scenario's household, its frames and its keys.
    static func household(_ label: String) async throws -> (TestLedger, frames: [[NewRecord]], keys: (keys: [PersonID: [UInt8]], forgotten: Set<PersonID>)) {
        var s = Scenario()
        let test = try await TestLedger.make(label, durability: .synchronous)
        try await test.ledger.execute(s.setup())
        try await test.ledger.execute(s.command(.addPerson(personID: s.ids.next(), name: "Carol")))
        try await test.ledger.close()
        let layout = LedgerDirectory(test.directory.appending("ledger"))
        var frames: [[NewRecord]] = []
        try JournalReader.open(at: layout.journal).forEachFrame { frame in
            frames.append(frame.records.map {
                NewRecord(recordedAtMilliseconds: $0.recordedAtMilliseconds, typeTag: $0.typeTag,
                          schemaVersion: $0.schemaVersion, payload: Array($0.payload))
            })
            return true
        }
        let keys = try PersonalKeyRing.load(ledgerDirectory: layout.path, fileSystem: PosixFileSystem(), encryption: nil, readOnly: true).snapshot
        return (test, frames, keys)
    }

    /// The error `Ledger.restore` throws, or nil when it restored.
    static func restoreError(
        _ frames: [[NewRecord]], _ keys: (keys: [PersonID: [UInt8]], forgotten: Set<PersonID>), into target: FilePath
    ) async -> LedgerError? {
        do throws(LedgerError) {
            try await Ledger.restore(frames: frames, personalKeys: keys.keys, forgottenPeople: keys.forgotten, into: target)
            return nil
        } catch {
            return error
        }
    }

    @Test("ledger folder: everything an open, a checkpoint and a close leave in the folder is a path LedgerDirectory names")
    func everyFileIsNamedByTheLayout() async throws {
        let (test, _, _) = try await Self.household("layout")
        let layout = LedgerDirectory(test.directory.appending("ledger"))
        let top = try FileManager.default.contentsOfDirectory(atPath: layout.path.string).sorted()
        #expect(top == [LedgerDirectory.journalName, LedgerDirectory.personalKeysName, LedgerDirectory.readSideName].sorted())
        #expect(FileManager.default.fileExists(atPath: layout.readSideStore.string))
        #expect(layout.checkpointSequenceNumber() != nil, "close writes a final checkpoint, into the store")
        #expect(try layout.segmentNames() == ["00000000000000000001.segment"])
        #expect(LedgerDirectory("/a/b").restoring == "/a/.b.restoring")
    }

    @Test("P3, issue 28: the checkpoints folder an older version left (checkpoint files and the archive, texts readable) is removed by the writer's open; the ledger opens and a reader leaves it")
    func legacyCheckpointsFolderIsRemoved() async throws {
        let (test, _, _) = try await Self.household("legacy-checkpoints")
        let layout = LedgerDirectory(test.directory.appending("ledger"))
        let legacy = layout.path.appending("checkpoints")
        try FileManager.default.createDirectory(atPath: legacy.string, withIntermediateDirectories: false)
        for name in ["00000000000000000003.checkpoint", "archive.sqlite", "archive.sqlite-wal"] {
            #expect(FileManager.default.createFile(atPath: legacy.appending(name).string, contents: Data("Forgotten Person".utf8)))
        }
        _ = try LedgerReplay.replay(at: layout.path)
        #expect(FileManager.default.fileExists(atPath: legacy.string), "the control: a reader changes nothing")
        let ledger = try await Ledger.open(at: layout.path, options: LedgerOptions(durability: .none))
        #expect(!FileManager.default.fileExists(atPath: legacy.string), "the writer's open removed the folder")
        #expect(await ledger.lastSequenceNumber > 0)
        try await ledger.close()
    }

    @Test("restore guarantee: Ledger.restore writes the frames with the journal's writer and the keys; the result audits clean and replays to the source's read models")
    func restoreRebuildsTheLedger() async throws {
        let (test, frames, keys) = try await Self.household("restore-source")
        let target = test.directory.appending("restored")
        try await Ledger.restore(frames: frames, personalKeys: keys.keys, forgottenPeople: keys.forgotten, into: target)
        #expect(try LedgerAudit.audit(at: target).isClean)
        let source = try LedgerReplay.replay(at: test.directory.appending("ledger"))
        let restored = try LedgerReplay.replay(at: target)
        #expect(restored.lastSequenceNumber == source.lastSequenceNumber)
        #expect(try restored.readModels.canonicalJSON() == source.readModels.canonicalJSON())
        #expect(!FileManager.default.fileExists(atPath: LedgerDirectory(target).restoring.string))
    }

    @Test("restore guarantee: a target that is not empty is restoreTargetNotEmpty and untouched; frames that do not fold are restoredLedgerInvalid; nothing is left behind")
    func restoreIsAllOrNothing() async throws {
        let (test, frames, keys) = try await Self.household("restore-refused")
        let occupied = test.directory.appending("occupied")
        try FileManager.default.createDirectory(atPath: occupied.string, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: occupied.appending("notes.txt").string, contents: Data("mine".utf8)))
        let notEmpty = await Self.restoreError(frames, keys, into: occupied)
        #expect(notEmpty?.code == "restoreTargetNotEmpty" && notEmpty?.message.contains("notes.txt") == true, "\(String(describing: notEmpty))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: occupied.string) == ["notes.txt"])
        // A last frame renaming a wallet that does not exist does not fold.
        var ids = DeterministicIDGenerator(seed: 4242)
        let ghost = EventCodec.encode(Event(
            commandID: ids.next(), actor: Scenario().alice, recordedAt: Timestamp(millisecondsSinceEpoch: 1_780_000_000_000),
            payload: .walletRenamed(WalletRenamed(walletID: ids.next(), name: "Ghost"))))
        let rename = NewRecord(recordedAtMilliseconds: 1_780_000_000_000, typeTag: ghost.tag, schemaVersion: ghost.schemaVersion, payload: ghost.payload)
        let target = test.directory.appending("restored")
        let invalid = await Self.restoreError(frames + [[rename]], keys, into: target)
        #expect(invalid?.code == "restoredLedgerInvalid", "\(String(describing: invalid))")
        #expect(!FileManager.default.fileExists(atPath: target.string))
        #expect(!FileManager.default.fileExists(atPath: LedgerDirectory(target).restoring.string))
    }

    @Test("restore guarantee: a second restore into a target whose restore is running is restoreInProgress; a file or a symbolic link as target is refused by name and left as it was")
    func restoreRefusesARunningRestoreAFileAndALink() async throws {
        let (test, frames, keys) = try await Self.household("restore-exclusive")
        let target = test.directory.appending("restored")
        let restoring = LedgerDirectory(target).restoring
        try FileManager.default.createDirectory(atPath: restoring.string, withIntermediateDirectories: true)
        let running = try PosixFileSystem().lockExclusively(at: restoring)
        let second = await Self.restoreError(frames, keys, into: target)
        #expect(second?.code == "restoreInProgress", "\(String(describing: second))")
        #expect(!FileManager.default.fileExists(atPath: target.string))
        running.unlock()

        let file = test.directory.appending("a-file")
        #expect(FileManager.default.createFile(atPath: file.string, contents: Data("mine".utf8)))
        let onFile = await Self.restoreError(frames, keys, into: file)
        #expect(onFile?.code == "restoreTargetNotEmpty" && onFile?.message.contains("is a file") == true, "\(String(describing: onFile))")
        #expect(FileManager.default.contents(atPath: file.string) == Data("mine".utf8))

        let emptyFolder = test.directory.appending("empty")
        try FileManager.default.createDirectory(atPath: emptyFolder.string, withIntermediateDirectories: true)
        let link = test.directory.appending("a-link")
        try FileManager.default.createSymbolicLink(atPath: link.string, withDestinationPath: emptyFolder.string)
        let onLink = await Self.restoreError(frames, keys, into: link)
        #expect(onLink?.code == "restoreTargetNotEmpty" && onLink?.message.contains("symbolic link") == true, "\(String(describing: onLink))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: emptyFolder.string).isEmpty, "the link was not followed")
    }

    @Test("P2, restore guarantee: what an interrupted restore left beside the target (keys in the clear) is emptied by the next restore and removed by the next open of the target")
    func interruptedRestoreLeavesNoStrayKeys() async throws {
        let (test, frames, keys) = try await Self.household("restore-leftover")
        let target = test.directory.appending("restored")
        let restoring = LedgerDirectory(target).restoring
        func leaveInterruptedRestore() throws {
            try FileManager.default.createDirectory(atPath: restoring.string, withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: restoring.appending("personal-keys").string, contents: Data(repeating: 7, count: 64)))
        }
        try leaveInterruptedRestore()
        try await Ledger.restore(frames: frames, personalKeys: keys.keys, forgottenPeople: keys.forgotten, into: target)
        #expect(!FileManager.default.fileExists(atPath: restoring.string))
        #expect(try LedgerAudit.audit(at: target).isClean, "the leftover's contents did not get into the restored ledger")

        try leaveInterruptedRestore()
        let ledger = try await Ledger.open(at: target)
        #expect(ledger.openReport.removedInterruptedRestore)
        #expect(!FileManager.default.fileExists(atPath: restoring.string))
        try await ledger.close()
    }
}
