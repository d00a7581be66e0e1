import SystemPackage
import TallyJournal
import TallyModel

/// The bytes of `personal-keys` in layout `TALLYPK3`: a header, then self-checking records, one
/// appended per write of new keys. The layout is drawn in ``PersonalKeyRing``'s comment and in
/// `Docs/Security.md` ("Personal data and forgetting a person"); what a crash can leave after
/// the last record is judged in `PersonalKeyFile+Tail.swift`, the older layouts are read in
/// `PersonalKeyFile+Legacy.swift`.
enum PersonalKeyFile {
    static let magic: [UInt8] = Array("TALLYPK3".utf8)
    /// Magic (8), form (1), reserved zeros (3), CRC32C of those 12 bytes (4).
    static let headerBytes = 16
    /// The first bytes of every record: no flipped bit or unwritten block turns them into zeros.
    static let recordMarker: [UInt8] = Array("TPKR".utf8)
    /// Marker and body length, before a record's body.
    static let recordHeaderBytes = 8
    static let checksumBytes = 4
    /// Entries one record holds at most (a longer list is written as several records).
    static let entriesPerRecordMax = 4096
    /// Person id (16), kind (1), key (32).
    static let entryBytesMax = 16 + 1 + AESGCMBox.keyBytes
    /// Acknowledged through (8) and the entry count (4).
    static let bodyPrefixBytes = 12
    /// What sealing adds to a body: key id (2), nonce (12), tag (16).
    static let sealingBytes = 2 + 12 + 16
    static let bodyBytesMax = bodyPrefixBytes + entriesPerRecordMax * entryBytesMax + sealingBytes
    static let recordBytesMax = recordHeaderBytes + bodyBytesMax + checksumBytes

    /// How the records' bodies are stored.
    enum Form: UInt8, Sendable {
        /// In clear (a ledger without encryption at rest).
        case clear = 0
        /// Each body sealed on its own with the ledger's encryption key (`JournalEncryption.sealBlob`).
        case sealed = 1

        init(encryption: JournalEncryption?) { self = encryption == nil ? .clear : .sealed }
    }

    /// The keys and tombstones a file holds, and its evidence.
    struct Contents: Sendable {
        /// 32-byte AES-256 keys by person.
        var keys: [PersonID: [UInt8]] = [:]
        var forgotten: Set<PersonID> = []
        /// The highest "acknowledged through" of the file's records.
        var acknowledgedThrough: UInt64 = 0

        /// Every person with a key or a tombstone, in a stable order.
        var entries: [(person: PersonID, key: [UInt8]?)] {
            let people = Set(keys.keys).union(forgotten).sorted()
            return people.map { ($0, keys[$0]) }
        }
    }

    /// A file as read.
    struct Loaded: Sendable {
        var contents = Contents()
        /// For a `TALLYPK3` file: its form, and where its last record that checks out ends (the
        /// next record goes there). Nil for an older layout, which the next write replaces.
        var appendable: (form: Form, end: Int)?
        /// Bytes after the last record that an interrupted append left (a torn record), to be
        /// cut by the writer; nil when the file ends with a record that checks out.
        var tornTail: Range<Int>?
    }

    /// A whole file holding `contents`: the header, then records of at most
    /// ``entriesPerRecordMax`` entries each, every one stamped with the evidence.
    static func encode(_ contents: Contents, encryption: JournalEncryption?) throws(LedgerError) -> [UInt8] {
        let entries = contents.entries
        var bytes = header(Form(encryption: encryption))
        var start = 0
        repeat {  // a file without entries still has one record: it carries the evidence
            let end = min(entries.count, start + entriesPerRecordMax)
            bytes += try record(entries[start..<end], acknowledgedThrough: contents.acknowledgedThrough, encryption: encryption)
            start = end
        } while start < entries.count
        return bytes
    }

    /// The records that append `keys` (sorted by person) to a file.
    static func records(
        appending keys: [(person: PersonID, key: [UInt8])], acknowledgedThrough: UInt64, encryption: JournalEncryption?
    ) throws(LedgerError) -> [UInt8] {
        var bytes: [UInt8] = []
        var start = 0
        while start < keys.count {
            let end = min(keys.count, start + entriesPerRecordMax)
            let entries = keys[start..<end].map { (person: $0.person, key: Optional($0.key)) }
            bytes += try record(entries[...], acknowledgedThrough: acknowledgedThrough, encryption: encryption)
            start = end
        }
        return bytes
    }

    static func header(_ form: Form) -> [UInt8] {
        let bytes = magic + [form.rawValue, 0, 0, 0]
        return bytes + littleEndian(CRC32C.checksum(bytes))
    }

    private static func record(
        _ entries: ArraySlice<(person: PersonID, key: [UInt8]?)>, acknowledgedThrough: UInt64, encryption: JournalEncryption?
    ) throws(LedgerError) -> [UInt8] {
        precondition(entries.count <= entriesPerRecordMax)
        var body = littleEndian(acknowledgedThrough) + littleEndian(UInt32(entries.count))
        for entry in entries {
            var writer = BinaryWriter(reservingCapacity: 16)
            writer.write(entry.person)
            body += writer.bytes
            if let key = entry.key {
                precondition(key.count == AESGCMBox.keyBytes)
                body.append(1)
                body += key
            } else {
                body.append(2)
            }
        }
        if let encryption {
            guard let sealed = encryption.sealBlob(body, context: magic) else {
                throw .personalKeys("the key file could not be sealed with the ledger's encryption key")
            }
            body = sealed
        }
        var bytes = recordMarker + littleEndian(UInt32(body.count)) + body
        bytes += littleEndian(CRC32C.checksum(bytes))
        precondition(checkedRecord(bytes, at: 0) != nil, "an encoded key record checks out")
        return bytes
    }

    // MARK: Reading

    /// Reads a file of any layout (`TALLYPK3`, or the older `TALLYPK2`, `TALLYPK1`, `TALLYPKE`).
    /// - Throws: ``LedgerError/personalKeys(_:)`` naming the file and offset when it is damaged;
    ///   ``LedgerError/storage(_:)`` with `encryptionKeyMissing` or `wrongEncryptionKey` when a
    ///   sealed record or file does not open.
    static func read(_ bytes: [UInt8], path: FilePath, encryption: JournalEncryption?) throws(LedgerError) -> Loaded {
        if let contents = try legacyContents(bytes, path: path, encryption: encryption) {
            return Loaded(contents: contents, appendable: nil, tornTail: nil)
        }
        guard bytes.count >= headerBytes, bytes.starts(with: magic) else {
            throw damaged(path, at: 0, "not a personal key file: no TALLYPK3, TALLYPK2, TALLYPK1 or TALLYPKE magic")
        }
        guard load32(bytes, at: headerBytes - checksumBytes) == CRC32C.checksum(Array(bytes[0..<(headerBytes - checksumBytes)])) else {
            throw damaged(path, at: 0, "header checksum mismatch")
        }
        guard let form = Form(rawValue: bytes[magic.count]) else { throw damaged(path, at: 0, "unknown form \(bytes[magic.count])") }
        var loaded = Loaded()
        var offset = headerBytes
        records: while offset < bytes.count {
            guard let body = checkedRecord(bytes, at: offset) else {
                switch tail(bytes, from: offset) {
                case .torn: loaded.tornTail = offset..<bytes.count
                case .damaged(let reason): throw damaged(path, at: offset, reason)
                }
                break records
            }
            let plain = form == .sealed
                ? try unseal(Array(bytes[body]), at: offset, context: magic, encryption: encryption)
                : Array(bytes[body])
            try apply(plain, to: &loaded.contents, path: path, offset: offset)
            offset = body.upperBound + checksumBytes
        }
        loaded.appendable = (form, offset)
        return loaded
    }

    /// The range of the body of the record at `offset` when the record is whole and its
    /// checksum matches; nil otherwise.
    static func checkedRecord(_ bytes: [UInt8], at offset: Int) -> Range<Int>? {
        let available = bytes.count - offset
        guard available >= recordHeaderBytes + checksumBytes,
              bytes[offset..<(offset + recordMarker.count)].elementsEqual(recordMarker)
        else { return nil }
        let length = Int(load32(bytes, at: offset + recordMarker.count))
        guard (1...bodyBytesMax).contains(length), recordHeaderBytes + length + checksumBytes <= available else { return nil }
        let end = offset + recordHeaderBytes + length
        let computed = bytes.withUnsafeBytes { CRC32C.extend(0, UnsafeRawBufferPointer(rebasing: $0[offset..<end])) }
        return computed == load32(bytes, at: end) ? (offset + recordHeaderBytes)..<end : nil
    }

    /// Opens bytes sealed with `JournalEncryption.sealBlob` and `context` (the magic of their layout).
    static func unseal(_ body: [UInt8], at offset: Int, context: [UInt8], encryption: JournalEncryption?) throws(LedgerError) -> [UInt8] {
        let location = JournalLocation(segment: LedgerDirectory.personalKeysName, offset: Int64(offset))
        guard let encryption else {
            // The same error the journal gives for its own sealed frames (the key file is read
            // before the journal, to gather evidence).
            let keyID = body.count >= 2 ? UInt16(body[0]) | UInt16(body[1]) << 8 : 0
            throw .storage(.encryptionKeyMissing(keyID: keyID, location: location))
        }
        do {
            return try encryption.openBlob(body, context: context, location: location)
        } catch {
            throw .storage(error)
        }
    }

    /// Adds the entries of a record's body (in clear) to `contents`.
    private static func apply(_ body: [UInt8], to contents: inout Contents, path: FilePath, offset: Int) throws(LedgerError) {
        var reader = BinaryReader(body)
        do {
            let through = try reader.readRawBytes(count: 8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            contents.acknowledgedThrough = max(contents.acknowledgedThrough, through)
            let count = try reader.readRawBytes(count: 4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            guard count <= entriesPerRecordMax else { throw damaged(path, at: offset, "\(count) entries in one record") }
            try readEntries(count, from: &reader, into: &contents, path: path, offset: offset, refusingRepeats: true)
            try reader.finish()
        } catch let error as LedgerError {
            throw error
        } catch {
            throw damaged(path, at: offset, "a record that checks out but does not decode: \(error)")
        }
    }

    /// Reads `count` entries (person id, then `1` and a key, or `2` forgotten) into `contents`.
    /// - Parameter refusingRepeats: a person already in `contents` is damage (a `TALLYPK3`
    ///   file names each person once); the older layouts let the last entry win.
    static func readEntries(
        _ count: UInt32, from reader: inout BinaryReader, into contents: inout Contents, path: FilePath, offset: Int,
        refusingRepeats: Bool
    ) throws {
        for _ in 0..<count {
            let person: PersonID = try reader.read()
            if refusingRepeats, contents.keys[person] != nil || contents.forgotten.contains(person) {
                throw damaged(path, at: offset, "\(person) appears twice")
            }
            switch try reader.readByte() {
            case 1: contents.keys[person] = Array(try reader.readRawBytes(count: AESGCMBox.keyBytes))
            case 2: contents.forgotten.insert(person)
            case let other: throw damaged(path, at: offset, "entry kind \(other)")
            }
        }
    }

    static func damaged(_ path: FilePath, at offset: Int, _ reason: String) -> LedgerError {
        .personalKeys("\(path) is damaged at offset \(offset) (\(reason)); restore it from a backup of the ledger directory")
    }

    static func littleEndian<Value: FixedWidthInteger>(_ value: Value) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    /// The little-endian UInt32 at `offset` (the caller checked that 4 bytes are there).
    static func load32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
    }
}
