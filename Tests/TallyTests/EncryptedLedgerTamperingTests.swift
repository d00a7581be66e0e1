import Foundation
import SystemPackage
@testable import Tally
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
        try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(4_250, shared: true))))
        let live = try await ledger.readModels.canonicalJSON().text
        try await ledger.close()
        return (directory, path, options, live)
    }

    static func flipByte(in file: String, at offset: (Int) -> Int) throws {
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        bytes[offset(bytes.count)] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: file))
    }

    @Test("encryption guarantee: a sealed store (which holds the checkpoint) altered in every page after the first is not used: no checkpoint is read from it, the store is rebuilt and the ledger replays in full")
    func alteredSealedCheckpoint() async throws {
        let (directory, path, options, live) = try await Self.encryptedLedger("tally-tamper-ckp")
        defer { directory.remove() }
        #expect(LedgerDirectory(path).checkpointSequenceNumber(encryption: options.encryption) != nil)
        let store = LedgerDirectory(path).readSideStore.string
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: store)))
        for offset in stride(from: 4_096 + 100, to: bytes.count, by: 4_096) { bytes[offset] ^= 0x01 }
        try Data(bytes).write(to: URL(fileURLWithPath: store))
        let reopened = try await Ledger.open(at: path, options: options)
        #expect(reopened.openReport.checkpointSequenceNumber == nil)
        #expect(reopened.openReport.readSide.hasPrefix("rebuilt"), "\(reopened.openReport.readSide)")
        #expect(try await reopened.readModels.canonicalJSON().text == live)
        try await reopened.close()
    }

    @Test("encryption guarantee: a sealed personal-keys record altered with its checksum recomputed fails open with wrongEncryptionKey located at the personal-keys file; altered without, it is damage at its offset")
    func alteredSealedPersonalKeys() async throws {
        let (directory, path, options, _) = try await Self.encryptedLedger("tally-tamper-keys")
        defer { directory.remove() }
        let keyFile = path.appending(LedgerDirectory.personalKeysName).string
        let good = try [UInt8](Data(contentsOf: URL(fileURLWithPath: keyFile)))
        let body = try #require(PersonalKeyFile.checkedRecord(good, at: PersonalKeyFile.headerBytes))
        // One bit of the first record's ciphertext, its CRC32C recomputed (what a tamperer does).
        var altered = good
        altered[body.lowerBound + 20] ^= 0x01
        let checksum = CRC32C.checksum(Array(altered[PersonalKeyFile.headerBytes..<body.upperBound]))
        altered.replaceSubrange(body.upperBound..<(body.upperBound + 4), with: withUnsafeBytes(of: checksum.littleEndian) { Array($0) })
        try Data(altered).write(to: URL(fileURLWithPath: keyFile))
        do {
            let ledger = try await Ledger.open(at: path, options: options)
            try await ledger.close()
            Issue.record("a ledger with an altered personal-keys file opened")
        } catch {
            #expect(error.code == "wrongEncryptionKey", "\(error)")
            #expect(error.message.contains(LedgerDirectory.personalKeysName), "\(error)")
        }
        #expect(throws: LedgerError.self) { try LedgerReplay.replay(at: path, encryption: options.encryption) }
        // The same bit without the checksum: damage, found without the key.
        var flipped = good
        flipped[body.lowerBound + 20] ^= 0x01
        try Data(flipped).write(to: URL(fileURLWithPath: keyFile))
        await #expect(performing: { try await Ledger.open(at: path, options: options) }, throws: { error in
            guard let error = error as? LedgerError, case .personalKeys(let message) = error else { return false }
            return message.contains("offset \(PersonalKeyFile.headerBytes)")
        })
    }
}
