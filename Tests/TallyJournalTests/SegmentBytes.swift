import SystemPackage
import TallyJournal
import TallyTestSupport

/// Byte surgery on segment files for tests that must get past the CRC32C checks to reach the
/// deeper ones: every helper recomputes the checksum it invalidates.
enum SegmentBytes {
    /// The first sequence number a segment file name announces.
    static func firstSequenceNumber(of name: String) -> UInt64? { UInt64(name.prefix(20)) }

    /// A segment file name for `sequenceNumber` (`00000000000000000042.segment`).
    static func name(_ sequenceNumber: UInt64) -> String {
        let digits = String(sequenceNumber)
        return String(repeating: "0", count: 20 - digits.count) + digits + ".segment"
    }

    /// Rewrites fields of the 64-byte segment header and recomputes its CRC32C (bytes 60..<64).
    static func rewriteHeader(
        _ bytes: inout [UInt8], firstSequenceNumber: UInt64? = nil, version: UInt16? = nil, flags: UInt16? = nil
    ) {
        if let version { put(version, into: &bytes, at: 8) }
        if let flags { put(flags, into: &bytes, at: 10) }
        if let firstSequenceNumber { put(firstSequenceNumber, into: &bytes, at: 16) }
        let crc = bytes.withUnsafeBytes { CRC32C.extend(0, UnsafeRawBufferPointer(rebasing: $0[0..<60])) }
        put(crc, into: &bytes, at: 60)
    }

    /// Recomputes the CRC32C of the frame at `offset` (header bytes 0..<92 and stored payload),
    /// after a test changed its header or payload.
    static func resealFrame(_ bytes: inout [UInt8], at offset: Int) {
        let storedLength = Int(UInt32(bytes[offset + 8]) | UInt32(bytes[offset + 9]) << 8
            | UInt32(bytes[offset + 10]) << 16 | UInt32(bytes[offset + 11]) << 24)
        let payload = (offset + 96)..<(offset + 96 + storedLength)
        let crc = bytes.withUnsafeBytes { all in
            CRC32C.extend(CRC32C.extend(0, UnsafeRawBufferPointer(rebasing: all[offset..<(offset + 92)])),
                          UnsafeRawBufferPointer(rebasing: all[payload]))
        }
        put(crc, into: &bytes, at: offset + 92)
    }

    static func put<Value: FixedWidthInteger>(_ value: Value, into bytes: inout [UInt8], at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(offset..<(offset + MemoryLayout<Value>.size), with: $0) }
    }

    /// A batch of `count` records of `bytes` random (incompressible) bytes each: stored
    /// uncompressed, so its frame is larger than `count * bytes`.
    static func incompressibleBatch(count: Int, bytes: Int, random: inout SeededRandom) -> [NewRecord] {
        (0..<count).map { index in
            NewRecord(recordedAtMilliseconds: Int64(index), typeTag: 7, schemaVersion: 1, payload: random.bytes(bytes))
        }
    }

    /// Copies a file into the fault-injecting file system under a new path.
    static func copy(_ bytes: [UInt8], to path: FilePath, in fileSystem: FaultInjectingFileSystem) throws {
        let file = try fileSystem.createFile(at: path)
        try file.write(bytes, at: 0)
        try file.synchronize()
        try fileSystem.synchronizeDirectory(at: path.removingLastComponent())
    }
}
