import Synchronization
import SystemPackage
import TallyJournal
import TallyModel

/// The per-person keys that seal ``PersonalText`` (P2 in `Docs/Security.md`), kept in the file
/// `personal-keys` beside the journal.
///
/// Every person gets a random 256-bit AES-GCM key the first time a text of theirs is sealed.
/// Forgetting a person (P3) replaces their key by a tombstone: from then on their texts cannot be
/// opened by anyone, in the journal, in old backups of the journal, or in copies of it.
///
/// A new key is written to disk (``persist(acknowledgedThrough:)``) before the journal append that uses it, so an
/// acknowledged event is never sealed with a key that a crash could lose.
///
/// File layout (`TALLYPK2`), little-endian:
///
/// | field | bytes |
/// |---|---|
/// | magic `TALLYPK2` | 8 |
/// | acknowledged through: the last sequence number acknowledged when the file was written | 8 |
/// | entry count | 4 |
/// | per entry: person id, then 1 + 32-byte key, or 2 (forgotten) | 17 or 49 |
/// | CRC32C of everything before | 4 |
///
/// The "acknowledged through" field is evidence against a truncated journal (`JournalEvidence`):
/// the file is written before the append that uses a new key, after every earlier record was
/// acknowledged (and synced), so a journal ending before it lost acknowledged records.
/// `TALLYPK1` files (without the field) still load, as evidence of nothing.
///
/// When the ledger is encrypted at rest the file is `TALLYPKE` followed by
/// `JournalEncryption.sealBlob` of the plain layout, like a checkpoint.
package final class PersonalKeyRing: PersonalTextCipher {
    static let magic: [UInt8] = Array("TALLYPK2".utf8)
    /// The first layout, without the "acknowledged through" field; still read.
    static let magicVersion1: [UInt8] = Array("TALLYPK1".utf8)
    static let sealedMagic: [UInt8] = Array("TALLYPKE".utf8)

    private struct Contents: Sendable {
        /// 32-byte AES-256 keys by person.
        var keys: [PersonID: [UInt8]] = [:]
        var forgotten: Set<PersonID> = []
        /// Keys created since the last ``persist(acknowledgedThrough:)``.
        var unpersisted: Set<PersonID> = []
        var isDirty: Bool { !unpersisted.isEmpty }
        /// The last sequence number acknowledged when the file was last written.
        var acknowledgedThrough: UInt64 = 0
        /// Owners of texts that did not open although they were never forgotten, with the count.
        var unopened: [PersonID: Int] = [:]
    }

    private let contents: Mutex<Contents>
    /// Where the file lives and how it is written.
    private let path: FilePath
    private let fileSystem: any FileSystem
    private let encryption: JournalEncryption?
    /// A read-only ring never creates keys: replay and audit tools only open texts.
    private let isReadOnly: Bool

    private init(
        contents: Contents, path: FilePath, fileSystem: any FileSystem, encryption: JournalEncryption?, isReadOnly: Bool
    ) {
        self.contents = Mutex(contents)
        self.path = path
        self.fileSystem = fileSystem
        self.encryption = encryption
        self.isReadOnly = isReadOnly
    }

    /// Loads the key file of the ledger in `directory`; a missing file is an empty ring.
    /// - Throws: ``LedgerError/personalKeys(_:)`` when the file is damaged or sealed and no
    ///   `encryption` was given; ``LedgerError/storage(_:)`` when it cannot be read or the
    ///   encryption key is wrong (`wrongEncryptionKey`, `encryptionKeyMissing`).
    package static func load(
        ledgerDirectory directory: FilePath, fileSystem: any FileSystem, encryption: JournalEncryption?,
        readOnly: Bool = false
    ) throws(LedgerError) -> PersonalKeyRing {
        let path = LedgerDirectory(directory).personalKeys
        var contents = Contents()
        if fileSystem.fileExists(at: path) {
            let bytes: [UInt8]
            do {
                let file = try fileSystem.openFile(at: path, writable: false)
                bytes = try file.readBytes(count: Int(try file.size()), at: 0)
            } catch {
                throw .storage(JournalError(error, operation: "read personal keys", path: path))
            }
            contents = try decode(try unsealed(bytes, path: path, encryption: encryption), path: path)
        }
        return PersonalKeyRing(contents: contents, path: path, fileSystem: fileSystem, encryption: encryption, isReadOnly: readOnly)
    }

    // MARK: PersonalTextCipher

    package func seal(_ text: String, owner: PersonID) -> [UInt8]? {
        let key: [UInt8]? = contents.withLock { contents in
            guard !contents.forgotten.contains(owner) else { return nil }
            if let key = contents.keys[owner] { return key }
            guard !isReadOnly else { return nil }
            let key = AESGCMBox.randomKey()
            contents.keys[owner] = key
            contents.unpersisted.insert(owner)
            return key
        }
        guard let key else { return nil }
        return AESGCMBox.seal(Array(text.utf8), key: key, context: Self.context(owner))
    }

    package func open(_ sealed: ArraySlice<UInt8>, owner: PersonID) -> String? {
        let key: [UInt8]? = contents.withLock { contents in
            if let key = contents.keys[owner] { return key }
            if !contents.forgotten.contains(owner) { contents.unopened[owner, default: 0] += 1 }
            return nil
        }
        guard let key else { return nil }
        guard let plain = AESGCMBox.open(sealed, key: key, context: Self.context(owner)),
              let text = String(validating: plain, as: UTF8.self)
        else {
            contents.withLock { $0.unopened[owner, default: 0] += 1 }
            return nil
        }
        return text
    }

    package func hasForgotten(_ owner: PersonID) -> Bool { contents.withLock { $0.forgotten.contains(owner) } }

    /// The owner's id is authenticated with each text, so a sealed text cannot be moved to
    /// another person's field.
    private static func context(_ owner: PersonID) -> [UInt8] {
        var writer = BinaryWriter(reservingCapacity: 16)
        writer.write(owner)
        return writer.bytes
    }

    // MARK: Keys

    /// Every key and tombstone, for a backup that must restore readable (`LedgerBackup`).
    package var snapshot: (keys: [PersonID: [UInt8]], forgotten: Set<PersonID>) {
        contents.withLock { ($0.keys, $0.forgotten) }
    }

    /// Writes a key file holding `keys` and `forgotten` into the ledger in `directory`
    /// (restoring a backup into an empty ledger).
    package static func install(
        keys: [PersonID: [UInt8]], forgotten: Set<PersonID>, ledgerDirectory directory: FilePath,
        fileSystem: any FileSystem, encryption: JournalEncryption?
    ) throws(LedgerError) {
        guard keys.values.allSatisfy({ $0.count == AESGCMBox.keyBytes }) else {
            throw .personalKeys("a personal key must be 32 bytes (AES-256)")
        }
        let ring = PersonalKeyRing(
            contents: Contents(keys: keys, forgotten: forgotten), path: LedgerDirectory(directory).personalKeys,
            fileSystem: fileSystem, encryption: encryption, isReadOnly: false)
        try ring.write(encode(Contents(keys: keys, forgotten: forgotten)))
    }

    /// Whether `person` has a key (they have personal text that can still be read).
    func hasKey(for person: PersonID) -> Bool { contents.withLock { $0.keys[person] != nil } }

    /// The length of a key fingerprint.
    static let fingerprintBytes = 32

    /// Per key holder, HMAC-SHA256 of their person id under their key: tells one key from
    /// another without revealing anything of it (checkpoints record them, see
    /// `FoldedState.keyFingerprintsSection`).
    var fingerprints: [PersonID: [UInt8]] {
        let keys = contents.withLock { $0.keys }
        var fingerprints: [PersonID: [UInt8]] = [:]
        for (person, key) in keys {
            var writer = BinaryWriter(reservingCapacity: 16)
            writer.write(person)
            let label = Array("tally personal key fingerprint".utf8)
            fingerprints[person] = writer.bytes.withUnsafeBytes { id in
                label.withUnsafeBytes { HashChain(key: key).next(after: .genesis, header: id, payload: $0).bytes }
            }
        }
        return fingerprints
    }

    /// The people forgotten so far.
    package var forgotten: Set<PersonID> { contents.withLock { $0.forgotten } }

    /// Texts that did not open since the ring was loaded although their owner was never
    /// forgotten (their key is missing or the bytes are damaged), by owner.
    var unopened: [PersonID: Int] { contents.withLock { $0.unopened } }

    /// Forgets the counts of ``unopened`` (before a second replay counts them again).
    func resetUnopened() { contents.withLock { $0.unopened = [:] } }

    /// Whether keys were created since the last write.
    var hasUnpersistedKeys: Bool { contents.withLock { $0.isDirty } }

    /// What the file proves about the journal (nil when it proves nothing).
    var evidence: JournalEvidence? {
        let through = contents.withLock { $0.acknowledgedThrough }
        return through == 0 ? nil : JournalEvidence(lastSequenceNumber: through, source: LedgerDirectory.personalKeysName)
    }

    /// Writes the ring if keys were created since the last write (atomically, durably),
    /// recording that every record through `acknowledgedThrough` was acknowledged.
    func persist(acknowledgedThrough: UInt64) throws(LedgerError) {
        let bytes: [UInt8]? = contents.withLock { contents in
            guard contents.isDirty else { return nil }
            var next = contents
            next.acknowledgedThrough = max(contents.acknowledgedThrough, acknowledgedThrough)
            return Self.encode(next)
        }
        guard let bytes else { return }
        try write(bytes)
        contents.withLock { contents in
            contents.unpersisted = []
            contents.acknowledgedThrough = max(contents.acknowledgedThrough, acknowledgedThrough)
        }
    }

    /// Drops the keys created since the last write: the batch that needed them was refused
    /// before its append, so no record is sealed with them and none may linger on disk.
    func discardUnpersisted() {
        contents.withLock { contents in
            for person in contents.unpersisted { contents.keys[person] = nil }
            contents.unpersisted = []
        }
    }

    /// Lowers the evidence the file holds to `sequenceNumber` (an explicit repair that accepts
    /// the loss of later records), durably.
    func lowerEvidence(to sequenceNumber: UInt64) throws(LedgerError) {
        let bytes = contents.withLock { contents in
            var next = contents
            next.acknowledgedThrough = min(contents.acknowledgedThrough, sequenceNumber)
            return Self.encode(next)
        }
        try write(bytes)
        contents.withLock { $0.acknowledgedThrough = min($0.acknowledgedThrough, sequenceNumber) }
    }

    /// Destroys the keys of `people` and records them as forgotten, durably (P3).
    /// The ring in memory changes only once the file is written, so decoding never redacts a
    /// text whose key is still on disk (replay from the files would read it).
    func forget(_ people: some Sequence<PersonID>) throws(LedgerError) {
        let people = Array(people)
        func forgetting(_ contents: inout Contents) {
            for person in people {
                contents.keys[person] = nil
                contents.forgotten.insert(person)
            }
        }
        let bytes = contents.withLock { contents in
            var next = contents
            forgetting(&next)
            return Self.encode(next)
        }
        try write(bytes)
        contents.withLock { contents in
            forgetting(&contents)
        }
    }

    private func write(_ plain: [UInt8]) throws(LedgerError) {
        var bytes = plain
        if let encryption {
            guard let sealed = encryption.sealBlob(plain, context: Self.sealedMagic) else {
                throw .personalKeys("the key file could not be sealed with the ledger's encryption key")
            }
            bytes = Self.sealedMagic + sealed
        }
        do {
            try fileSystem.replaceAtomically(path, with: bytes)
        } catch {
            throw .storage(JournalError(error, operation: "write personal keys", path: path))
        }
    }

    // MARK: File format

    private static func encode(_ contents: Contents) -> [UInt8] {
        var bytes = magic
        withUnsafeBytes(of: contents.acknowledgedThrough.littleEndian) { bytes += $0 }
        let people = Set(contents.keys.keys).union(contents.forgotten).sorted { $0.description < $1.description }
        withUnsafeBytes(of: UInt32(people.count).littleEndian) { bytes += $0 }
        for person in people {
            var writer = BinaryWriter(reservingCapacity: 16)
            writer.write(person)
            bytes += writer.bytes
            if let key = contents.keys[person] {
                bytes.append(1)
                bytes += key
            } else {
                bytes.append(2)
            }
        }
        withUnsafeBytes(of: CRC32C.checksum(bytes).littleEndian) { bytes += $0 }
        return bytes
    }

    private static func unsealed(_ bytes: [UInt8], path: FilePath, encryption: JournalEncryption?) throws(LedgerError) -> [UInt8] {
        guard bytes.starts(with: sealedMagic) else { return bytes }
        guard let encryption else {
            // The same error the journal gives for its own sealed frames (the key file is
            // read before the journal, to gather evidence).
            let sealed = bytes.dropFirst(sealedMagic.count)
            let keyID = sealed.count >= 2 ? UInt16(sealed[sealed.startIndex]) | UInt16(sealed[sealed.startIndex + 1]) << 8 : 0
            throw .storage(.encryptionKeyMissing(keyID: keyID, location: JournalLocation(segment: LedgerDirectory.personalKeysName, offset: 0)))
        }
        do {
            return try encryption.openBlob(
                Array(bytes.dropFirst(sealedMagic.count)), context: sealedMagic,
                location: JournalLocation(segment: LedgerDirectory.personalKeysName, offset: 0))
        } catch {
            throw .storage(error)
        }
    }

    private static func decode(_ bytes: [UInt8], path: FilePath) throws(LedgerError) -> Contents {
        func damaged(_ reason: String) -> LedgerError {
            .personalKeys("\(path) is damaged (\(reason)); restore it from a backup of the ledger directory")
        }
        let isVersion1 = bytes.starts(with: magicVersion1)
        guard bytes.count >= magic.count + (isVersion1 ? 8 : 16), bytes.starts(with: magic) || isVersion1 else {
            throw damaged("not a TALLYPK2 (or TALLYPK1) file")
        }
        let body = Array(bytes.dropLast(4))
        let stored = bytes.suffix(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard stored == CRC32C.checksum(body) else { throw damaged("checksum mismatch") }
        var reader = BinaryReader(Array(body.dropFirst(magic.count)))
        var contents = Contents()
        do {
            if !isVersion1 {
                contents.acknowledgedThrough = try reader.readRawBytes(count: 8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            }
            let count = try reader.readRawBytes(count: 4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            for _ in 0..<count {
                let person: PersonID = try reader.read()
                switch try reader.readByte() {
                case 1: contents.keys[person] = Array(try reader.readRawBytes(count: 32))
                case 2: contents.forgotten.insert(person)
                case let other: throw damaged("entry kind \(other)")
                }
            }
            try reader.finish()
        } catch let error as LedgerError {
            throw error
        } catch {
            throw damaged("\(error)")
        }
        return contents
    }
}
