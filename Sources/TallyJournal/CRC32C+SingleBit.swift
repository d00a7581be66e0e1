extension CRC32C {
    /// Whether one flipped bit explains why `message` does not match its stored checksum
    /// `checksum`: a bit of the message, or a bit of the stored checksum itself. False when
    /// they match or when no single bit explains the difference. O(`message.count`), by the
    /// linearity `SingleBitError` describes.
    ///
    /// For files beside the journal that keep checksummed records of their own (the personal
    /// key file, `PersonalKeyFile` in the engine): a complete record whose checksum one flipped
    /// bit explains is damage, never an interrupted write.
    package static func oneFlippedBitExplains(message: UnsafeRawBufferPointer, checksum: UInt32) -> Bool {
        let difference = extend(0, message) ^ checksum
        guard difference != 0 else { return false }
        if difference.nonzeroBitCount == 1 { return true }  // the stored checksum's own bit
        // A bit flipped `d` bytes from the end changes the checksum by Z^d(T[1 << bit]): walk
        // the eight registers back from the last byte.
        var registers = (0..<8).map { SingleBitError.table[1 << $0] }
        for _ in 0..<message.count {
            if registers.contains(difference) { return true }
            for bit in 0..<8 { registers[bit] = (registers[bit] >> 8) ^ SingleBitError.table[Int(registers[bit] & 0xFF)] }
        }
        return false
    }
}
