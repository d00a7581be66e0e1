import SystemPackage
import TallyJournal
import TallyTestSupport

/// Journals for the tests of the segment index (Docs/JournalFormat.md, "Segment index"):
/// frames of one incompressible 100-byte record each, so every frame has the same length (200
/// bytes) and a read count does not depend on the seed.
enum IndexedJournal {
    static let frameBytes = 200

    /// The path of the index beside segment `name`.
    static func indexPath(of segmentName: String, in directory: FilePath = journalPath) -> FilePath {
        directory.appending(String(segmentName.dropLast(".segment".count)) + ".index")
    }

    /// Appends `frames` frames of one record each to `journal`.
    static func append(_ frames: Int, to journal: Journal, seed: UInt64 = 7) async throws {
        var random = SeededRandom(seed: seed)
        for _ in 0..<frames {
            try await journal.append(SegmentBytes.incompressibleBatch(count: 1, bytes: 100, random: &random))
        }
    }

    /// A journal of `frames` frames, closed (the index's tail slot then names the last frame).
    static func closed(
        frames: Int, segmentBytesMax: Int64? = nil, fileSystem: FaultInjectingFileSystem = FaultInjectingFileSystem()
    ) async throws -> FaultInjectingFileSystem {
        let journal = try Journal.open(at: journalPath, options: options(segmentBytesMax), fileSystem: fileSystem)
        try await append(frames, to: journal)
        try journal.close()
        return fileSystem
    }

    static func options(_ segmentBytesMax: Int64? = nil) -> JournalOptions {
        var options = JournalOptions(durability: .none)
        if let segmentBytesMax { options.segmentBytesMax = segmentBytesMax }
        return options
    }

    /// Reads of segment files (count, bytes) while `body` runs.
    static func segmentReads<T>(
        _ fileSystem: FaultInjectingFileSystem, _ body: () throws -> T
    ) rethrows -> (result: T, count: Int, bytes: Int) {
        let before = fileSystem.reads(ofPathsEndingWith: ".segment")
        let result = try body()
        let after = fileSystem.reads(ofPathsEndingWith: ".segment")
        return (result, after.count - before.count, after.bytes - before.bytes)
    }

    /// The frames of the journal (segment, offset, sequence numbers), read whole.
    static func frames(_ fileSystem: FaultInjectingFileSystem) throws -> [JournalFrame] {
        var frames: [JournalFrame] = []
        try JournalReader.open(at: journalPath, fileSystem: fileSystem).forEachFrame { frame in
            frames.append(frame)
            return true
        }
        return frames
    }

    /// Rewrites the 64-byte entry at `offset` of the index file (the tail slot is at 64) with
    /// `change` applied to its bytes, and recomputes its CRC32C: a lie that checks out.
    static func rewriteEntry(
        at offset: Int, of indexPath: FilePath, in fileSystem: FaultInjectingFileSystem, _ change: (inout [UInt8]) -> Void
    ) {
        guard var bytes = fileSystem.contents(of: indexPath), bytes.count >= offset + 64 else { return }
        var entry = Array(bytes[offset..<(offset + 64)])
        change(&entry)
        let crc = entry.withUnsafeBytes { CRC32C.extend(0, UnsafeRawBufferPointer(rebasing: $0[0..<60])) }
        SegmentBytes.put(crc, into: &entry, at: 60)
        bytes.replaceSubrange(offset..<(offset + 64), with: entry)
        fileSystem.setContents(of: indexPath, to: bytes)
    }

    /// A writer that is dropped without `close()`, as a killed process leaves it: what it
    /// appended is in the files, its index's tail slot is not updated.
    static func appendWithoutClosing(_ frames: Int, fileSystem: FaultInjectingFileSystem, seed: UInt64) async throws {
        let journal = try Journal.open(at: journalPath, options: options(), fileSystem: fileSystem)
        try await append(frames, to: journal, seed: seed)
        try journal.synchronize()
    }
}
