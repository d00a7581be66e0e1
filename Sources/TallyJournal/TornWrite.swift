import SystemPackage

/// Tells a torn write from damage to an acknowledged frame in the last segment
/// (Docs/JournalFormat.md, "Torn writes and damaged frames").
///
/// An append writes one frame with one `pwrite` and is acknowledged only after an `fdatasync`
/// that started after it, so a crash can leave only what an interrupted write leaves:
///
/// - a process killed mid-write leaves a *prefix* of the frame at the end of the file: fewer
///   bytes than the header announces (or fewer than a header), starting with the frame magic;
/// - a power loss leaves blocks the disk never wrote, which read back as *zeros* (on file
///   systems that never expose stale blocks: ext4 in its default data=ordered mode, XFS,
///   btrfs, APFS): the bytes end in a run of at least 64 zeros, or a 512-byte sector holds at
///   least 64 zeros. Writeback may persist a later frame of the same group commit before an
///   earlier one, so such zeros may also sit *before* a valid, never-acknowledged frame.
///
/// Everything else is damage: a complete frame whose non-zero bytes fail the checksum, a
/// header that does not parse, a frame whose length field alone was altered (it checks out
/// with the length set to what the file holds), and any complete frame whose checksum
/// mismatch one flipped bit explains, even if it holds zeros of its own (a raw payload may).
/// Only a torn write may be cut; damage refuses the open and is cut only by `tally repair`.
enum TornWrite {
    /// The unit a disk writes atomically, and so the unit a power loss zeroes.
    static let sectorBytes: Int64 = 512
    /// The shortest zero run (ending the bytes, or a sector's worth) taken as unwritten.
    static let zeroRunBytesMin = 64
    /// The most bytes one interrupted append can leave: the largest frame the format allows
    /// and a sector. Anything longer is never a torn write, and is never read whole.
    static let regionBytesMax = Int64(FrameHeader.size + JournalLimits.frameBytesHardMax + 64 * 1024) + sectorBytes

    /// Whether the bytes of `file` from `offset` (where the last valid frame ends) to `end` are
    /// what an interrupted append leaves. `end` is the end of the file, or the offset of a
    /// later valid frame (then only unwritten zeros explain the gap).
    static func explains(
        _ file: any JournalFile, path: FilePath, from offset: Int64, to end: Int64, reachesEndOfFile: Bool
    ) throws(JournalError) -> Bool {
        guard end - offset <= regionBytesMax else { return false }
        let region = try withErrno("read", path) { () throws(Errno) in try file.readBytes(count: Int(end - offset), at: offset) }
        guard Int64(region.count) == end - offset else {
            throw .ioFailure(operation: "read (file shrank)", path: path.string, errno: Errno.ioError.rawValue)
        }
        return explains(region, at: offset, reachesEndOfFile: reachesEndOfFile)
    }

    /// The classification of `region` (the bytes from file offset `offset`).
    static func explains(_ region: [UInt8], at offset: Int64, reachesEndOfFile: Bool) -> Bool {
        let header = region.withUnsafeBytes { FrameHeader.decode($0) }
        if case .success(let frame) = header, frame.frameBytes <= region.count,
           region.withUnsafeBytes({ SingleBitError.explains(frame: $0, header: frame) }) {
            return false  // one flipped bit in a complete frame: damage, whatever zeros it holds
        }
        if region.allSatisfy({ $0 == 0 }) || endsInZeros(region) || hasUnwrittenSector(region, at: offset) { return true }
        guard reachesEndOfFile else { return false }
        let magic = FrameHeader.magic
        guard region.count >= FrameHeader.size else {
            return region.prefix(magic.count).elementsEqual(magic.prefix(min(magic.count, region.count)))
        }
        guard case .success(let frame) = header, frame.frameBytes > region.count else {
            return false  // a complete frame failing its checksum, or a header that does not parse
        }
        return region.withUnsafeBytes { !checksWithStoredLength($0.count - FrameHeader.size, $0, frame) }
    }

    /// The bytes end in a zero run long enough to be unwritten blocks.
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
