import Foundation
import SystemPackage
import Tally
@testable import TallyInterchange
import TallyModel
import Testing

/// Backup format 3 (issue item 7, class "a backup restores damaged or incomplete data"):
/// the restore refuses a document that was cut, edited or damaged anywhere, names the record
/// where it can, and writes nothing; a good backup round-trips byte for byte.
@Suite("Backup integrity", .serialized)
struct BackupIntegrityTests {
    /// The first transactionRecorded record with its amount changed by 1 minor unit (the
    /// zigzag varint of the amount replaced in place): it still decodes, to another amount.
    static func flippingAnAmount(in backup: LedgerBackup) throws -> (LedgerBackup, sequenceNumber: UInt64) {
        var changed = backup
        for batchIndex in backup.batches.indices {
            for (recordIndex, record) in backup.batches[batchIndex].records.enumerated() where record.type == "transactionRecorded" {
                let payload = try #require(Data(base64Encoded: record.payload))
                let recordedAt = Timestamp(millisecondsSinceEpoch: record.recordedAtMilliseconds)
                let event = try EventCodec.decode(tag: record.tag, schemaVersion: record.schemaVersion, payload: Array(payload), recordedAt: recordedAt)
                guard case .transactionRecorded(let recorded) = event.payload else { continue }
                let minorUnits = recorded.details.amount.minorUnits
                func varint(_ value: Int64) -> [UInt8] {
                    var writer = BinaryWriter()
                    writer.writeVarInt(value)
                    return writer.bytes
                }
                let old = varint(minorUnits), new = varint(minorUnits + 2)
                guard old.count == new.count, let range = Array(payload).firstRange(of: old) else { continue }
                var flipped = Array(payload)
                flipped.replaceSubrange(range, with: new)
                let decoded = try EventCodec.decode(tag: record.tag, schemaVersion: record.schemaVersion, payload: flipped, recordedAt: recordedAt)
                guard case .transactionRecorded(let changedRecord) = decoded.payload, changedRecord.details.amount.minorUnits == minorUnits + 2 else { continue }
                changed.batches[batchIndex].records[recordIndex].payload = Data(flipped).base64EncodedString()
                return (changed, record.sequenceNumber)
            }
        }
        Issue.record("no transactionRecorded record whose amount could be changed")
        return (backup, 0)
    }

    @Test("backup integrity: an amount changed in one record is refused with backupChainMismatch naming its sequence; nothing is written")
    func flippedAmountIsRefusedNamingTheSequence() async throws {
        let (backup, parent) = try await BackupRestoreTests.backup()
        let (flipped, sequenceNumber) = try Self.flippingAnAmount(in: backup)
        #expect(sequenceNumber > 0)
        let reread = try LedgerBackup.decode(try flipped.encoded())
        await BackupRestoreTests.expectRestoreFails(reread, into: parent, code: "backupChainMismatch", message: "record \(sequenceNumber) ")
        var chainValueOnly = backup
        chainValueOnly.batches[0].records[0].chainValue = String(repeating: "0", count: 64)
        await BackupRestoreTests.expectRestoreFails(chainValueOnly, into: parent, code: "backupChainMismatch", message: "record 1 ")
    }

    @Test("backup integrity: a backup missing its last batches is refused at its declared end (backupTruncated), also when the declared end is cut with them")
    func droppedLastBatchesAreRefusedAtTheDeclaredEnd() async throws {
        let (backup, parent) = try await BackupRestoreTests.backup()
        for dropped in [1, 3] {
            var cut = backup
            cut.batches.removeLast(dropped)
            let end = try #require(cut.batches.last?.records.last?.sequenceNumber)
            await BackupRestoreTests.expectRestoreFails(cut, into: parent, code: "backupTruncated",
                                                         message: "declares events through \(backup.lastSequenceNumber) but its records end at \(end)")
            cut.lastSequenceNumber = end
            await BackupRestoreTests.expectRestoreFails(cut, into: parent, code: "backupTrailerMismatch", message: "the trailer declares \(backup.lastSequenceNumber) events")
        }
        var extra = backup
        extra.lastSequenceNumber -= 1
        await BackupRestoreTests.expectRestoreFails(extra, into: parent, code: "backupTruncated", message: "1 event(s) past its declared end")
    }

    @Test("backup integrity: a backup with no events is refused (backupEmpty), whatever it declares")
    func backupWithoutEventsIsRefused() async throws {
        let (backup, parent) = try await BackupRestoreTests.backup()
        var empty = backup
        empty.batches = []
        await BackupRestoreTests.expectRestoreFails(empty, into: parent, code: "backupEmpty", message: "holds no events")
        empty.batches = [LedgerBackup.Batch(records: [])]
        empty.lastSequenceNumber = 0
        await BackupRestoreTests.expectRestoreFails(empty.sealed(), into: parent, code: "backupEmpty", message: "holds no events")
    }

    @Test("backup integrity: an altered trailer, header, personal key, forgotten list or batch boundary is refused; a missing trailer too")
    func alteredTrailerOrDocumentIsRefused() async throws {
        let (backup, parent) = try await BackupRestoreTests.backup()
        let integrity = try #require(backup.integrity)
        var count = backup
        count.integrity?.eventCount += 1
        await BackupRestoreTests.expectRestoreFails(count, into: parent, code: "backupTrailerMismatch", message: "declares \(integrity.eventCount + 1) events")
        var final = backup
        final.integrity?.finalChainValue = String(repeating: "a", count: 64)
        await BackupRestoreTests.expectRestoreFails(final, into: parent, code: "backupTrailerMismatch", message: "finalChainValue")
        var checksum = backup
        checksum.integrity?.checksum = String(repeating: "b", count: 64)
        await BackupRestoreTests.expectRestoreFails(checksum, into: parent, code: "backupChecksumMismatch", message: "checksum does not match")
        var household = backup
        household.household = "Someone else"
        await BackupRestoreTests.expectRestoreFails(household, into: parent, code: "backupChecksumMismatch", message: "checksum does not match")
        let person = try #require(backup.personalKeyHolders?.first)
        var key = backup
        let box = try #require(backup.sealedPersonalKeys?.box)
        key.sealedPersonalKeys?.box = String(box.reversed())
        await BackupRestoreTests.expectRestoreFails(key, into: parent, code: "backupChecksumMismatch", message: "personal keys")
        var holders = backup
        holders.personalKeyHolders?.removeLast()
        await BackupRestoreTests.expectRestoreFails(holders, into: parent, code: "backupChecksumMismatch", message: "personal keys")
        var protection = backup
        protection.personalKeyProtection = LedgerBackup.KeyProtectionName.none
        await BackupRestoreTests.expectRestoreFails(protection, into: parent, code: "backupChecksumMismatch", message: "personal keys")
        let legacy = try BackupRestoreTests.legacyVersion3(backup)
        var clearKey = legacy
        clearKey.personalKeys?[person] = String(repeating: "1", count: 64)
        await BackupRestoreTests.expectRestoreFails(clearKey, into: parent, code: "backupChecksumMismatch", message: "personal keys")
        var forgotten = backup
        forgotten.forgottenPeople = [person]
        await BackupRestoreTests.expectRestoreFails(forgotten, into: parent, code: "backupChecksumMismatch", message: "forgotten people")
        var moved = backup
        let first = moved.batches[1].records.removeFirst()
        moved.batches[0].records.append(first)
        await BackupRestoreTests.expectRestoreFails(moved, into: parent, code: "backupChainMismatch", message: "record \(first.sequenceNumber) ")
        var missing = backup
        missing.integrity = nil
        await BackupRestoreTests.expectRestoreFails(missing, into: parent, code: "backupIntegrityMissing", message: "must carry `integrity`")
    }

    @Test("backup integrity: a good backup round-trips byte-identically (decode and encode, and export of the restored ledger; the sealed keys differ only by their fresh nonce)")
    func goodBackupRoundTripsByteIdentically() async throws {
        let (backup, parent) = try await BackupRestoreTests.backup()
        let bytes = try backup.encoded()
        let decoded = try LedgerBackup.decode(bytes)
        #expect(try decoded.encoded() == bytes)
        let target = parent.appending("restored")
        try await decoded.restore(into: target, options: BackupRestoreTests.unlocked)
        var again = try LedgerBackup.make(from: target, protection: .key(BackupRestoreTests.backupKey))
        #expect(again.sealedPersonalKeys != backup.sealedPersonalKeys, "a fresh nonce for every backup")
        #expect(try again.openSealedKeys(try #require(again.sealedPersonalKeys), unlock: .key(BackupRestoreTests.backupKey))
                == backup.openSealedKeys(try #require(backup.sealedPersonalKeys), unlock: .key(BackupRestoreTests.backupKey)))
        again.sealedPersonalKeys = backup.sealedPersonalKeys
        #expect(try again.sealed().encoded() == bytes)
        #expect(backup.integrity?.eventCount == backup.lastSequenceNumber)
        let keyless = try LedgerBackup.make(from: target, protection: .withoutKeys)
        let keylessTarget = parent.appending("keyless")
        var options = LedgerBackup.RestoreOptions()
        options.acceptingUnreadableTexts = true
        try await keyless.restore(into: keylessTarget, options: options)
        var keylessAgain = try LedgerBackup.make(from: keylessTarget, protection: .withoutKeys)
        #expect(keylessAgain.personalKeyHolders == [], "every holder is recorded as forgotten in the keyless restore")
        keylessAgain.personalKeyHolders = keyless.personalKeyHolders
        keylessAgain.forgottenPeople = keyless.forgottenPeople
        #expect(try keylessAgain.sealed().encoded() == keyless.encoded(), "the records round-trip byte for byte")
    }

    @Test("backup integrity: a version 2 backup (no chain, no checksum) is backupUnverified saying to re-export, and restores only when accepted unverified, its declared end still checked")
    func olderBackupIsRefusedUnlessAcceptedUnverified() async throws {
        let (backup, parent) = try await BackupRestoreTests.backup()
        var older = try BackupRestoreTests.legacyVersion3(backup)
        older.formatVersion = 2
        older.integrity = nil
        for index in older.batches.indices {
            for recordIndex in older.batches[index].records.indices { older.batches[index].records[recordIndex].chainValue = nil }
        }
        let reread = try LedgerBackup.decode(try older.encoded())
        await BackupRestoreTests.expectRestoreFails(reread, into: parent, code: "backupUnverified", message: "export the ledger again")
        var cut = reread
        cut.batches.removeLast()
        let target = parent.appending("restored")
        await #expect { try await cut.restore(into: target, acceptingUnverifiedFormat: true) } throws: { error in
            (error as? InterchangeError)?.code == "backupTruncated"
        }
        try await reread.restore(into: target, acceptingUnverifiedFormat: true)
        #expect(try LedgerHistory.load(at: target).lastSequenceNumber == backup.lastSequenceNumber)
    }
}
