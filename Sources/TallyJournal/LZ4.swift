import CLZ4

/// LZ4 block compression (liblz4), one block per frame payload.
enum LZ4 {
    /// Compresses `source` into a new buffer after `prefixBytes` zero bytes, or returns nil
    /// when the result would not be smaller than the input (the frame then stores it raw).
    static func compressIfSmaller(_ source: UnsafeRawBufferPointer, prefixBytes: Int) -> [UInt8]? {
        guard source.count > 16, source.count <= Int(LZ4_MAX_INPUT_SIZE) else { return nil }
        let capacity = source.count - 1
        var written: Int32 = 0
        // Not zero-filled: only the prefix and the compressed bytes are ever read.
        let output = [UInt8](unsafeUninitializedCapacity: prefixBytes + capacity) { buffer, count in
            guard let base = buffer.baseAddress else { return }
            base.initialize(repeating: 0, count: prefixBytes)
            written = LZ4_compress_default(
                source.baseAddress?.assumingMemoryBound(to: CChar.self),
                UnsafeMutableRawPointer(base + prefixBytes).assumingMemoryBound(to: CChar.self),
                Int32(source.count), Int32(capacity))
            count = prefixBytes + Int(max(written, 0))
        }
        return written > 0 ? output : nil
    }

    /// Decompresses `source` into exactly `rawLength` bytes, or nil when the block is damaged.
    static func decompress(_ source: UnsafeRawBufferPointer, rawLength: Int) -> [UInt8]? {
        guard rawLength > 0 else { return source.isEmpty ? [] : nil }
        var produced: Int32 = 0
        let output = [UInt8](unsafeUninitializedCapacity: rawLength) { buffer, count in
            produced = LZ4_decompress_safe(
                source.baseAddress?.assumingMemoryBound(to: CChar.self),
                UnsafeMutableRawPointer(buffer.baseAddress)?.assumingMemoryBound(to: CChar.self),
                Int32(source.count), Int32(rawLength))
            count = produced == Int32(rawLength) ? rawLength : 0
        }
        return produced == Int32(rawLength) ? output : nil
    }
}
