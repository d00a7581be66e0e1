import CTallyCRC32C

/// CRC32C (Castagnoli). Hardware instruction where the CPU has one, slicing-by-8 table otherwise.
/// Written here because no package this project may use offers CRC32C (see Docs/Architecture.md).
public enum CRC32C {
    /// Extends `crc` (0 to start) over `bytes`.
    @inline(__always)
    public static func extend(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress else { return crc }
        return tally_crc32c_extend(crc, base, bytes.count)
    }

    /// The checksum of `bytes`.
    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { extend(0, $0) }
    }

    /// True when the hardware path is in use on this CPU.
    public static var isHardwareAccelerated: Bool { tally_crc32c_is_hardware_accelerated() != 0 }
}
