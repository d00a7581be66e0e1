/// Whether one flipped bit explains a frame's CRC32C mismatch: the signature of damage to a
/// complete, acknowledged frame, which no interrupted write produces (`TornWrite`).
///
/// CRC32C is linear over GF(2): for two messages of the same length,
/// `crc(a) ^ crc(b) = L(a ^ b)`, where `L` is the CRC register with a zero start and no final
/// inversion. A bit flipped at byte `j` (bit `b`) of an `n`-byte message changes the CRC by
/// `Z^(n-1-j)(T[1 << b])`, where `T` is the byte table and `Z` feeds one zero byte through the
/// register. Walking the message from its end with eight registers finds such a bit in O(n);
/// a flip in the stored checksum itself changes one bit of it.
enum SingleBitError {
    /// CRC32C's reflected byte table (polynomial 0x82F63B78).
    static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? (value >> 1) ^ 0x82F6_3B78 : value >> 1 }
        return value
    }

    /// Whether one flipped bit of the stored-length field explains why the frame's checksum
    /// fails: some length that differs from the stored one in one bit, no longer than
    /// `bytes`, makes header and payload check out. `bytes`: from the frame's start.
    static func explainsLengthFlip(_ bytes: UnsafeRawBufferPointer, header: FrameHeader) -> Bool {
        guard bytes.count >= FrameHeader.size else { return false }
        var headerBytes = Array(bytes[0..<FrameHeader.checksummedBytes])
        for bit in 0..<32 {
            let length = UInt32(truncatingIfNeeded: header.storedLength) ^ (1 << UInt32(bit))
            guard Int(length) <= bytes.count - FrameHeader.size else { continue }
            for index in 0..<4 { headerBytes[8 + index] = UInt8(truncatingIfNeeded: length >> (8 * UInt32(index))) }
            let computed = headerBytes.withUnsafeBytes { headerBuffer in
                CRC32C.extend(
                    CRC32C.extend(0, headerBuffer),
                    UnsafeRawBufferPointer(rebasing: bytes[FrameHeader.size..<(FrameHeader.size + Int(length))]))
            }
            if computed == header.checksum { return true }
        }
        return false
    }

    /// `frame`: a complete frame's bytes (header and stored payload) whose checksum fails.
    /// Returns the frame offset of the byte whose one flipped bit explains the mismatch (a bit
    /// of the stored checksum itself included), or nil when no single bit does.
    static func position(frame: UnsafeRawBufferPointer, header: FrameHeader) -> Int? {
        let checksummed = UnsafeRawBufferPointer(rebasing: frame[0..<FrameHeader.checksummedBytes])
        let payload = UnsafeRawBufferPointer(rebasing: frame[FrameHeader.size..<header.frameBytes])
        let difference = CRC32C.extend(CRC32C.extend(0, checksummed), payload) ^ header.checksum
        guard difference != 0 else { return nil }
        if difference.nonzeroBitCount == 1 {  // the stored checksum's own bit
            return FrameHeader.checksummedBytes + difference.trailingZeroBitCount / 8
        }
        var registers = (0..<8).map { table[1 << $0] }
        let messageBytes = checksummed.count + payload.count
        for distanceFromEnd in 0..<messageBytes {
            if registers.contains(difference) {
                let messageIndex = messageBytes - 1 - distanceFromEnd
                // The checksum field (4 bytes) sits between the checksummed header and the payload.
                return messageIndex < FrameHeader.checksummedBytes ? messageIndex : messageIndex + 4
            }
            for bit in 0..<8 { registers[bit] = (registers[bit] >> 8) ^ table[Int(registers[bit] & 0xFF)] }
        }
        return nil
    }
}
