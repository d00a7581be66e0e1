import TallyJournal
import TallySyncWire

/// The form in which a frame's records travel and are stored on the server (`frames.records`,
/// Docs/Sync.md "Records on the wire"): each record's ``RecordChain`` header (recorded at, tag,
/// schema version, payload length) and its payload, one after another. The frame's chain value
/// is ``RecordChain``'s.
package enum SyncRecords {
    /// The canonical bytes of a frame's records.
    package static func encode(_ records: [NewRecord]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(records.reduce(0) { $0 + RecordChain.headerBytes + $1.payload.count })
        for record in records {
            bytes.append(contentsOf: RecordChain.header(of: record))
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
        while offset < bytes.count {
            guard let header = RecordChain.readHeader(bytes, at: offset) else {
                throw .historyInvalid("a record at byte \(offset) of a frame is cut short (\(bytes.count - offset) bytes left, a record's header has \(RecordChain.headerBytes))")
            }
            offset += RecordChain.headerBytes
            guard header.payloadLength <= bytes.count - offset else {
                throw .historyInvalid("a record at byte \(offset - RecordChain.headerBytes) of a frame declares \(header.payloadLength) payload bytes, but \(bytes.count - offset) are left")
            }
            records.append(NewRecord(
                recordedAtMilliseconds: header.recordedAtMilliseconds, typeTag: header.typeTag, schemaVersion: header.schemaVersion,
                payload: Array(bytes[offset..<offset + header.payloadLength])))
            offset += header.payloadLength
        }
        guard !records.isEmpty else { throw .historyInvalid("a frame holds no record") }
        return records
    }

    /// Where a history ends: its last sequence number and the record chain after it.
    package struct End: Sendable, Equatable {
        package var sequenceNumber: UInt64
        package var chain: ChainValue

        package static let start = End(sequenceNumber: 0, chain: .genesis)

        package init(sequenceNumber: UInt64, chain: ChainValue) {
            self.sequenceNumber = sequenceNumber
            self.chain = chain
        }
    }

    /// `frames` decoded and checked to continue the history that ends at `end`: each frame
    /// starts right after the one before, holds as many records as it spans, and its chain
    /// value is the chain over its records. Nothing is returned unless every frame checks.
    /// - Returns: each frame's records and where the history ends after it.
    /// - Throws: ``SyncError/historyInvalid(_:)`` naming the first frame that does not.
    package static func verify(_ frames: [HistoryFrame], after end: End) throws(SyncError) -> [(records: [NewRecord], end: End)] {
        var verified: [(records: [NewRecord], end: End)] = []
        var next = end
        for frame in frames {
            let records = try decode(frame.records)
            guard frame.firstSequenceNumber == next.sequenceNumber + 1,
                  frame.lastSequenceNumber == next.sequenceNumber + UInt64(records.count)
            else {
                throw .historyInvalid("the frame \(frame.firstSequenceNumber)...\(frame.lastSequenceNumber) with \(records.count) record(s) does not follow record \(next.sequenceNumber)")
            }
            let chain = RecordChain.chain(after: next.chain, records: records, from: frame.firstSequenceNumber)
            guard chain.bytes == frame.chain else {
                throw .historyInvalid("the chain after record \(frame.lastSequenceNumber) does not match its records: the history was altered, or this ledger is not of this household")
            }
            next = End(sequenceNumber: frame.lastSequenceNumber, chain: chain)
            verified.append((records, next))
        }
        return verified
    }
}
