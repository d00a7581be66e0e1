import SystemPackage
import TallyJournal
import TallyTestSupport
import Testing

@Suite("Journal encryption at rest")
struct JournalEncryptionTests {
    static let key1 = [UInt8](repeating: 0x11, count: 32)
    static let key2 = [UInt8](repeating: 0x22, count: 32)
    static let secret = Array("Salary ACME AG, note: therapy".utf8)

    func options(_ encryption: JournalEncryption?) -> JournalOptions {
        var options = smallSegmentOptions()
        options.encryption = encryption
        return options
    }

    func writeEncrypted(_ fileSystem: FaultInjectingFileSystem, batches: Int = 6) async throws -> [NewRecord] {
        let journal = try Journal.open(at: journalPath, options: options(try JournalEncryption(keyID: 1, key: Self.key1)), fileSystem: fileSystem)
        var written: [NewRecord] = []
        for index in 0..<batches {
            let record = NewRecord(recordedAtMilliseconds: Int64(index), typeTag: 400, schemaVersion: 1, payload: Self.secret + [UInt8(index)])
            try await journal.append([record, record])
            written += [record, record]
        }
        try journal.close()
        return written
    }

    @Test("encrypted frames read back with the key, and the plaintext never reaches the disk")
    func roundTripAndNoPlaintextOnDisk() async throws {
        let fileSystem = FaultInjectingFileSystem()
        let written = try await writeEncrypted(fileSystem)
        let encryption = try JournalEncryption(keyID: 1, key: Self.key1)
        let records = try JournalReader.open(at: journalPath, fileSystem: fileSystem, encryption: encryption).records()
        #expect(records.count == written.count)
        #expect(zip(records, written).allSatisfy { $0.matches($1) })
        for name in try segmentNames(fileSystem) {
            let bytes = try #require(fileSystem.contents(of: journalPath.appending(name)))
            let found = bytes.indices.dropLast(Self.secret.count).contains { bytes[$0..<($0 + 6)].elementsEqual(Self.secret.prefix(6)) }
            #expect(!found, "plaintext in \(name)")
        }
    }

    @Test("a missing or wrong key is a typed error at open, for writers and readers, never garbage")
    func wrongOrMissingKey() async throws {
        let fileSystem = FaultInjectingFileSystem()
        _ = try await writeEncrypted(fileSystem)
        let wrong = try JournalEncryption(keyID: 1, key: Self.key2)
        #expect { try Journal.open(at: journalPath, options: options(wrong), fileSystem: fileSystem) } throws: { error in
            (error as? JournalError)?.code == "wrongEncryptionKey"
        }
        #expect { try Journal.open(at: journalPath, options: options(nil), fileSystem: fileSystem) } throws: { error in
            (error as? JournalError)?.code == "encryptionKeyMissing"
        }
        #expect { try JournalReader.open(at: journalPath, fileSystem: fileSystem, encryption: wrong) } throws: { error in
            (error as? JournalError)?.code == "wrongEncryptionKey"
        }
        #expect { try JournalReader.open(at: journalPath, fileSystem: fileSystem) } throws: { error in
            (error as? JournalError)?.code == "encryptionKeyMissing"
        }
    }

    @Test("verify checks CRC and chain without the key, and decrypts every frame with it")
    func verifyWithAndWithoutKey() async throws {
        let fileSystem = FaultInjectingFileSystem()
        let written = try await writeEncrypted(fileSystem)
        let withoutKey = try JournalVerifier.verify(at: journalPath, fileSystem: fileSystem)
        #expect(withoutKey.isClean)
        #expect(withoutKey.encryptedFramesNotDecrypted == written.count / 2)
        let withKey = try JournalVerifier.verify(at: journalPath, encryption: try JournalEncryption(keyID: 1, key: Self.key1), fileSystem: fileSystem)
        #expect(withKey.isClean && withKey.encryptedFramesNotDecrypted == 0)
        let wrongKey = try JournalVerifier.verify(at: journalPath, encryption: try JournalEncryption(keyID: 1, key: Self.key2), fileSystem: fileSystem)
        #expect(wrongKey.problems.count == written.count / 2)
        #expect(wrongKey.problems.allSatisfy { $0.kind == .decryptionFailed })
    }

    @Test("key rotation: new frames use the new key, old frames stay readable with the key list")
    func keyRotation() async throws {
        let fileSystem = FaultInjectingFileSystem()
        let first = try await writeEncrypted(fileSystem, batches: 3)
        let rotated = try JournalEncryption(keyID: 1, key: Self.key1).rotated(toKeyID: 2, key: Self.key2)
        let journal = try Journal.open(at: journalPath, options: options(rotated), fileSystem: fileSystem)
        let later = NewRecord(recordedAtMilliseconds: 99, typeTag: 1, schemaVersion: 1, payload: [9, 9, 9])
        try await journal.append([later])
        try journal.close()
        let all = try JournalReader.open(at: journalPath, fileSystem: fileSystem, encryption: rotated).records()
        #expect(all.count == first.count + 1 && all.last?.matches(later) == true)
        let onlyNewKey = try JournalEncryption(keyID: 2, key: Self.key2)
        let reader = try JournalReader.open(at: journalPath, fileSystem: fileSystem, encryption: onlyNewKey)
        #expect(try reader.records(from: UInt64(first.count + 1)).count == 1)
        #expect { try reader.records() } throws: { error in
            guard case JournalError.encryptionKeyMissing(let keyID, let location) = error else { return false }
            return keyID == 1 && location.offset == 64
        }
    }

    @Test("encryption keys of the wrong size or id 0 are refused")
    func invalidKeys() {
        #expect(throws: JournalError.self) { try JournalEncryption(keyID: 1, key: [1, 2, 3]) }
        #expect(throws: JournalError.self) { try JournalEncryption(keyID: 0, key: Self.key1) }
    }
}
