import Foundation
import SystemPackage
import Tally
@testable import TallyInterchange
import TallyJournal
import TallyModel
import Testing

/// Backups keep the personal keys out of the clear (issue 18 item 10, P2/P3, section 9): sealed
/// with a passphrase or a user key, or left out and said so; old backups with keys in clear
/// still restore; a restore can replace an existing ledger, atomically, keeping its
/// encryption at rest.
@Suite("Backup keys and replace", .serialized)
struct BackupKeyTests {
    /// Cheap scrypt for tests (a restore accepts logN from 10); the default is 17.
    static let cheap = ScryptCost(logN: 10, blockSize: 8, parallelism: 1)
    static let passphrase = "correct horse battery staple"

    static func options(_ unlock: BackupKeyUnlock?, replacing: Bool = false, encryption: JournalEncryption? = nil) -> LedgerBackup.RestoreOptions {
        var options = LedgerBackup.RestoreOptions()
        options.unlock = unlock
        options.replacingExisting = replacing
        options.encryption = encryption
        return options
    }

    /// The ledger's personal keys as hex, read from its key file.
    static func keysInClear(of directory: FilePath) throws -> [String] {
        try PersonalKeyRing.load(ledgerDirectory: directory, fileSystem: PosixFileSystem(), encryption: nil, readOnly: true)
            .snapshot.keys.values.map { Hex.string($0) }
    }

    static func scratch() throws -> FilePath {
        let parent = FilePath(FileManager.default.temporaryDirectory.appendingPathComponent("tally-bk-\(UUID().uuidString)").path)
        try FileManager.default.createDirectory(atPath: parent.string, withIntermediateDirectories: true)
        return parent
    }

    @Test("P2, 9: no backup holds a personal key in clear: passphrase, key and without-keys backups say in their manifest how they hold them")
    func noBackupHoldsAKeyInClear() async throws {
        let (directory, _) = try await InterchangeLedgerTests.makeLedger()
        let keys = try Self.keysInClear(of: directory)
        #expect(keys.count == 3)
        let protections: [(BackupKeyProtection, String)] = [
            (.passphrase(Self.passphrase, cost: Self.cheap), "passphrase"), (.key(BackupRestoreTests.backupKey), "key"), (.withoutKeys, "none"),
        ]
        for (protection, name) in protections {
            let backup = try LedgerBackup.make(from: directory, protection: protection)
            let text = String(decoding: try backup.encoded(), as: UTF8.self)
            for key in keys { #expect(!text.contains(key), "\(name): a personal key is in the backup in clear") }
            #expect(backup.formatVersion == 4 && backup.personalKeys == nil)
            #expect(backup.personalKeyProtection == name)
            #expect(backup.personalKeyHolders?.count == 3)
            #expect((backup.sealedPersonalKeys == nil) == (name == "none"))
            #expect(text.contains("\"personalKeyProtection\" : \"\(name)\""))
        }
        #expect { try LedgerBackup.make(from: directory, protection: .key([1, 2, 3])) } throws: { error in
            (error as? InterchangeError)?.code == "backupKeyInvalid" && "\(error)".contains("32 bytes")
        }
        #expect { try LedgerBackup.make(from: directory, protection: .passphrase("", cost: Self.cheap)) } throws: { error in
            (error as? InterchangeError)?.code == "backupPassphraseEmpty"
        }
    }

    @Test("P2: a passphrase backup restores readable with its passphrase; none, a wrong one, or a key instead are typed errors and write nothing")
    func passphraseBackupRestores() async throws {
        let (directory, history) = try await InterchangeLedgerTests.makeLedger()
        let backup = try LedgerBackup.decode(try LedgerBackup.make(from: directory, protection: .passphrase(Self.passphrase, cost: Self.cheap)).encoded())
        #expect(backup.sealedPersonalKeys?.kdf == "scrypt" && backup.sealedPersonalKeys?.cost == Self.cheap)
        let parent = try Self.scratch()
        let target = parent.appending("restored")
        let failures: [(BackupKeyUnlock?, String, String)] = [
            (nil, "backupKeyRequired", "--passphrase-file"),
            (.passphrase("wrong horse"), "backupKeyWrong", "passphrase does not open"),
            (.key(BackupRestoreTests.backupKey), "backupKeyKindMismatch", "sealed with a passphrase"),
        ]
        for (unlock, code, message) in failures {
            await #expect { try await backup.restore(into: target, options: Self.options(unlock)) } throws: { error in
                (error as? InterchangeError)?.code == code && "\(error)".contains(message)
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: parent.string) == [], "nothing written")
        }
        let report = try await backup.restore(into: target, options: Self.options(.passphrase(Self.passphrase)))
        #expect(!report.keysWereInClear)
        let restored = try LedgerHistory.load(at: target)
        #expect(restored.state == history.state, "names and notes readable with the keys the passphrase opened")
        #expect(try LedgerAudit.audit(at: target).isClean)
    }

    @Test("P2: a key backup opens only with its key; a scrypt cost out of range is backupInvalid before any work")
    func keyBackupAndCostBounds() async throws {
        let (directory, _) = try await InterchangeLedgerTests.makeLedger()
        let parent = try Self.scratch()
        let keyed = try LedgerBackup.make(from: directory, protection: .key(BackupRestoreTests.backupKey))
        await #expect { try await keyed.restore(into: parent.appending("a"), options: Self.options(.key([UInt8](repeating: 8, count: 32)))) } throws: { error in
            (error as? InterchangeError)?.code == "backupKeyWrong"
        }
        await #expect { try await keyed.restore(into: parent.appending("a"), options: Self.options(.passphrase("x"))) } throws: { error in
            (error as? InterchangeError)?.code == "backupKeyKindMismatch"
        }
        var hostile = try LedgerBackup.make(from: directory, protection: .passphrase(Self.passphrase, cost: Self.cheap))
        hostile.sealedPersonalKeys?.cost = ScryptCost(logN: 40, blockSize: 8, parallelism: 1)
        await #expect { try await hostile.sealed().restore(into: parent.appending("a"), options: Self.options(.passphrase(Self.passphrase))) } throws: { error in
            (error as? InterchangeError)?.code == "backupInvalid" && "\(error)".contains("logN 40")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.string) == [])
    }

    @Test("P3, 9: a backup without keys restores readable only over the ledger holding the keys; elsewhere backupKeysOmitted, or accepted with every text unreadable and amounts unchanged (P4)")
    func backupWithoutKeys() async throws {
        let (directory, history) = try await InterchangeLedgerTests.makeLedger()
        let backup = try LedgerBackup.make(from: directory, protection: .withoutKeys)
        let parent = try Self.scratch()
        await #expect { try await backup.restore(into: parent.appending("elsewhere"), options: Self.options(nil)) } throws: { error in
            (error as? InterchangeError)?.code == "backupKeysOmitted" && "\(error)".contains("--replace")
        }
        var accepting = Self.options(nil)
        accepting.acceptingUnreadableTexts = true
        let elsewhere = try await backup.restore(into: parent.appending("elsewhere"), options: accepting)
        #expect(elsewhere.unreadablePeople.count == 3)
        let unreadable = try LedgerHistory.load(at: parent.appending("elsewhere"))
        #expect(unreadable.state.people.values.allSatisfy { $0.name.isRedacted }, "names unreadable, as a forgotten person's")
        #expect(try unreadable.readModels.canonicalJSON().serialized() == history.readModels.canonicalJSON().serialized(), "P4: amounts unchanged")
        #expect(try LedgerAudit.audit(at: parent.appending("elsewhere")).isClean)
        let replaced = try await backup.restore(into: directory, options: Self.options(nil, replacing: true))
        #expect(replaced.keysTakenFromReplacedLedger.count == 3 && replaced.unreadablePeople.isEmpty)
        #expect(try LedgerHistory.load(at: directory).state == history.state, "readable with the replaced ledger's keys")
    }

    @Test("9: a version 3 backup (keys in clear) still restores, and the report says to replace it")
    func version3BackupStillRestores() async throws {
        let (backup, parent, history) = try await BackupRestoreTests.backupAndHistory()
        let legacy = try LedgerBackup.decode(try BackupRestoreTests.legacyVersion3(backup).encoded())
        #expect(legacy.formatVersion == 3 && legacy.personalKeys?.count == 3)
        let report = try await legacy.restore(into: parent.appending("restored"), options: Self.options(nil))
        #expect(report.keysWereInClear)
        #expect(try LedgerHistory.load(at: parent.appending("restored")).state == history.state)
    }

    @Test("US-703: restore --replace swaps in the backup only after it verified and audited; the old ledger is kept beside it; a bad backup leaves the old ledger untouched")
    func replaceExistingLedger() async throws {
        let (directory, history) = try await InterchangeLedgerTests.makeLedger()
        let backup = try LedgerBackup.make(from: directory, protection: .key(BackupRestoreTests.backupKey))
        let ledger = try await Ledger.open(at: directory, options: LedgerOptions(durability: .none))
        let walletID = try #require(history.state.wallets.keys.sorted().first)
        let admin = try #require(history.state.household?.admin)
        try await ledger.execute(Command(
            commandID: CommandID(UUIDValue(high: 0xF1, low: 1)), actor: admin, recordedAt: Timestamp(millisecondsSinceEpoch: 1_772_500_000_000),
            action: .renameWallet(walletID: walletID, name: "Renamed after the backup")))
        await #expect { try await backup.restore(into: directory, options: Self.options(.key(BackupRestoreTests.backupKey), replacing: true)) } throws: { error in
            (error as? InterchangeError)?.code == "replaceRefused" && "\(error)".contains("open for writing")
        }
        try await ledger.close()
        let changed = try LedgerHistory.load(at: directory)
        #expect(changed.lastSequenceNumber == backup.lastSequenceNumber + 1)
        await #expect { try await backup.restore(into: directory, options: Self.options(.key(BackupRestoreTests.backupKey))) } throws: { error in
            (error as? InterchangeError)?.code == "restoreTargetNotEmpty"
        }
        var damaged = backup
        damaged.batches[1].records[0].chainValue = String(repeating: "0", count: 64)
        await #expect { try await damaged.restore(into: directory, options: Self.options(.key(BackupRestoreTests.backupKey), replacing: true)) } throws: { error in
            (error as? InterchangeError)?.code == "backupChainMismatch"
        }
        #expect(try LedgerHistory.load(at: directory).lastSequenceNumber == changed.lastSequenceNumber, "the old ledger is untouched")
        let report = try await backup.restore(into: directory, options: Self.options(.key(BackupRestoreTests.backupKey), replacing: true))
        let kept = try #require(report.replacedLedgerKeptAt)
        #expect(kept == LedgerDirectory(directory).replaced(number: 1))
        #expect(try LedgerHistory.load(at: directory).state == history.state, "the backup's data replaced the current data")
        #expect(try LedgerHistory.load(at: kept).lastSequenceNumber == changed.lastSequenceNumber, "the replaced ledger is kept whole")
        #expect(!FileManager.default.fileExists(atPath: LedgerDirectory(directory).restoring.string))
        let again = try await backup.restore(into: directory, options: Self.options(.key(BackupRestoreTests.backupKey), replacing: true))
        #expect(again.replacedLedgerKeptAt == LedgerDirectory(directory).replaced(number: 2))
    }

    @Test("US-703, encryption at rest: replacing an encrypted ledger needs its key (restoreWouldDecrypt) and the restored ledger is encrypted with it")
    func replaceKeepsEncryptionAtRest() async throws {
        let parent = try Self.scratch()
        let directory = parent.appending("ledger")
        var ledgerOptions = LedgerOptions(durability: .none)
        let encryption = try JournalEncryption(keyID: 1, key: [UInt8](repeating: 9, count: 32))
        ledgerOptions.encryption = encryption
        let ledger = try await Ledger.open(at: directory, options: ledgerOptions)
        for command in try CommandParser.parse(lines: String(contentsOf: InterchangeLedgerTests.household, encoding: .utf8)) { try await ledger.execute(command) }
        try await ledger.close()
        let history = try LedgerHistory.load(at: directory, encryption: encryption)
        let backup = try LedgerBackup.make(from: directory, encryption: encryption, protection: .key(BackupRestoreTests.backupKey))
        await #expect { try await backup.restore(into: directory, options: Self.options(.key(BackupRestoreTests.backupKey), replacing: true)) } throws: { error in
            (error as? InterchangeError)?.code == "restoreWouldDecrypt" && "\(error)".contains("--key-file")
        }
        try await backup.restore(into: directory, options: Self.options(.key(BackupRestoreTests.backupKey), replacing: true, encryption: encryption))
        #expect { try LedgerHistory.load(at: directory) } throws: { error in
            (error as? InterchangeError)?.code == "encryptionKeyMissing"
        }
        #expect(try LedgerHistory.load(at: directory, encryption: encryption).state == history.state)
        #expect(try LedgerAudit.audit(at: directory, encryption: encryption).isClean)
        let keyFile = try #require(FileManager.default.contents(atPath: LedgerDirectory(directory).personalKeys.string))
        #expect(keyFile.starts(with: Array("TALLYPK3".utf8)) && keyFile[8] == 1, "the key file's records are sealed with the ledger's key")
    }

    @Test("P3: people forgotten in the replaced ledger stay forgotten when an older backup that still holds their key replaces it")
    func forgottenStayForgottenAcrossReplace() async throws {
        let (directory, _) = try await InterchangeLedgerTests.makeLedger()
        let backup = try LedgerBackup.make(from: directory, protection: .key(BackupRestoreTests.backupKey))
        let ledger = try await Ledger.open(at: directory, options: LedgerOptions(durability: .none))
        let now = Timestamp(millisecondsSinceEpoch: 1_772_400_000_000)
        try await ledger.execute([
            Command(commandID: CommandID(UUIDValue(high: 0xF0, low: 1)), actor: PersonalDataExportTests.alice, recordedAt: now,
                    action: .removeMember(personID: PersonalDataExportTests.bob, acknowledgeUnsettled: true)),
            Command(commandID: CommandID(UUIDValue(high: 0xF0, low: 2)), actor: PersonalDataExportTests.alice, recordedAt: now,
                    action: .forgetPerson(personID: PersonalDataExportTests.bob)),
        ])
        try await ledger.close()
        let report = try await backup.restore(into: directory, options: Self.options(.key(BackupRestoreTests.backupKey), replacing: true))
        #expect(report.keptForgotten == [PersonalDataExportTests.bob])
        let restored = try LedgerHistory.load(at: directory)
        #expect(restored.state.people[PersonalDataExportTests.bob]?.name.isRedacted == true)
        #expect(restored.state.people[PersonalDataExportTests.alice]?.name.text == "Alice")
    }
}
