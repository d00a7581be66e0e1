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
/// A new key is written to disk (``persist(acknowledgedThrough:)``) before the journal append
/// that uses it, so an acknowledged event is never sealed with a key that a crash could lose.
/// It is *appended* as one self-checking record and the file synced (`fdatasync`), so adding a
/// person costs the same with 10,000 people as with 10. Forgetting, lowering the evidence and
/// restoring rewrite the file whole (temporary file, fsync, rename, directory fsync): forgetting
/// must destroy the key's bytes, so it costs O(people), and is rare.
///
/// File layout `TALLYPK3` (``PersonalKeyFile``), little-endian:
///
/// | field | bytes |
/// |---|---|
/// | magic `TALLYPK3` | 8 |
/// | form: `0` records in clear, `1` each record's body sealed | 1 |
/// | reserved, zero | 3 |
/// | CRC32C of the 12 bytes before | 4 |
/// | records, to the end of the file: | |
/// | - marker `TPKR` | 4 |
/// | - body length n (at most 200,746) | 4 |
/// | - body | n |
/// | - CRC32C of marker, length and body | 4 |
///
/// A body in clear: acknowledged through (8: the last sequence number acknowledged when the
/// record was written), entry count (4, at most 4,096), then per entry the person id (16) and
/// `1` + the 32-byte key, or `2` (forgotten). Sealed (a ledger encrypted at rest): the body is
/// `JournalEncryption.sealBlob` of that body, the magic authenticated (key id 2, nonce 12,
/// ciphertext, tag 16), so no key, id or count is in clear. A person appears once per file.
///
/// The "acknowledged through" fields are evidence against a truncated journal
/// (`JournalEvidence`): a record is written before the append that uses its keys, after every
/// earlier record was acknowledged (and synced), so a journal ending before the highest of
/// them lost acknowledged records.
///
/// A crash during an append leaves a torn last record: a writer's ``load`` cuts it (no
/// acknowledged event used its keys), a read-only one ignores it and changes nothing. A record
/// that fails its checksum anywhere else, or any other bytes, are damage
/// (``LedgerError/personalKeys(_:)`` naming the file and offset; `PersonalKeyFile+Tail.swift`).
/// Files in the older layouts (`TALLYPK2`, `TALLYPK1`, `TALLYPKE`; `PersonalKeyFile+Legacy.swift`)
/// still load; the first write replaces them by a `TALLYPK3` file.
package final class PersonalKeyRing: PersonalTextCipher {
    struct Contents: Sendable {
        /// 32-byte AES-256 keys by person (changed through ``setKey(_:for:)``, which keeps
        /// ``fingerprints`` with them).
        private(set) var keys: [PersonID: [UInt8]] = [:]
        /// The fingerprint of each key (``PersonalKeyRing/fingerprint(of:for:)``), made when the
        /// key is: a checkpoint lists them without hashing every key again (O(people) per
        /// checkpoint, or per commit while a checkpoint is due and cannot be written).
        private(set) var fingerprints: [PersonID: [UInt8]] = [:]

        init() {}

        /// Contents holding `keys` (each with its fingerprint) and `forgotten`.
        init(keys: [PersonID: [UInt8]], forgotten: Set<PersonID>) {
            for (person, key) in keys { setKey(key, for: person) }
            self.forgotten = forgotten
        }

        /// How many keys were set since the ring was loaded (made, loaded or adopted): what a
        /// synced device compares to know whether it holds a key it has not shared.
        private(set) var keysSet: UInt64 = 0

        /// Sets (nil: removes) the key of `person`, and its fingerprint with it.
        mutating func setKey(_ key: [UInt8]?, for person: PersonID) {
            if key != nil { keysSet &+= 1 }
            keys[person] = key
            fingerprints[person] = key.map { PersonalKeyRing.fingerprint(of: $0, for: person) }
        }
        var forgotten: Set<PersonID> = []
        /// Keys created since the last ``persist(acknowledgedThrough:)``.
        var unpersisted: Set<PersonID> = []
        var isDirty: Bool { !unpersisted.isEmpty }
        /// The highest "acknowledged through" the file holds.
        var acknowledgedThrough: UInt64 = 0
        /// Where the next record is appended: the end of the file when it is a `TALLYPK3` file
        /// of the ring's form as this ring last read or wrote it; nil when the next write must
        /// rewrite the file (none yet, an older layout, another form, or a failed append).
        var appendOffset: Int64?
        /// Owners of texts that did not open although they were never forgotten, with the count.
        var unopened: [PersonID: Int] = [:]

        /// What the file holds, keys made since the last write left out unless `including` them.
        func stored(includingUnpersisted including: Bool = false) -> PersonalKeyFile.Contents {
            PersonalKeyFile.Contents(
                keys: including || unpersisted.isEmpty ? keys : keys.filter { !unpersisted.contains($0.key) },
                forgotten: forgotten, acknowledgedThrough: acknowledgedThrough)
        }
    }

    let contents: Mutex<Contents>
    /// Where the file lives and how it is written.
    let path: FilePath
    let fileSystem: any FileSystem
    let encryption: JournalEncryption?
    /// A read-only ring never creates keys: replay and audit tools only open texts.
    private let isReadOnly: Bool
    /// A keyless ring (a sync server's, `LedgerOptions.keyless`) holds tombstones only: it never
    /// creates a key, and a text it cannot open is expected, not counted as ``unopened``.
    private let isKeyless: Bool

    init(
        contents: Contents, path: FilePath, fileSystem: any FileSystem, encryption: JournalEncryption?, isReadOnly: Bool,
        isKeyless: Bool = false
    ) {
        self.contents = Mutex(contents)
        self.path = path
        self.fileSystem = fileSystem
        self.encryption = encryption
        self.isReadOnly = isReadOnly
        self.isKeyless = isKeyless
    }

    /// Loads the key file of the ledger in `directory`; a missing file is an empty ring. A
    /// writer (`readOnly` false, under the journal's writer lock) cuts a torn last record; a
    /// read-only load ignores it and never changes the file.
    /// - Throws: ``LedgerError/personalKeys(_:)`` when the file is damaged (naming the offset);
    ///   ``LedgerError/storage(_:)`` when it cannot be read or cut, or a sealed file or record
    ///   does not open (`wrongEncryptionKey`, `encryptionKeyMissing`).
    package static func load(
        ledgerDirectory directory: FilePath, fileSystem: any FileSystem, encryption: JournalEncryption?,
        readOnly: Bool = false, keyless: Bool = false
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
            let loaded = try PersonalKeyFile.read(bytes, path: path, encryption: encryption)
            for (person, key) in loaded.contents.keys { contents.setKey(key, for: person) }
            contents.forgotten = loaded.contents.forgotten
            contents.acknowledgedThrough = loaded.contents.acknowledgedThrough
            if let torn = loaded.tornTail, !readOnly {
                do {
                    let file = try fileSystem.openFile(at: path, writable: true)
                    try file.truncate(to: Int64(torn.lowerBound))
                    try file.synchronize()
                } catch {
                    throw .storage(JournalError(error, operation: "cut a torn record from personal keys", path: path))
                }
            }
            if let appendable = loaded.appendable, appendable.form == PersonalKeyFile.Form(encryption: encryption) {
                contents.appendOffset = Int64(appendable.end)
            }
        }
        guard !keyless || contents.keys.isEmpty else {
            throw .personalKeys("\(path) holds \(contents.keys.count) personal key(s), but a keyless ledger (a sync server's) must hold none; it is not a server's ledger cache")
        }
        return PersonalKeyRing(
            contents: contents, path: path, fileSystem: fileSystem, encryption: encryption, isReadOnly: readOnly, isKeyless: keyless)
    }

    // MARK: PersonalTextCipher

    package func seal(_ text: String, owner: PersonID) -> [UInt8]? {
        let key: [UInt8]? = contents.withLock { contents in
            guard !contents.forgotten.contains(owner) else { return nil }
            if let key = contents.keys[owner] { return key }
            // P2: a second key for an owner whose texts this ring cannot open would split their
            // texts between two keys, one of them held nowhere else.
            guard !isReadOnly, !isKeyless, contents.unopened[owner] == nil else { return nil }
            let key = AESGCMBox.randomKey()
            contents.setKey(key, for: owner)
            contents.unpersisted.insert(owner)
            return key
        }
        guard let key else { return nil }
        return AESGCMBox.seal(Array(text.utf8), key: key, context: Self.context(owner))
    }

    package func open(_ sealed: ArraySlice<UInt8>, owner: PersonID) -> String? {
        let key: [UInt8]? = contents.withLock { contents in
            if let key = contents.keys[owner] { return key }
            if !contents.forgotten.contains(owner), !isKeyless { contents.unopened[owner, default: 0] += 1 }
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

    /// Adds keys the household's other devices made (Docs/Sync.md, "Keys between devices"),
    /// unpersisted until ``persist(acknowledgedThrough:)``: a forgotten person's key is not taken
    /// back (P3), a key already held is kept. Never on a keyless or read-only ring.
    /// - Returns: the people for whom this ring holds another key (two keys would split their
    ///   texts, P2): their key is left as it is.
    func adopt(_ keys: [PersonID: [UInt8]]) -> [PersonID] {
        guard !isReadOnly, !isKeyless else { return [] }
        return contents.withLock { contents in
            var conflicts: [PersonID] = []
            for (person, key) in keys.sorted(by: { $0.key < $1.key }) where !contents.forgotten.contains(person) && key.count == AESGCMBox.keyBytes {
                if let held = contents.keys[person] {
                    if held != key { conflicts.append(person) }
                    continue
                }
                contents.setKey(key, for: person)
                contents.unpersisted.insert(person)
            }
            return conflicts
        }
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

    /// How many keys were set since the ring was loaded (``Contents/keysSet``): unchanged, no key
    /// is new.
    package var keysSet: UInt64 { contents.withLock { $0.keysSet } }

    /// Whether `person` has a key (they have personal text that can still be read).
    func hasKey(for person: PersonID) -> Bool { contents.withLock { $0.keys[person] != nil } }

    /// The length of a key fingerprint.
    static let fingerprintBytes = 32

    /// Per key holder, the fingerprint of their key (``fingerprint(of:for:)``), kept with the
    /// keys (checkpoints record them, see `FoldedState.keyFingerprintsSection`).
    var fingerprints: [PersonID: [UInt8]] { contents.withLock { $0.fingerprints } }

    /// HMAC-SHA256 of `person`'s id under their `key`: tells one key from another without
    /// revealing anything of it.
    package static func fingerprint(of key: [UInt8], for person: PersonID) -> [UInt8] {
        var writer = BinaryWriter(reservingCapacity: 16)
        writer.write(person)
        let label = Array("tally personal key fingerprint".utf8)
        return writer.bytes.withUnsafeBytes { id in
            label.withUnsafeBytes { HashChain(key: key).next(after: .genesis, header: id, payload: $0).bytes }
        }
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

    /// Drops the keys created since the last write: the batch that needed them was refused
    /// before its append, so no record is sealed with them and none may linger on disk.
    func discardUnpersisted() {
        contents.withLock { contents in
            for person in contents.unpersisted { contents.setKey(nil, for: person) }
            contents.unpersisted = []
        }
    }
}
