import TallyJournal

/// Tells a torn record from damage: what follows the last record that checks out.
///
/// New keys are appended with one write and made durable (`fdatasync`) before the journal
/// append that uses them, so a crash during that write leaves only what an interrupted write
/// leaves, and only after the last record: a prefix of the record (a killed process), or blocks
/// the disk never wrote, which read back as zeros (a power loss; on the file systems
/// `Docs/JournalFormat.md` "Torn writes" names). No acknowledged event used a key of such a
/// record, so the writer cuts it (`PersonalKeyRing.load`); readers ignore it.
///
/// Everything else is damage, refused with the file and offset: bytes that are no record, a
/// record length no writer writes, a complete record whose checksum one flipped bit explains
/// (its length field included), a complete record whose last bytes were written but fail the
/// checksum, and a record that fails its checksum followed by anything but zeros (a bad record
/// followed by good ones). The same limit as the journal's: a complete last record whose end
/// was zeroed by damage looks like a power loss and is cut; if an acknowledged event used one
/// of its keys, the open that follows refuses the unreadable texts (P2).
extension PersonalKeyFile {
    /// What the bytes after the last record that checks out are.
    enum Tail: Equatable {
        /// What an interrupted append leaves: cut by the writer, ignored by readers.
        case torn
        /// Anything else, with the reason.
        case damaged(String)
    }

    /// The unit a disk writes atomically, and so the unit a power loss leaves unwritten.
    static let sectorBytes = 512
    /// The shortest sector-aligned zero run taken as a block never written: no record holds
    /// that many zeros of its own (ids, keys and ciphertext are random; the fields before the
    /// entries are 12 bytes).
    static let zeroRunBytesMin = 64

    /// The classification of `bytes[offset...]`, where the last record that checks out ends.
    static func tail(_ bytes: [UInt8], from offset: Int) -> Tail {
        let region = bytes[offset...]
        guard region.count <= recordBytesMax else {
            return .damaged("\(region.count) bytes after the last record that checks out, more than any record holds")
        }
        // What was written: the bytes before the zeros that end the file.
        let written = region.count - region.reversed().prefix { $0 == 0 }.count
        if written == 0 { return .torn }
        guard written >= recordHeaderBytes else {
            let markerBytes = min(written, recordMarker.count)
            return region.prefix(markerBytes).elementsEqual(recordMarker.prefix(markerBytes))
                ? .torn : .damaged("bytes that are no record")
        }
        guard region.prefix(recordMarker.count).elementsEqual(recordMarker) else {
            return .damaged("bytes that are no record (no record marker)")
        }
        let length = Int(load32(bytes, at: offset + recordMarker.count))
        guard (1...bodyBytesMax).contains(length) else { return .damaged("a record length of \(length) bytes") }
        let recordBytes = recordHeaderBytes + length + checksumBytes
        if recordBytes <= region.count {
            let explained = bytes.withUnsafeBytes { all in
                CRC32C.oneFlippedBitExplains(
                    message: UnsafeRawBufferPointer(rebasing: all[offset..<(offset + recordBytes - checksumBytes)]),
                    checksum: load32(bytes, at: offset + recordBytes - checksumBytes))
            }
            if explained { return .damaged("a complete record that fails its checksum by one flipped bit") }
        }
        if lengthFlipExplains(bytes, from: offset, length: length) {
            return .damaged("a record whose length field has one flipped bit")
        }
        if region.count > recordBytes, region.dropFirst(recordBytes).contains(where: { $0 != 0 }) {
            return .damaged("a record that fails its checksum, followed by more bytes")
        }
        if hasUnwrittenSector(bytes, from: offset, to: min(bytes.count, offset + recordBytes)) { return .torn }
        return written < recordBytes ? .torn : .damaged("a complete record that fails its checksum")
    }

    /// Whether some length that differs from the stored one in one bit makes the record at
    /// `offset` check out.
    private static func lengthFlipExplains(_ bytes: [UInt8], from offset: Int, length: Int) -> Bool {
        var header = Array(bytes[offset..<(offset + recordHeaderBytes)])
        for bit in 0..<32 {
            let flipped = length ^ (1 << bit)
            guard (1...bodyBytesMax).contains(flipped), recordHeaderBytes + flipped + checksumBytes <= bytes.count - offset else { continue }
            header.replaceSubrange(recordMarker.count..<recordHeaderBytes, with: littleEndian(UInt32(flipped)))
            let end = offset + recordHeaderBytes + flipped
            let computed = header.withUnsafeBytes { headerBytes in
                bytes.withUnsafeBytes { all in
                    CRC32C.extend(CRC32C.extend(0, headerBytes), UnsafeRawBufferPointer(rebasing: all[(offset + recordHeaderBytes)..<end]))
                }
            }
            if computed == load32(bytes, at: end) { return true }
        }
        return false
    }

    /// Whether a sector-aligned piece of `bytes[start..<end]` of at least ``zeroRunBytesMin``
    /// bytes is all zeros: a block the disk never wrote.
    private static func hasUnwrittenSector(_ bytes: [UInt8], from start: Int, to end: Int) -> Bool {
        var position = start
        while position < end {
            let pieceEnd = min(end, (position / sectorBytes + 1) * sectorBytes)
            if pieceEnd - position >= zeroRunBytesMin, bytes[position..<pieceEnd].allSatisfy({ $0 == 0 }) { return true }
            position = pieceEnd
        }
        return false
    }
}
