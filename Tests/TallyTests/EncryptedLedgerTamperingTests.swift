import Foundation
import SystemPackage
import Tally
import TallyJournal
import TallyTestSupport
import Testing

/// Sealed files beside an encrypted journal (checkpoints, `personal-keys`) altered on disk:
/// AES-GCM refuses them with a typed reason, never garbage.
@Suite("Encrypted ledger tampering", .serialized)
struct EncryptedLedgerTamperingTests {
    static func encryptedLedger(_ label: String) async throws -> (TemporaryDirectory, FilePath, LedgerOptions, live: String) {
        let directory = try TemporaryDirectory(label)
        let path = directory.appending("ledger")
        var options = LedgerOptions(durability: .none)
        options.encryption = try JournalEncryption(keyID: 1, key: [UInt8](repeating: 9, count: 32))
        var s = Scenario()
        let ledger = try await Ledger.open(at: path, options: options)
        try await ledger.execute(s.setup())
        try await ledger.execute(s.command(.recordTransaction(s.ids.next(), s.expense(4_250, shared: true))))
        let live = try await ledger.readModels.canonicalJSON().text
        try await ledger.close()
        return (directory, path, options, live)
    }

    static func flipByte(in file: String, at offset: (Int) -> Int) throws {
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        bytes[offset(bytes.count)] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: file))
    }

    @Test("encryption guarantee: an altered sealed checkpoint is rejected (it does not open with the key) and the ledger replays in full")
    func alteredSealedCheckpoint() async throws {
        let (directory, path, options, live) = try await Self.encryptedLedger("tally-tamper-ckp")
        defer { directory.remove() }
        let checkpoints = path.appending(LedgerDirectory.checkpointsName).string
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: checkpoints).first { $0.hasSuffix(LedgerDirectory.checkpointSuffix) })
        try Self.flipByte(in: checkpoints + "/" + name) { $0 / 2 }
        let reopened = try await Ledger.open(at: path, options: options)
        #expect(reopened.openReport.checkpointSequenceNumber == nil)
        #expect(reopened.openReport.rejectedCheckpoints.count == 1)
        #expect(reopened.openReport.rejectedCheckpoints.first?.hasPrefix(name) == true)
        #expect(reopened.openReport.rejectedCheckpoints.first?.contains("wrongEncryptionKey") == true, "\(reopened.openReport.rejectedCheckpoints)")
        #expect(try await reopened.readModels.canonicalJSON().text == live)
        try await reopened.close()
    }

    @Test("encryption guarantee: an altered sealed personal-keys file fails open with wrongEncryptionKey located at the personal-keys file")
    func alteredSealedPersonalKeys() async throws {
        let (directory, path, options, _) = try await Self.encryptedLedger("tally-tamper-keys")
        defer { directory.remove() }
        try Self.flipByte(in: path.appending(LedgerDirectory.personalKeysName).string) { $0 - 1 }
        do {
            let ledger = try await Ledger.open(at: path, options: options)
            try await ledger.close()
            Issue.record("a ledger with an altered personal-keys file opened")
        } catch {
            #expect(error.code == "wrongEncryptionKey", "\(error)")
            #expect(error.message.contains(LedgerDirectory.personalKeysName), "\(error)")
        }
        #expect(throws: LedgerError.self) { try LedgerReplay.replay(at: path, encryption: options.encryption) }
    }
}
