import SystemPackage

/// Tells a torn write from damage to an acknowledged frame at the end of the last segment
/// (Docs/JournalFormat.md, "Torn writes and damaged frames").
///
/// An append writes one frame with one `pwrite` and is acknowledged only after `fdatasync`, so a
/// crash can leave only what an interrupted write leaves behind:
///
/// - a process killed mid-write leaves a *prefix* of the frame: fewer bytes than the header
///   announces (or fewer than a header), starting with the frame magic;
/// - a power loss leaves blocks the disk never wrote, which read back as *zeros* (on file
///   systems that never expose stale blocks: ext4 in its default data=ordered mode, XFS,
///   btrfs, APFS): the file ends in a run of at least 64 zero bytes, or a 512-byte sector
///   inside the frame (at least 64 bytes of it) is zero.
///
/// Everything else is damage: a complete frame whose non-zero bytes fail the checksum (a bit
/// flip), a header that does not parse, or a frame whose length field alone was altered (it
/// checks out when the length is set to what the file holds). Only a torn write may be cut;
/// damage refuses the open and is repaired only by `tally repair`. A zero run of 64 bytes never
/// occurs inside a valid frame: payloads are LZ4-compressed (which folds such runs) or, when
/// compression does not help, stored raw because they have no such runs; encrypted payloads
/// look random.
enum TornWrite {
    /// The unit a disk writes atomically, and so the unit a power loss zeroes.
    static let sectorBytes: Int64 = 512
    /// The shortest zero run (at the end of the file, or a sector's worth) taken as unwritten.
    static let zeroRunBytesMin = 64

    /// Whether `region`, the bytes from `offset` (where the last valid frame ends) to the end
    /// of the file, is what an interrupted append leaves behind.
    static func explains(_ region: [UInt8], at offset: Int64) -> Bool {
        if region.allSatisfy({ $0 == 0 }) || endsInZeros(region) || hasUnwrittenSector(region, at: offset) { return true }
        let magic = FrameHeader.magic
        guard region.count >= FrameHeader.size else {
            return region.prefix(magic.count).elementsEqual(magic.prefix(min(magic.count, region.count)))
        }
        return region.withUnsafeBytes { bytes in
            guard case .success(let header) = FrameHeader.decode(bytes), header.frameBytes > bytes.count else {
                return false  // a complete frame failing its checksum, or a header that does not parse
            }
            return !checksWithStoredLength(bytes.count - FrameHeader.size, bytes, header)
        }
    }

    /// Reads the bytes after `offset` in the last segment and classifies them.
    static func explainsTail(of file: any JournalFile, path: FilePath, from offset: Int64, fileSize: Int64) throws(JournalError) -> Bool {
        let count = Int(fileSize - offset)
        let region = try withErrno("read", path) { () throws(Errno) in try file.readBytes(count: count, at: offset) }
        return explains(region, at: offset)
    }

    /// The region ends in a zero run long enough to be unwritten blocks (a zero-filled tail).
    private static func endsInZeros(_ region: [UInt8]) -> Bool {
        region.count >= zeroRunBytesMin && region.suffix(zeroRunBytesMin).allSatisfy { $0 == 0 }
    }

    /// A sector-aligned piece of `region` that is all zeros and long enough to be unwritten.
    private static func hasUnwrittenSector(_ region: [UInt8], at offset: Int64) -> Bool {
        var start = 0
        while start < region.count {
            let fileOffset = offset + Int64(start)
            let sectorEnd = (fileOffset / sectorBytes + 1) * sectorBytes
            let end = min(region.count, start + Int(sectorEnd - fileOffset))
            if end - start >= zeroRunBytesMin, region[start..<end].allSatisfy({ $0 == 0 }) { return true }
            start = end
        }
        return false
    }

    /// Whether the frame checks out when its stored length is `storedLength` (what the file
    /// holds): then only the length field was altered, and the frame is complete and damaged.
    private static func checksWithStoredLength(_ storedLength: Int, _ bytes: UnsafeRawBufferPointer, _ header: FrameHeader) -> Bool {
        var headerBytes = Array(bytes[0..<FrameHeader.checksummedBytes])
        let length = UInt32(truncatingIfNeeded: storedLength)
        for index in 0..<4 { headerBytes[8 + index] = UInt8(truncatingIfNeeded: length >> (8 * UInt32(index))) }
        let computed = headerBytes.withUnsafeBytes { headerBuffer in
            CRC32C.extend(CRC32C.extend(0, headerBuffer), UnsafeRawBufferPointer(rebasing: bytes[FrameHeader.size...]))
        }
        return computed == header.checksum
    }
}
