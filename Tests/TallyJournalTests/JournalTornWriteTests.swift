import SystemPackage
import TallyJournal
import TallyTestSupport
import Testing

/// Issue 13 A2, the edges of telling a torn write from damage (Docs/JournalFormat.md, "Torn
/// writes and damaged frames"): zeros inside a raw frame, zeros before a later frame that
/// writeback persisted first, a tail longer than any frame, and the copy a cut keeps.
@Suite("Torn writes and damaged frames")
struct JournalTornWriteTests {
    /// A journal of three frames on the in-memory file system; the last is stored raw (random
    /// bytes do not compress) and ends in 64 zero bytes of its own.
    static func journal() async throws -> (segment: String, bytes: [UInt8], frames: [JournalFrame]) {
        let fileSystem = FaultInjectingFileSystem()
        var random = SeededRandom(seed: 9)
        let journal = try Journal.open(at: journalPath, options: JournalOptions(durability: .none), fileSystem: fileSystem)
        try await journal.append([NewRecord(recordedAtMilliseconds: 1, typeTag: 1, schemaVersion: 1, payload: random.bytes(100))])
        try await journal.append([NewRecord(recordedAtMilliseconds: 2, typeTag: 1, schemaVersion: 1, payload: random.bytes(3000))])
        let payload = random.bytes(20_000) + [UInt8](repeating: 0, count: 64)
        try await journal.append([NewRecord(recordedAtMilliseconds: 3, typeTag: 1, schemaVersion: 1, payload: payload)])
        try journal.close()
        var frames: [JournalFrame] = []
        try JournalReader.open(at: journalPath, fileSystem: fileSystem).forEachFrame { frames.append($0); return true }
        #expect(!frames[2].isCompressed, "the last frame is stored raw")
        let name = try segmentNames(fileSystem)[0]
        return (name, try #require(fileSystem.contents(of: journalPath.appending(name))), frames)
    }

    static func fileSystem(_ name: String, _ bytes: [UInt8]) throws -> FaultInjectingFileSystem {
        let fileSystem = FaultInjectingFileSystem()
        try fileSystem.createDirectory(at: journalPath)
        let file = try fileSystem.createFile(at: journalPath.appending(name))
        try bytes.withUnsafeBytes { try file.write($0, at: 0) }
        try file.synchronize()
        return fileSystem
    }

    static func isCorruption(at offset: Int64) -> (any Error) -> Bool {
        { error in
            guard case .corruption(let problem) = error as? JournalError else { return false }
            return problem.kind != .tornTail && problem.location.offset == offset && problem.location.sequenceNumber != nil
        }
    }

    @Test("A2: one bit flipped in a raw last frame that holds a zero run of its own is damage (one flipped bit explains the checksum), never cut")
    func flipInRawFrameWithZerosIsDamage() async throws {
        let (name, original, frames) = try await Self.journal()
        for position in [Int(frames[2].offset) + 50, original.count - 5_000, original.count - 70, Int(frames[2].offset) + 93] {
            var bytes = original
            bytes[position] ^= 0x04
            let fileSystem = try Self.fileSystem(name, bytes)
            #expect(performing: { try Journal.open(at: journalPath, fileSystem: fileSystem) }, throws: Self.isCorruption(at: frames[2].offset))
            #expect(performing: { try JournalReader.open(at: journalPath, fileSystem: fileSystem) }, throws: Self.isCorruption(at: frames[2].offset))
            #expect(fileSystem.contents(of: journalPath.appending(name)) == bytes, "nothing was cut (flip at \(position))")
        }
    }

    @Test("A2: unwritten zeros before a later valid frame (writeback persisted it first) are a torn write: open cuts from the zeros, keeps the cut bytes, and never refuses; a flip there is damage")
    func zerosBeforeALaterFrameAreTorn() async throws {
        let (name, original, frames) = try await Self.journal()
        var zeroed = original
        let middle = frames[1]
        for index in Int(middle.offset)..<(Int(middle.offset) + 96 + middle.storedBytes) { zeroed[index] = 0 }
        let fileSystem = try Self.fileSystem(name, zeroed)
        let journal = try Journal.open(at: journalPath, fileSystem: fileSystem)
        #expect(journal.lastSequenceNumber == 1)
        #expect(journal.recoveryReport.bytesDropped == Int64(original.count) - middle.offset)
        let saved = try #require(journal.recoveryReport.savedTornBytes)
        #expect(fileSystem.contents(of: journalPath.appending(saved)) == Array(zeroed[Int(middle.offset)...]), "the cut bytes are kept")
        try journal.close()

        var flipped = original
        flipped[Int(middle.offset) + 200] ^= 0x01
        let damaged = try Self.fileSystem(name, flipped)
        #expect(performing: { try Journal.open(at: journalPath, fileSystem: damaged) }, throws: Self.isCorruption(at: middle.offset))
    }

    @Test("A2: zeros at the end of an acknowledged middle frame (every append synced before the next) are damage: the later frames prove it durable, so nothing is cut")
    func zerosInAnAcknowledgedMiddleFrameAreDamage() async throws {
        let fileSystem = FaultInjectingFileSystem()
        var random = SeededRandom(seed: 12)
        let journal = try Journal.open(at: journalPath, fileSystem: fileSystem)  // synchronous: each append is synced
        for index in 0..<4 {
            try await journal.append([NewRecord(recordedAtMilliseconds: Int64(index), typeTag: 1, schemaVersion: 1, payload: random.bytes(700))])
        }
        try journal.close()
        var frames: [JournalFrame] = []
        try JournalReader.open(at: journalPath, fileSystem: fileSystem).forEachFrame { frames.append($0); return true }
        let name = try segmentNames(fileSystem)[0]
        var bytes = try #require(fileSystem.contents(of: journalPath.appending(name)))
        let end = Int(frames[1].offset) + 96 + frames[1].storedBytes
        for index in (end - 64)..<end { bytes[index] = 0 }
        let damaged = try Self.fileSystem(name, bytes)
        #expect(performing: { try Journal.open(at: journalPath, fileSystem: damaged) }, throws: Self.isCorruption(at: frames[1].offset))
        #expect(performing: { try JournalReader.open(at: journalPath, fileSystem: damaged) }, throws: Self.isCorruption(at: frames[1].offset))
        #expect(damaged.contents(of: journalPath.appending(name)) == bytes, "nothing was cut")
    }

    @Test("A2: a middle frame of an unsynced group commit whose own end is zeros, with a byte changed before them, is damage when the next valid frame starts in the same sector (that sector was written whole): never cut with the frames after it")
    func zeroEndedFrameBeforeALaterFrameInItsSectorIsDamage() async throws {
        let fileSystem = FaultInjectingFileSystem()
        var random = SeededRandom(seed: 31)
        // A group commit: nothing synced between appends, so every later frame says the earlier ones were unsynced.
        let journal = try Journal.open(at: journalPath, options: JournalOptions(durability: .none), fileSystem: fileSystem)
        try await journal.append([NewRecord(recordedAtMilliseconds: 1, typeTag: 1, schemaVersion: 1, payload: random.bytes(300))])
        // Raw (random bytes do not compress; LZ4 keeps the last five bytes literal), ending in five zero bytes of its own, and short, so the frame after it starts in the sector of those zeros.
        try await journal.append([NewRecord(recordedAtMilliseconds: 2, typeTag: 1, schemaVersion: 1, payload: random.bytes(150) + [0, 0, 0, 0, 0])])
        for index in 3...6 {
            try await journal.append([NewRecord(recordedAtMilliseconds: Int64(index), typeTag: 1, schemaVersion: 1, payload: random.bytes(200))])
        }
        try journal.close()
        var frames: [JournalFrame] = []
        try JournalReader.open(at: journalPath, fileSystem: fileSystem).forEachFrame { frames.append($0); return true }
        let name = try segmentNames(fileSystem)[0]
        var bytes = try #require(fileSystem.contents(of: journalPath.appending(name)))
        let middle = frames[1]
        let end = Int(middle.offset) + 96 + middle.storedBytes
        #expect(!middle.isCompressed && end / 512 == Int(frames[2].offset) / 512, "the next frame starts in the sector of the zeros")
        bytes[end - 20] ^= 0x81  // two bits flipped: no single flipped bit explains the checksum
        let damaged = try Self.fileSystem(name, bytes)
        #expect(performing: { try Journal.open(at: journalPath, fileSystem: damaged) }, throws: Self.isCorruption(at: middle.offset))
        #expect(performing: { try JournalReader.open(at: journalPath, fileSystem: damaged) }, throws: Self.isCorruption(at: middle.offset))
        #expect(damaged.contents(of: journalPath.appending(name)) == bytes, "nothing was cut")
    }

    @Test("a second torn cut at the same offset keeps its own copy; the first is never overwritten")
    func secondCutAtTheSameOffsetKeepsBothCopies() async throws {
        let (name, original, frames) = try await Self.journal()
        let fileSystem = try Self.fileSystem(name, Array(original.prefix(Int(frames[2].offset) + 500)))
        let first = try Journal.open(at: journalPath, fileSystem: fileSystem)
        #expect(first.recoveryReport.savedTornBytes == "torn/\(name).from-\(frames[2].offset)")
        try first.close()
        let file = try fileSystem.openFile(at: journalPath.appending(name), writable: true)
        try Array(original[Int(frames[2].offset)..<(Int(frames[2].offset) + 300)]).withUnsafeBytes { try file.write($0, at: frames[2].offset) }
        try file.synchronize()
        let second = try Journal.open(at: journalPath, fileSystem: fileSystem)
        #expect(second.recoveryReport.savedTornBytes == "torn/\(name).from-\(frames[2].offset).2")
        #expect(fileSystem.contents(of: journalPath.appending("torn/\(name).from-\(frames[2].offset)"))?.count == 500)
        try second.close()
    }

    @Test("A2/C: a tail longer than any frame (a file extended by hundreds of MiB) is damage, refused without reading it whole")
    func tailLongerThanAnyFrameIsDamage() async throws {
        let (name, original, frames) = try await Self.journal()
        let directory = try TemporaryDirectory("tally-torn-sparse")
        defer { directory.remove() }
        let fileSystem = PosixFileSystem()
        try fileSystem.replaceAtomically(directory.appending(name), with: original)
        let file = try fileSystem.openFile(at: directory.appending(name), writable: true)
        try file.truncate(to: Int64(original.count) + (256 << 20))  // sparse: nothing allocated
        #expect(performing: { try Journal.open(at: directory.path, fileSystem: fileSystem) },
                throws: Self.isCorruption(at: Int64(frames[2].offset) + Int64(96 + frames[2].storedBytes)))
    }

    @Test("a torn tail's bytes are kept in torn/<segment>.from-<offset> before the cut (never the only copy)")
    func tornTailBytesAreKept() async throws {
        let (name, original, frames) = try await Self.journal()
        let cutFrame = Array(original.prefix(Int(frames[2].offset) + 500))
        let fileSystem = try Self.fileSystem(name, cutFrame)
        let journal = try Journal.open(at: journalPath, fileSystem: fileSystem)
        #expect(journal.lastSequenceNumber == 2)
        #expect(journal.recoveryReport.savedTornBytes == "torn/\(name).from-\(frames[2].offset)")
        #expect(fileSystem.contents(of: journalPath.appending("torn/\(name).from-\(frames[2].offset)")) == Array(cutFrame[Int(frames[2].offset)...]))
        try journal.close()
    }
}
