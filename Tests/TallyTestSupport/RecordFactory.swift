import TallyJournal

/// Builds journal records whose content can be checked after a crash: each payload encodes the
/// batch it belongs to, so a reader can tell a whole batch from a partial one.
public enum RecordFactory {
    /// A batch of `count` records; payload = batch id (8 bytes LE), index, count, then filler
    /// that is compressible, incompressible or empty depending on `style`.
    public static func batch(id: UInt64, count: Int, fillerBytes: Int, random: inout SeededRandom) -> [NewRecord] {
        (0..<count).map { index in
            var payload: [UInt8] = []
            withUnsafeBytes(of: id.littleEndian) { payload += $0 }
            withUnsafeBytes(of: UInt32(index).littleEndian) { payload += $0 }
            withUnsafeBytes(of: UInt32(count).littleEndian) { payload += $0 }
            switch random.next() % 3 {
            case 0: payload += [UInt8](repeating: UInt8(truncatingIfNeeded: id), count: fillerBytes)
            case 1: payload += random.bytes(fillerBytes)
            default: break
            }
            return NewRecord(
                recordedAtMilliseconds: 1_700_000_000_000 + Int64(id) * 1000 + Int64(index),
                typeTag: UInt32(truncatingIfNeeded: random.next() % 200),
                schemaVersion: UInt16(truncatingIfNeeded: random.next() % 3 + 1),
                payload: payload)
        }
    }

    /// The batch id, index and count stored at the start of a payload made by `batch`.
    public static func identity(of payload: ArraySlice<UInt8>) -> (batch: UInt64, index: Int, count: Int)? {
        guard payload.count >= 16 else { return nil }
        let bytes = Array(payload.prefix(16))
        let batch = bytes[0..<8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let index = bytes[8..<12].reversed().reduce(0) { $0 << 8 | Int($1) }
        let count = bytes[12..<16].reversed().reduce(0) { $0 << 8 | Int($1) }
        return (batch, index, count)
    }
}

extension JournalRecord {
    /// True when this record holds what `record` asked to store.
    public func matches(_ record: NewRecord) -> Bool {
        recordedAtMilliseconds == record.recordedAtMilliseconds && typeTag == record.typeTag
            && schemaVersion == record.schemaVersion && Array(payload) == record.payload
    }
}
