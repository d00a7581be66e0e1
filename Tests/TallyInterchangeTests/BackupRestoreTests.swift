import Foundation
import SystemPackage
import Tally
@testable import TallyInterchange
import TallyJournal
import TallyModel
import Testing

/// `LedgerBackup.decode` and `restore`: every malformed document is a typed `InterchangeError`
/// naming what to fix, and a restore is atomic: the target holds the whole ledger or nothing,
/// so a retry works.
@Suite("Backup restore", .serialized)
struct BackupRestoreTests {
    /// A backup of the household example ledger, and a fresh directory to restore into.
    static func backup() async throws -> (LedgerBackup, parent: FilePath) {
        let (backup, parent, _) = try await backupAndHistory()
        return (backup, parent)
    }

    static func backupAndHistory() async throws -> (LedgerBackup, parent: FilePath, LedgerHistory) {
        let (directory, history) = try await InterchangeLedgerTests.makeLedger()
        let parent = FilePath(FileManager.default.temporaryDirectory.appendingPathComponent("tally-restore-\(UUID().uuidString)").path)
        try FileManager.default.createDirectory(atPath: parent.string, withIntermediateDirectories: true)
        return (try LedgerBackup.make(from: directory, protection: .key(backupKey)), parent, history)
    }

    /// The key the test backups' personal keys are sealed with.
    static let backupKey = [UInt8](repeating: 7, count: 32)

    /// Options that open the test backups' keys.
    static var unlocked: LedgerBackup.RestoreOptions {
        var options = LedgerBackup.RestoreOptions()
        options.unlock = .key(backupKey)
        return options
    }

    /// `backup` as a version 3 document held it: the personal keys in clear.
    static func legacyVersion3(_ backup: LedgerBackup) throws -> LedgerBackup {
        let keys = try backup.openSealedKeys(try #require(backup.sealedPersonalKeys), unlock: .key(backupKey))
        var legacy = backup
        legacy.personalKeys = Dictionary(uniqueKeysWithValues: keys.map { ($0.key.description, Hex.string($0.value)) })
        legacy.personalKeyProtection = nil
        legacy.personalKeyHolders = nil
        legacy.sealedPersonalKeys = nil
        return legacy.sealed(formatVersion: 3)
    }

    /// Restoring `backup` fails with `code` (and a message containing `message`), and leaves
    /// nothing at the target nor beside it.
    static func expectRestoreFails(
        _ backup: LedgerBackup, into parent: FilePath, code: String, message: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let target = parent.appending("restored")
        do {
            try await backup.restore(into: target, options: unlocked)
            Issue.record("the restore succeeded", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            #expect(error.message.contains(message), "\(error)", sourceLocation: sourceLocation)
        }
        #expect((try? FileManager.default.contentsOfDirectory(atPath: parent.string)) == [],
                "a failed restore leaves nothing behind", sourceLocation: sourceLocation)
    }

    /// A record holding `event` with the next sequence number after `backup`'s last.
    static func record(_ event: Event, after backup: LedgerBackup) -> LedgerBackup.Record {
        let encoded = EventCodec.encode(event)
        return LedgerBackup.Record(
            sequenceNumber: backup.lastSequenceNumber + 1, recordedAt: event.recordedAt.iso8601,
            recordedAtMilliseconds: event.recordedAt.millisecondsSinceEpoch, type: "walletRenamed", tag: encoded.tag,
            schemaVersion: encoded.schemaVersion, payload: Data(encoded.payload).base64EncodedString())
    }

    static func renameEvent(walletID: WalletID, name: String, actor: PersonID) -> Event {
        var ids = DeterministicIDGenerator(seed: 99)
        return Event(commandID: ids.next(), actor: actor, recordedAt: Timestamp(millisecondsSinceEpoch: 1_780_000_000_000),
                     payload: .walletRenamed(WalletRenamed(walletID: walletID, name: name)))
    }

    @Test("backup guarantee: a document that is not JSON, or not a backup, is backupUnreadable")
    func unreadableDocument() throws {
        for text in ["not json", "{}", #"{"format":"tally.backup"}"#, ""] {
            #expect { try LedgerBackup.decode(Data(text.utf8)) } throws: { error in
                (error as? InterchangeError)?.code == "backupUnreadable" && (error as? InterchangeError)?.message.contains("not a tally backup") == true
            }
        }
    }

    @Test("backup guarantee: another format name or version is backupVersionUnknown naming the version this build reads")
    func unknownVersion() async throws {
        let (backup, _) = try await Self.backup()
        for (format, version) in [("tally.backup", 5), ("tally.backup", 0), ("other.backup", 4)] {
            var changed = backup
            changed.format = format
            changed.formatVersion = version
            #expect { try LedgerBackup.decode(try changed.encoded()) } throws: { error in
                guard let error = error as? InterchangeError else { return false }
                return error.code == "backupVersionUnknown" && error.message.contains("version \(version)")
                    && error.message.contains("tally.backup version \(LedgerBackup.currentFormatVersion)")
            }
        }
        #expect(try LedgerBackup.decode(try backup.encoded()) == backup)
    }

    @Test("backup guarantee: non-contiguous sequence numbers, and in a correctly sealed document a payload that is not base64 and malformed personal keys, are backupInvalid; nothing is written")
    func invalidDocuments() async throws {
        let (backup, parent) = try await Self.backup()
        var gap = backup
        gap.batches[1].records[0].sequenceNumber += 1
        await Self.expectRestoreFails(gap, into: parent, code: "backupInvalid", message: "sequence numbers must be contiguous")
        var base64 = backup
        base64.batches[2].records[0].payload = "not base64!"
        await Self.expectRestoreFails(base64.sealed(), into: parent, code: "backupInvalid", message: "payload is not base64")
        let legacy = try Self.legacyVersion3(backup)
        let person = try #require(legacy.personalKeys?.keys.sorted().first)
        for bad in ["abc", "zz" + String(repeating: "0", count: 62), String(repeating: "0", count: 62)] {
            var key = legacy
            key.personalKeys?[person] = bad
            await Self.expectRestoreFails(key.sealed(formatVersion: 3), into: parent, code: "backupInvalid", message: "personal key of \(person)")
        }
        var id = legacy
        id.personalKeys?["not-an-id"] = String(repeating: "0", count: 64)
        await Self.expectRestoreFails(id.sealed(formatVersion: 3), into: parent, code: "backupInvalid", message: "personal key of not-an-id")
        var forgotten = backup
        forgotten.forgottenPeople = ["nobody"]
        await Self.expectRestoreFails(forgotten.sealed(), into: parent, code: "backupInvalid", message: "forgotten person nobody is not an id")
    }

    @Test("backup guarantee: a record of a correctly sealed document that does not decode is the codec's code (unknownTag, truncated, unsupportedVersion) naming the record")
    func undecodableRecords() async throws {
        let (backup, parent) = try await Self.backup()
        var tag = backup
        tag.batches[0].records[0].tag = 999
        await Self.expectRestoreFails(tag.sealed(), into: parent, code: "unknownTag", message: "backup record 1 cannot be decoded")
        var truncated = backup
        truncated.batches[0].records[0].payload = Data([1, 2]).base64EncodedString()
        await Self.expectRestoreFails(truncated.sealed(), into: parent, code: "truncated", message: "backup record 1 cannot be decoded")
        var version = backup
        version.batches[0].records[0].schemaVersion = 99
        await Self.expectRestoreFails(version.sealed(), into: parent, code: "unsupportedVersion", message: "backup record 1 cannot be decoded")
    }

    @Test("backup guarantee: a target that exists and is not empty is restoreTargetNotEmpty and is left untouched")
    func targetNotEmpty() async throws {
        let (backup, parent) = try await Self.backup()
        let target = parent.appending("restored")
        try FileManager.default.createDirectory(atPath: target.string, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: target.string + "/notes.txt", contents: Data("mine".utf8)))
        await #expect { try await backup.restore(into: target, options: Self.unlocked) } throws: { error in
            (error as? InterchangeError)?.code == "restoreTargetNotEmpty" && (error as? InterchangeError)?.message.contains("notes.txt") == true
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.string) == ["notes.txt"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.string) == ["restored"])
        let empty = parent.appending("empty")
        try FileManager.default.createDirectory(atPath: empty.string, withIntermediateDirectories: true)
        try await backup.restore(into: empty, options: Self.unlocked)
        #expect(try LedgerAudit.audit(at: empty).isClean, "an existing empty directory is a valid target")
    }

    @Test("backup guarantee: a failure mid-restore (a record over the journal's limit in the last batch) leaves no partial ledger; a retry works")
    func failureMidRestoreLeavesNothing() async throws {
        let (backup, parent, history) = try await Self.backupAndHistory()
        let walletID = try #require(history.state.wallets.keys.sorted().first)
        let admin = try #require(history.state.household?.admin)
        var oversized = backup
        // 2 MiB name: decodes, but is over the journal's 1 MiB record limit, so the append of
        // the last batch fails after every earlier batch was written.
        let big = Self.renameEvent(walletID: walletID, name: String(repeating: "x", count: 2 << 20), actor: admin)
        oversized.batches.append(LedgerBackup.Batch(records: [Self.record(big, after: backup)]))
        oversized.lastSequenceNumber += 1
        await Self.expectRestoreFails(oversized.sealed(), into: parent, code: "recordTooLarge", message: "exceeds the limit of 1048576 bytes")
        let target = parent.appending("restored")
        try await backup.restore(into: target, options: Self.unlocked)
        #expect(try LedgerAudit.audit(at: target).isClean)
        #expect(try LedgerHistory.load(at: target).lastSequenceNumber == backup.lastSequenceNumber)
    }

    @Test("backup guarantee: events that do not fold into a valid ledger (a rename of an unknown wallet) are backupInvalid after the audit; nothing is left")
    func eventsThatBreakTheDomainAreRefused() async throws {
        let (backup, parent, history) = try await Self.backupAndHistory()
        var ids = DeterministicIDGenerator(seed: 4242)
        let admin = try #require(history.state.household?.admin)
        var hostile = backup
        hostile.batches.append(LedgerBackup.Batch(records: [Self.record(Self.renameEvent(walletID: ids.next(), name: "Ghost", actor: admin), after: backup)]))
        hostile.lastSequenceNumber += 1
        await Self.expectRestoreFails(hostile.sealed(), into: parent, code: "backupInvalid", message: "do not fold into a valid ledger")
        await Self.expectRestoreFails(hostile.sealed(), into: parent, code: "backupInvalid", message: "unknown wallet")
    }
}
