/// Checking and decoding one frame whose bytes (header and stored payload) are in memory.
enum FrameDecoder {
    /// Why a frame could not be accepted.
    enum Defect: Error {
        case header(FrameHeader.FrameHeaderDefect)
        case truncated(needed: Int, available: Int)
        case checksumMismatch(stored: UInt32, computed: UInt32)
        case keyMissing(UInt16)
        case decryptionFailed(UInt16)
        case decompressionFailed
        case badRecords(String)

        var kind: JournalProblem.Kind {
            switch self {
            case .header: .badFrameHeader
            case .truncated: .truncatedFrame
            case .checksumMismatch: .checksumMismatch
            case .keyMissing: .encryptionKeyMissing
            case .decryptionFailed: .decryptionFailed
            case .decompressionFailed: .decompressionFailed
            case .badRecords: .badRecords
            }
        }

        var detail: String {
            switch self {
            case .header(let defect): defect.description
            case .truncated(let needed, let available):
                "frame needs \(needed) bytes, only \(available) are left in the segment"
            case .checksumMismatch(let stored, let computed):
                "CRC32C stored \(hex32(stored)), computed \(hex32(computed))"
            case .keyMissing(let keyID): "frame is encrypted with key id \(keyID), which was not given"
            case .decryptionFailed(let keyID): "frame does not decrypt with key id \(keyID): wrong key or altered ciphertext"
            case .decompressionFailed: "LZ4 payload does not decompress to its declared length"
            case .badRecords(let reason): reason
            }
        }
    }

    /// Parses the header at the start of `bytes` and checks that the whole frame fits and its
    /// CRC32C matches. Nothing is decompressed.
    static func checkedHeader(_ bytes: UnsafeRawBufferPointer) -> Result<FrameHeader, Defect> {
        let header: FrameHeader
        switch FrameHeader.decode(bytes) {
        case .success(let decoded): header = decoded
        case .failure(let defect): return .failure(.header(defect))
        }
        guard header.frameBytes <= bytes.count else {
            return .failure(.truncated(needed: header.frameBytes, available: bytes.count))
        }
        let computed = CRC32C.extend(
            CRC32C.extend(0, UnsafeRawBufferPointer(rebasing: bytes[0..<FrameHeader.checksummedBytes])),
            UnsafeRawBufferPointer(rebasing: bytes[FrameHeader.size..<header.frameBytes]))
        guard computed == header.checksum else {
            return .failure(.checksumMismatch(stored: header.checksum, computed: computed))
        }
        return .success(header)
    }

    /// Recomputes the chain link of a checked frame.
    static func chainValue(
        of header: FrameHeader, frame bytes: UnsafeRawBufferPointer, after previous: ChainValue, chain: HashChain
    ) -> ChainValue {
        chain.next(
            after: previous,
            header: UnsafeRawBufferPointer(rebasing: bytes[0..<FrameHeader.chainedBytes]),
            payload: UnsafeRawBufferPointer(rebasing: bytes[FrameHeader.size..<header.frameBytes]))
    }

    /// Decompresses and splits a checked frame into records.
    static func records(
        of header: FrameHeader, frame bytes: UnsafeRawBufferPointer, encryption: JournalEncryption? = nil
    ) -> Result<[JournalRecord], Defect> {
        let stored = UnsafeRawBufferPointer(rebasing: bytes[FrameHeader.size..<header.frameBytes])
        let raw: [UInt8]
        if header.isEncrypted {
            let opened = encryption.map {
                $0.open(stored, keyID: header.keyID, nonce: header.nonce,
                        authenticating: UnsafeRawBufferPointer(rebasing: bytes[0..<FrameHeader.chainedBytes]))
            } ?? .failure(.keyMissing(header.keyID))
            switch opened {
            case .success(let plaintext):
                guard let expanded = plaintext.withUnsafeBytes({ expand($0, header) }) else { return .failure(.decompressionFailed) }
                raw = expanded
            case .failure(let defect):
                return .failure(defect)
            }
        } else {
            guard let expanded = expand(stored, header) else { return .failure(.decompressionFailed) }
            raw = expanded
        }
        return raw.withUnsafeBytes { rawBytes in
            splitRecords(header: header, raw: rawBytes).map { ranges in
                ranges.enumerated().map { index, entry in
                    JournalRecord(
                        sequenceNumber: header.firstSequenceNumber + UInt64(index),
                        recordedAtMilliseconds: entry.recordedAt,
                        typeTag: entry.typeTag,
                        schemaVersion: entry.schemaVersion,
                        payload: raw[entry.range])
                }
            }
        }
    }

    /// The raw payload from a (decrypted) stored payload: decompressed when the flag says so.
    private static func expand(_ stored: UnsafeRawBufferPointer, _ header: FrameHeader) -> [UInt8]? {
        guard header.isCompressed else { return stored.count == header.rawLength ? Array(stored) : nil }
        return LZ4.decompress(stored, rawLength: header.rawLength)
    }

    private struct RecordEntry {
        var recordedAt: Int64
        var typeTag: UInt32
        var schemaVersion: UInt16
        var range: Range<Int>
    }

    private static func splitRecords(header: FrameHeader, raw: UnsafeRawBufferPointer) -> Result<[RecordEntry], Defect> {
        var cursor = ByteCursor(raw)
        var entries: [RecordEntry] = []
        entries.reserveCapacity(header.recordCount)
        for index in 0..<header.recordCount {
            guard let delta = cursor.readZigZag(),
                  let tag = cursor.readVarint(), tag <= UInt64(UInt32.max),
                  let version = cursor.readVarint(), version <= UInt64(UInt16.max),
                  let length = cursor.readVarint(), length <= UInt64(cursor.remaining),
                  length <= UInt64(JournalLimits.recordBytesHardMax)
            else { return .failure(.badRecords("record \(index) of \(header.recordCount) is cut off or malformed")) }
            let start = cursor.offset
            cursor.offset += Int(length)
            entries.append(RecordEntry(
                recordedAt: header.firstRecordedAt &+ delta, typeTag: UInt32(tag),
                schemaVersion: UInt16(version), range: start..<cursor.offset))
        }
        guard cursor.remaining == 0 else {
            return .failure(.badRecords("\(cursor.remaining) bytes left over after \(header.recordCount) records"))
        }
        guard entries.last?.recordedAt == header.lastRecordedAt else {
            return .failure(.badRecords("last record's recordedAt does not match the frame header"))
        }
        return .success(entries)
    }
}

func hex32(_ value: UInt32) -> String {
    let digits = Hex.string(withUnsafeBytes(of: value.bigEndian) { Array($0) })
    return "0x" + digits
}
