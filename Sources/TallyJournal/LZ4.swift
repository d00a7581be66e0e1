import CLZ4

/// LZ4 block compression (liblz4), one block per frame payload.
enum LZ4 {
    /// Compresses `source` into a new buffer after `prefixBytes` zero bytes, or returns nil
    /// when the result would not be smaller than the input (the frame then stores it raw).
    static func compressIfSmaller(_ source: UnsafeRawBufferPointer, prefixBytes: Int) -> [UInt8]? {
        guard source.count > 16, source.count <= Int(LZ4_MAX_INPUT_SIZE) else { return nil }
        let capacity = source.count - 1
        var output = [UInt8](repeating: 0, count: prefixBytes + capacity)
        let written = output.withUnsafeMutableBytes { out in
            LZ4_compress_default(
                source.baseAddress?.assumingMemoryBound(to: CChar.self),
                out.baseAddress.map { ($0 + prefixBytes).assumingMemoryBound(to: CChar.self) },
                Int32(source.count), Int32(capacity))
        }
        guard written > 0 else { return nil }
        output.removeSubrange((prefixBytes + Int(written))...)
        return output
    }

    /// Decompresses `source` into exactly `rawLength` bytes, or nil when the block is damaged.
    static func decompress(_ source: UnsafeRawBufferPointer, rawLength: Int) -> [UInt8]? {
        guard rawLength > 0 else { return source.isEmpty ? [] : nil }
        var output = [UInt8](repeating: 0, count: rawLength)
        let produced = output.withUnsafeMutableBytes { out in
            LZ4_decompress_safe(
                source.baseAddress?.assumingMemoryBound(to: CChar.self),
                out.baseAddress?.assumingMemoryBound(to: CChar.self),
                Int32(source.count), Int32(rawLength))
        }
        return produced == Int32(rawLength) ? output : nil
    }
}
