/// A batch of records serialised and compressed, waiting for its sequence number and chain
/// link. Built outside the writer's lock so that concurrent appends compress in parallel.
struct PendingFrame: Sendable {
    /// Header space (zeros) followed by the stored payload.
    var bytes: [UInt8]
    var header: FrameHeader

    /// Serialises `records` into the raw payload and compresses it when that is smaller.
    ///
    /// Raw payload, per record: zigzag varint (recordedAt - first recordedAt), varint type tag,
    /// varint schema version, varint payload length, payload bytes.
    static func make(_ records: [NewRecord], limits: JournalLimits) throws(JournalError) -> PendingFrame {
        let rawLength = try payloadBytes(of: records, limits: limits)
        guard let first = records.first, let last = records.last else { throw .emptyBatch }
        var raw: [UInt8] = []
        raw.reserveCapacity(FrameHeader.size + rawLength)
        raw.append(contentsOf: repeatElement(0, count: FrameHeader.size))
        for record in records {
            raw.appendZigZag(record.recordedAtMilliseconds &- first.recordedAtMilliseconds)
            raw.appendVarint(UInt64(record.typeTag))
            raw.appendVarint(UInt64(record.schemaVersion))
            raw.appendVarint(UInt64(record.payload.count))
            raw.append(contentsOf: record.payload)
        }
        let payloadLength = raw.count - FrameHeader.size
        precondition(payloadLength == rawLength, "payloadBytes(of:limits:) counts what make writes")
        let compressed = raw.withUnsafeBytes { all in
            LZ4.compressIfSmaller(
                UnsafeRawBufferPointer(rebasing: all[FrameHeader.size...]), prefixBytes: FrameHeader.size)
        }
        let header = FrameHeader(
            flags: compressed == nil ? 0 : FrameHeader.compressedFlag,
            storedLength: (compressed?.count ?? raw.count) - FrameHeader.size,
            rawLength: payloadLength,
            firstSequenceNumber: 0,
            recordCount: records.count,
            firstRecordedAt: first.recordedAtMilliseconds,
            lastRecordedAt: last.recordedAtMilliseconds)
        return PendingFrame(bytes: compressed ?? raw, header: header)
    }

    /// Fills in the sequence number, encrypts the payload when `encryption` is set (AES-GCM,
    /// the header's first 60 bytes as authenticated data), links the chain and computes the
    /// checksum; returns the frame's bytes.
    mutating func seal(
        firstSequenceNumber: UInt64, after previous: ChainValue, chain: HashChain, encryption: JournalEncryption?
    ) throws(JournalError) -> [UInt8] {
        header.firstSequenceNumber = firstSequenceNumber
        if let encryption {
            header.flags |= FrameHeader.encryptedFlag
            header.keyID = encryption.currentKeyID
            header.nonce = JournalEncryption.randomNonce()
            header.storedLength += JournalEncryption.tagBytes
            let fields = header.chainedFields()
            let sealed = bytes.withUnsafeBytes { all in
                encryption.seal(UnsafeRawBufferPointer(rebasing: all[FrameHeader.size...]), authenticating: fields, nonce: header.nonce)
            }
            guard let sealed, sealed.count == header.storedLength else {
                throw .invalidOptions("AES-GCM sealing failed for key id \(encryption.currentKeyID)")
            }
            bytes.replaceSubrange(FrameHeader.size..., with: sealed)
        }
        let fields = header.chainedFields()
        let next = fields.withUnsafeBytes { fieldBytes in
            bytes.withUnsafeBytes { all in
                chain.next(
                    after: previous, header: fieldBytes,
                    payload: UnsafeRawBufferPointer(rebasing: all[FrameHeader.size...]))
            }
        }
        header.chainValue = next
        var headerBytes = fields
        headerBytes.append(contentsOf: next.bytes)
        bytes.replaceSubrange(0..<FrameHeader.checksummedBytes, with: headerBytes)
        let checksum = bytes.withUnsafeBytes { all in
            CRC32C.extend(
                CRC32C.extend(0, UnsafeRawBufferPointer(rebasing: all[0..<FrameHeader.checksummedBytes])),
                UnsafeRawBufferPointer(rebasing: all[FrameHeader.size...]))
        }
        header.checksum = checksum
        withUnsafeBytes(of: checksum.littleEndian) { crcBytes in
            bytes.replaceSubrange(FrameHeader.checksummedBytes..<FrameHeader.size, with: crcBytes)
        }
        return bytes
    }
}

extension PendingFrame {
    /// The exact raw payload length of a frame holding `records`, after checking every limit
    /// (record size, record count, frame size): what `make` would throw, without encoding or
    /// compressing anything, so a caller can refuse a batch before it writes anything else.
    static func payloadBytes(of records: [NewRecord], limits: JournalLimits) throws(JournalError) -> Int {
        guard let first = records.first else { throw .emptyBatch }
        var length = 0
        for record in records {
            guard record.payload.count <= limits.recordBytesMax else {
                throw .recordTooLarge(bytes: record.payload.count, limit: limits.recordBytesMax)
            }
            let delta = record.recordedAtMilliseconds &- first.recordedAtMilliseconds
            length += varintBytes(UInt64(bitPattern: (delta << 1) ^ (delta >> 63)))
                + varintBytes(UInt64(record.typeTag)) + varintBytes(UInt64(record.schemaVersion))
                + varintBytes(UInt64(record.payload.count)) + record.payload.count
        }
        guard records.count <= limits.recordsPerFrameMax, length <= limits.frameBytesMax else {
            throw .frameTooLarge(
                bytes: length, records: records.count,
                bytesLimit: limits.frameBytesMax, recordsLimit: limits.recordsPerFrameMax)
        }
        return length
    }

    private static func varintBytes(_ value: UInt64) -> Int {
        value == 0 ? 1 : (64 - value.leadingZeroBitCount + 6) / 7
    }
}
