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
///   btrfs, APFS): a frame whose end is zeros, or a 512-byte sector that is zero (at least 64
///   bytes of it, or the piece where the frame starts). Writeback may persist a later
///   frame of the same group commit before an earlier one, so such zeros may also sit *before*
///   a valid frame that was written before them was synced.
///
/// Everything else is damage: a complete frame whose non-zero bytes fail the checksum, a
/// header that does not parse, a frame whose length field lost or gained one bit (it checks
/// out with that bit flipped back), and any complete frame whose checksum mismatch one
/// flipped bit explains, even if it holds zeros of its own (a raw payload may).
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
        // What was written: the bytes before the zeros that end the region.
        let written = region.count - region.reversed().prefix { $0 == 0 }.count
        if case .success(let frame) = header {
            // One flipped bit in a complete frame is damage, whatever zeros it holds. (A power
            // loss that zeroes a frame's last bytes where they differ from zero in one bit alone
            // looks the same; it is refused, and `tally repair` keeps every acknowledged record:
            // Docs/JournalFormat.md, "Torn writes and damaged frames".)
            if frame.frameBytes <= region.count,
               region.withUnsafeBytes({ SingleBitError.position(frame: $0, header: frame) }) != nil {
                return false
            }
            if region.withUnsafeBytes({ SingleBitError.explainsLengthFlip($0, header: frame) }) {
                return false  // one flipped bit of the length field: a complete, damaged frame
            }
        }
        guard reachesEndOfFile else {
            // Before a later valid frame only whole blocks the disk never wrote explain a gap:
            // a killed process leaves its prefix at the end of the file, never before a later
            // write, and the sector where that later frame starts was written whole, so zeros
            // in it are bytes that were written (damage).
            let endSector = (offset + Int64(region.count)) / sectorBytes * sectorBytes
            return hasUnwrittenSector(region, at: offset, before: endSector)
        }
        if hasUnwrittenSector(region, at: offset, before: offset + Int64(region.count)) { return true }
        if written == 0 { return true }
        let magic = FrameHeader.magic
        guard written >= FrameHeader.size else {
            return region.prefix(min(magic.count, written)).elementsEqual(magic.prefix(min(magic.count, written)))
        }
        // A frame whose end was never written: cut short, or its tail unwritten zeros.
        guard case .success(let frame) = header else { return false }
        return written < frame.frameBytes
    }

    /// A sector-aligned piece of `region` that is all zeros and is a block the disk never
    /// wrote: at least 64 bytes, or the piece where the region starts, however short (a frame
    /// starts with `TFRM`, which no flipped bit turns into zeros). A short zero piece at the
    /// end is not enough on its own (a frame may end in zeros of its own); a frame whose end
    /// is zeros is judged by its header instead (`explains`). Only pieces that start before
    /// file offset `limit` count.
    private static func hasUnwrittenSector(_ region: [UInt8], at offset: Int64, before limit: Int64) -> Bool {
        var start = 0
        while start < region.count {
            let fileOffset = offset + Int64(start)
            guard fileOffset < limit else { return false }
            let sectorEnd = (fileOffset / sectorBytes + 1) * sectorBytes
            let end = min(region.count, start + Int(sectorEnd - fileOffset))
            if end - start >= zeroRunBytesMin || start == 0, region[start..<end].allSatisfy({ $0 == 0 }) { return true }
            start = end
        }
        return false
    }
}
