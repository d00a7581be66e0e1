/// The record chain of a household's history as it travels between devices and a server
/// (Docs/Sync.md, "Records on the wire"): independent of how a journal stores its frames
/// (compression, encryption at rest, a keyed frame chain), so the same history has the same
/// chain wherever it is computed.
///
/// `next = SHA-256(previous ‖ sequence number (8) ‖ header ‖ payload)` from 32 zero bytes
/// (``ChainValue/genesis``), where the header is ``header(of:)``: recorded at (8, signed),
/// tag (4), schema version (2), payload length (4), all big-endian.
package enum RecordChain {
    /// The bytes of ``header(of:)``.
    package static let headerBytes = 18

    /// A record's fixed fields, big-endian: recorded at, tag, schema version, payload length.
    package static func header(of record: NewRecord) -> [UInt8] {
        bigEndian(UInt64(bitPattern: record.recordedAtMilliseconds), width: 8)
            + bigEndian(UInt64(record.typeTag), width: 4)
            + bigEndian(UInt64(record.schemaVersion), width: 2)
            + bigEndian(UInt64(record.payload.count), width: 4)
    }

    /// The fields of the header that starts at `offset` in `bytes` (``header(of:)`` read back);
    /// nil when fewer than ``headerBytes`` bytes are left there.
    package static func readHeader(
        _ bytes: [UInt8], at offset: Int
    ) -> (recordedAtMilliseconds: Int64, typeTag: UInt32, schemaVersion: UInt16, payloadLength: Int)? {
        guard offset >= 0, bytes.count - offset >= headerBytes else { return nil }
        func integer(_ start: Int, width: Int) -> UInt64 {
            bytes[offset + start..<offset + start + width].reduce(0) { $0 << 8 | UInt64($1) }
        }
        return (Int64(bitPattern: integer(0, width: 8)), UInt32(integer(8, width: 4)), UInt16(integer(12, width: 2)), Int(integer(14, width: 4)))
    }

    /// The chain after `records`, the first of them numbered `first`, from `previous`.
    package static func chain(after previous: ChainValue, records: [NewRecord], from first: UInt64) -> ChainValue {
        var chain = previous
        for (offset, record) in records.enumerated() {
            let header = bigEndian(first + UInt64(offset), width: 8) + Self.header(of: record)
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

    /// The journal's hash function, unkeyed: every link is SHA-256.
    private static let hashChain = HashChain(key: nil)

    private static func bigEndian(_ value: UInt64, width: Int) -> [UInt8] {
        (0..<width).map { index in UInt8(truncatingIfNeeded: value >> UInt64(8 * (width - 1 - index))) }
    }
}
