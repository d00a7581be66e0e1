import TallyJournal

/// The form in which a household's history travels and is stored on the server (Docs/Sync.md,
/// "Pull: records"): a frame's records in canonical bytes, and the record chain over them.
///
/// Independent of how a ledger stores its journal (compression, encryption at rest, a keyed
/// chain), so "the same history" is checkable on every device and on the server: the chain
/// value after a record is the same wherever it is computed.
///
/// A frame's bytes are its records, one after another, each (integers big-endian):
///
/// | field | bytes |
/// |---|---|
/// | recorded at, milliseconds since 1970 (signed) | 8 |
/// | event tag | 4 |
/// | schema version | 2 |
/// | payload length n | 4 |
/// | payload | n |
///
/// The chain: `next = SHA-256(previous ‖ sequence number (8) ‖ the record's first 18 bytes
/// above ‖ payload)`, from 32 zero bytes (``ChainValue/genesis``).
package enum SyncRecords {
    /// The fixed part of an encoded record: recorded at, tag, schema version, payload length.
    static let headerBytes = 18

    /// The canonical bytes of a frame's records.
    package static func encode(_ records: [NewRecord]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(records.reduce(0) { $0 + headerBytes + $1.payload.count })
        for record in records {
            bytes.append(contentsOf: header(of: record))
            bytes.append(contentsOf: record.payload)
        }
        return bytes
    }

    /// The records of a frame's canonical bytes.
    /// - Throws: ``SyncError/historyInvalid(_:)`` for bytes that are not whole records (a record
    ///   cut short, a length past the end, no record at all).
    package static func decode(_ bytes: [UInt8]) throws(SyncError) -> [NewRecord] {
        var records: [NewRecord] = []
        var offset = 0
        func integer(_ width: Int) -> UInt64 {
            var value: UInt64 = 0
            for byte in bytes[offset..<offset + width] { value = value << 8 | UInt64(byte) }
            offset += width
            return value
        }
        while offset < bytes.count {
            guard bytes.count - offset >= headerBytes else {
                throw .historyInvalid("a record at byte \(offset) of a frame is cut short (\(bytes.count - offset) bytes left, a record's header has \(headerBytes))")
            }
            let recordedAt = Int64(bitPattern: integer(8))
            let tag = UInt32(integer(4))
            let schemaVersion = UInt16(integer(2))
            let length = Int(integer(4))
            guard length <= bytes.count - offset else {
                throw .historyInvalid("a record at byte \(offset - headerBytes) of a frame declares \(length) payload bytes, but \(bytes.count - offset) are left")
            }
            records.append(NewRecord(
                recordedAtMilliseconds: recordedAt, typeTag: tag, schemaVersion: schemaVersion,
                payload: Array(bytes[offset..<offset + length])))
            offset += length
        }
        guard !records.isEmpty else { throw .historyInvalid("a frame holds no record") }
        return records
    }

    /// The record chain after `records`, the first of them numbered `first`, from `previous`.
    package static func chain(after previous: ChainValue, records: [NewRecord], from first: UInt64) -> ChainValue {
        var chain = previous
        for (offset, record) in records.enumerated() {
            var header = bigEndian(first + UInt64(offset), width: 8)
            header.append(contentsOf: Self.header(of: record))
            chain = header.withUnsafeBytes { headerBytes in
                record.payload.withUnsafeBytes { hashChain.next(after: chain, header: headerBytes, payload: $0) }
            }
        }
        return chain
    }

    /// A journal frame's records as they travel.
    package static func records(of frame: JournalFrame) -> [NewRecord] {
        frame.records.map { record in
            NewRecord(
                recordedAtMilliseconds: record.recordedAtMilliseconds, typeTag: record.typeTag,
                schemaVersion: record.schemaVersion, payload: Array(record.payload))
        }
    }

    /// The journal's hash chain, unkeyed: every link is SHA-256.
    private static let hashChain = HashChain(key: nil)

    private static func header(of record: NewRecord) -> [UInt8] {
        bigEndian(UInt64(bitPattern: record.recordedAtMilliseconds), width: 8)
            + bigEndian(UInt64(record.typeTag), width: 4)
            + bigEndian(UInt64(record.schemaVersion), width: 2)
            + bigEndian(UInt64(record.payload.count), width: 4)
    }

    private static func bigEndian(_ value: UInt64, width: Int) -> [UInt8] {
        (0..<width).map { index in UInt8(truncatingIfNeeded: value >> UInt64(8 * (width - 1 - index))) }
    }
}
