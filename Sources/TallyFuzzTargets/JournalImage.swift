import SystemPackage
import TallyJournal
import TallyTestSupport

/// Turns fuzz bytes into segment files (layout as in Docs/JournalFormat.md).
package enum JournalImage {
    static let segmentMagic = Array("TALLYSEG".utf8)
    static let frameMagic = Array("TFRM".utf8)
    static let segmentHeaderBytes = 64
    static let frameHeaderBytes = 96
    /// The HMAC chain key used when a segment says its chain is keyed.
    package static let chainKey = [UInt8](repeating: 0x4B, count: 32)
    /// The AES-256 key (id 1) readers are given, so encrypted seeds decrypt.
    package static let encryptionKey = [UInt8](repeating: 0x45, count: 32)

    /// Splits the input before every `TALLYSEG` that is not at offset 0.
    static func segments(in bytes: [UInt8]) -> [[UInt8]] {
        var starts = [0]
        var offset = 1
        while offset + segmentMagic.count <= bytes.count {
            if bytes[offset] == segmentMagic[0], bytes[offset..<(offset + segmentMagic.count)].elementsEqual(segmentMagic) {
                starts.append(offset)
                offset += segmentMagic.count
            } else {
                offset += 1
            }
        }
        return starts.indices.map { index in
            let end = index + 1 < starts.count ? starts[index + 1] : bytes.count
            return Array(bytes[starts[index]..<end])
        }
    }

    /// A segment's file name: the first sequence number its header announces (1 when the
    /// header is too short to say), so a changed header field reaches the header checks.
    static func fileName(of segment: [UInt8]) -> String {
        var first: UInt64 = 1
        if segment.count >= 24 {
            first = 0
            for index in (16..<24).reversed() { first = first << 8 | UInt64(segment[index]) }
        }
        let digits = String(first)
        return String(repeating: "0", count: max(0, 20 - digits.count)) + digits + ".segment"
    }

    static func isKeyedChain(_ segment: [UInt8]) -> Bool {
        segment.count > 10 && segment[10] & 1 != 0
    }

    /// The segment with its header CRC and the CRC of every frame that fits recomputed.
    static func repairingChecksums(_ segment: [UInt8]) -> [UInt8] {
        var bytes = segment
        guard bytes.count >= segmentHeaderBytes else { return bytes }
        store(CRC32C.checksum(Array(bytes[0..<60])), in: &bytes, at: 60)
        var offset = segmentHeaderBytes
        while offset + frameHeaderBytes <= bytes.count,
              bytes[offset..<(offset + 4)].elementsEqual(frameMagic) {
            var storedLength = 0
            for index in (8..<12).reversed() { storedLength = storedLength << 8 | Int(bytes[offset + index]) }
            let end = offset + frameHeaderBytes + storedLength
            guard end <= bytes.count else { break }
            let checksum = CRC32C.checksum(Array(bytes[offset..<(offset + 92)]) + bytes[(offset + frameHeaderBytes)..<end])
            store(checksum, in: &bytes, at: offset + 92)
            offset = end
        }
        return bytes
    }

    private static func store(_ value: UInt32, in bytes: inout [UInt8], at offset: Int) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }

    /// An in-memory file system with the segments as durable files in `directory`. Segments
    /// that announce the same first sequence number: the first one wins.
    static func fileSystem(holding segments: [[UInt8]], in directory: FilePath) throws(FuzzFinding) -> FaultInjectingFileSystem {
        let fileSystem = FaultInjectingFileSystem()
        do {
            try fileSystem.createDirectory(at: directory)
            var names: Set<String> = []
            for segment in segments {
                let name = fileName(of: segment)
                guard names.insert(name).inserted else { continue }
                let file = try fileSystem.createFile(at: directory.appending(name))
                try file.write(segment, at: 0)
                try file.synchronize()
            }
            try fileSystem.synchronizeDirectory(at: directory)
        } catch {
            throw FuzzFinding("the in-memory file system refused the setup: \(error)")
        }
        return fileSystem
    }
}
