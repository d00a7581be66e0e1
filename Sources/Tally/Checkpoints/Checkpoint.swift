import TallyJournal
import TallyStore

/// A snapshot of the live state the engine folds (validation state and read models), with the
/// journal position it covers: the last sequence number and the hash-chain value after it.
/// What grows with history is not in it: its archived maps' entries are the store's `history`
/// rows, written in the same store transaction (`LedgerStore.writeCheckpoint`).
///
/// Layout (little-endian), the `checkpoint` row of the read-side store:
///
/// | field | bytes |
/// |---|---|
/// | magic `TALLYCKP` | 8 |
/// | format version (3: the history in the store; 1 and 2 were files beside it) | 2 |
/// | section count | 2 |
/// | sequence number covered | 8 |
/// | chain value after it | 32 |
/// | per section: name length (2), name (UTF-8), byte length (8), bytes | ... |
/// | CRC32C of everything before | 4 |
struct Checkpoint: Sendable, Equatable {
    static let magic: [UInt8] = Array("TALLYCKP".utf8)
    static let formatVersion: UInt16 = 3

    var sequenceNumber: UInt64
    var chainValue: ChainValue
    /// Named state blobs, e.g. "ledgerState", "projections".
    var sections: [String: [UInt8]]

    func encoded() -> [UInt8] {
        var bytes = Self.magic
        append(Self.formatVersion, to: &bytes)
        append(UInt16(sections.count), to: &bytes)
        append(sequenceNumber, to: &bytes)
        bytes += chainValue.bytes
        for name in sections.keys.sorted() {
            let nameBytes = Array(name.utf8)
            append(UInt16(nameBytes.count), to: &bytes)
            bytes += nameBytes
            let body = sections[name] ?? []
            append(UInt64(body.count), to: &bytes)
            bytes += body
        }
        append(CRC32C.checksum(bytes), to: &bytes)
        return bytes
    }

    /// Decodes and checks a checkpoint; the error says what is wrong.
    static func decode(_ bytes: [UInt8]) throws(CheckpointDefect) -> Checkpoint {
        guard bytes.count >= 8 + 2 + 2 + 8 + 32 + 4, bytes.prefix(8).elementsEqual(magic) else { throw .notACheckpoint }
        let body = bytes.prefix(bytes.count - 4)
        var cursor = 8
        guard load(UInt32.self, bytes, bytes.count - 4) == CRC32C.checksum(Array(body)) else { throw .checksumMismatch }
        let version: UInt16 = load(UInt16.self, bytes, cursor)
        guard version == formatVersion else { throw .unsupportedVersion(version) }
        let count: UInt16 = load(UInt16.self, bytes, cursor + 2)
        let sequence: UInt64 = load(UInt64.self, bytes, cursor + 4)
        cursor += 12
        guard let chain = ChainValue(bytes: Array(bytes[cursor..<(cursor + 32)])) else { throw .truncated }
        cursor += 32
        var sections: [String: [UInt8]] = [:]
        for _ in 0..<count {
            guard cursor + 2 <= body.count else { throw .truncated }
            let nameLength = Int(load(UInt16.self, bytes, cursor))
            cursor += 2
            guard cursor + nameLength + 8 <= body.count else { throw .truncated }
            let name = String(decoding: bytes[cursor..<(cursor + nameLength)], as: UTF8.self)
            cursor += nameLength
            let length = load(UInt64.self, bytes, cursor)
            cursor += 8
            guard length <= UInt64(body.count - cursor) else { throw .truncated }
            sections[name] = Array(bytes[cursor..<(cursor + Int(length))])
            cursor += Int(length)
        }
        guard cursor == body.count else { throw .truncated }
        return Checkpoint(sequenceNumber: sequence, chainValue: chain, sections: sections)
    }

    private func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    private static func load<T: FixedWidthInteger>(_ type: T.Type, _ bytes: [UInt8], _ offset: Int) -> T {
        bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
    }
}

/// Why the store's checkpoint was not used.
enum CheckpointDefect: Error, Equatable, CustomStringConvertible {
    case notACheckpoint, checksumMismatch, unsupportedVersion(UInt16), truncated
    case missingSection(String)
    case stateUnreadable(String)
    case notInJournal(sequenceNumber: UInt64)
    case chainMismatch(sequenceNumber: UInt64)
    case personalKeysMissing([String])
    case personalKeysDiffer([String])
    /// The store was rebuilt from the read models after it (its rows are newer) without the
    /// transaction records of the changes in between kept as of it (`LedgerStore.keptRecordsComplete`).
    case keptRecordsIncomplete

    var description: String {
        switch self {
        case .notACheckpoint: "not a checkpoint"
        case .checksumMismatch: "checksum mismatch (damaged)"
        case .unsupportedVersion(let version): "checkpoint format \(version) is not supported"
        case .truncated: "truncated"
        case .missingSection(let name): "section \(name) is missing"
        case .stateUnreadable(let reason): "state does not decode: \(reason)"
        case .notInJournal(let sequence): "covers sequence \(sequence), which the journal does not end a frame at"
        case .chainMismatch(let sequence): "chain value at sequence \(sequence) differs from the journal's (the journal was rewritten)"
        case .personalKeysMissing(let people): "the personal keys of \(people.joined(separator: ", ")) are missing from \(LedgerDirectory.personalKeysName)"
        case .personalKeysDiffer(let people): "the personal keys of \(people.joined(separator: ", ")) in \(LedgerDirectory.personalKeysName) are not the ones the checkpoint was written with (a key file of another ledger?)"
        case .keptRecordsIncomplete: "the store was rebuilt after it and does not keep every transaction as of it (the next checkpoint replaces it)"
        }
    }
}
