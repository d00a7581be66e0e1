import SystemPackage
@testable import TallyJournal
import TallyTestSupport
import Testing

/// Tampering with an encrypted journal by someone who recomputes every CRC32C and the whole
/// (unkeyed) hash chain: AES-GCM's tag still refuses the frame, at its location.
@Suite("Journal tampering with encryption at rest")
struct JournalTamperingTests {
    static let key = [UInt8](repeating: 0x5A, count: 32)

    /// Three encrypted frames of one record each, in one segment.
    static func writeJournal(_ fileSystem: FaultInjectingFileSystem) async throws -> (JournalEncryption, [JournalFrame]) {
        let encryption = try JournalEncryption(keyID: 1, key: key)
        var options = JournalOptions(durability: .synchronous)
        options.encryption = encryption
        let journal = try Journal.open(at: journalPath, options: options, fileSystem: fileSystem)
        for index in 0..<3 {
            try await journal.append([NewRecord(recordedAtMilliseconds: Int64(100 + index), typeTag: 7, schemaVersion: 1,
                                                payload: Array("salary CHF 5000.00 #\(index)".utf8))])
        }
        try journal.close()
        var frames: [JournalFrame] = []
        try JournalReader.open(at: journalPath, fileSystem: fileSystem, encryption: encryption).forEachFrame { frames.append($0); return true }
        return (encryption, frames)
    }

    /// Recomputes, from `frames[start]` on, every frame's chain value (bytes 60..<92) and CRC32C,
    /// as a tamperer without the encryption key can.
    static func relink(_ bytes: inout [UInt8], frames: [JournalFrame], from start: Int) {
        var previous = start == 0 ? ChainValue.genesis : frames[start - 1].chainValue
        for frame in frames[start...] {
            let offset = Int(frame.offset)
            let payload = (offset + 96)..<(offset + 96 + frame.storedBytes)
            let next = bytes.withUnsafeBytes { all in
                HashChain(key: nil).next(after: previous, header: UnsafeRawBufferPointer(rebasing: all[offset..<(offset + 60)]),
                                         payload: UnsafeRawBufferPointer(rebasing: all[payload]))
            }
            bytes.replaceSubrange((offset + 60)..<(offset + 92), with: next.bytes)
            SegmentBytes.resealFrame(&bytes, at: offset)
            previous = next
        }
    }

    static func expectRefusedAtFrame(_ fileSystem: FaultInjectingFileSystem, _ encryption: JournalEncryption, _ victim: JournalFrame) throws {
        let verification = try JournalVerifier.verify(at: journalPath, fileSystem: fileSystem)
        #expect(verification.problems.isEmpty, "CRC and chain were recomputed, so only the key can tell: \(verification.problems)")
        let withKey = try JournalVerifier.verify(at: journalPath, encryption: encryption, fileSystem: fileSystem)
        #expect(withKey.problems.map(\.kind) == [.decryptionFailed])
        #expect(withKey.problems.first?.location.offset == victim.offset)
        var served: [UInt64] = []
        do {
            try JournalReader.open(at: journalPath, fileSystem: fileSystem, encryption: encryption).forEachFrame { frame in
                served += frame.records.map(\.sequenceNumber)
                return true
            }
            Issue.record("the altered frame was served")
        } catch {
            guard case .wrongEncryptionKey(let keyID, let location) = error as? JournalError else {
                Issue.record("expected wrongEncryptionKey, got \(error)")
                return
            }
            #expect(keyID == 1)
            #expect(location.segment == victim.segment && location.offset == victim.offset)
            #expect("\(error)".contains("altered"))
        }
        #expect(served == Array(1..<victim.firstSequenceNumber), "only the frames before the altered one are served")
    }

    @Test("journal guarantee: altered ciphertext with CRC and chain recomputed is wrongEncryptionKey at that frame")
    func alteredCiphertext() async throws {
        let fileSystem = FaultInjectingFileSystem()
        let (encryption, frames) = try await Self.writeJournal(fileSystem)
        let victim = frames[1]
        let segment = journalPath.appending(victim.segment)
        var bytes = try #require(fileSystem.contents(of: segment))
        bytes[Int(victim.offset) + 96 + 3] ^= 0x01
        Self.relink(&bytes, frames: frames, from: 1)
        fileSystem.setContents(of: segment, to: bytes)
        try Self.expectRefusedAtFrame(fileSystem, encryption, victim)
    }

    @Test("journal guarantee: an altered authenticated header field (recordedAt) with CRC and chain recomputed is wrongEncryptionKey at that frame")
    func alteredAuthenticatedHeader() async throws {
        let fileSystem = FaultInjectingFileSystem()
        let (encryption, frames) = try await Self.writeJournal(fileSystem)
        let victim = frames[1]
        let segment = journalPath.appending(victim.segment)
        var bytes = try #require(fileSystem.contents(of: segment))
        // First and last recordedAt (bytes 32..<48) both moved by one second: the header stays
        // consistent with the records, so only the authentication tag can notice.
        for field in [32, 40] {
            let start = Int(victim.offset) + field
            let value = bytes[start..<(start + 8)].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) } + 1000
            SegmentBytes.put(value, into: &bytes, at: start)
        }
        Self.relink(&bytes, frames: frames, from: 1)
        fileSystem.setContents(of: segment, to: bytes)
        try Self.expectRefusedAtFrame(fileSystem, encryption, victim)
    }

    @Test("journal guarantee: altering the last encrypted frame (CRC and chain recomputed) fails Journal.open with wrongEncryptionKey")
    func alteredLastFrameFailsOpen() async throws {
        let fileSystem = FaultInjectingFileSystem()
        let (encryption, frames) = try await Self.writeJournal(fileSystem)
        let victim = frames[2]
        let segment = journalPath.appending(victim.segment)
        var bytes = try #require(fileSystem.contents(of: segment))
        bytes[Int(victim.offset) + 96] ^= 0x80
        Self.relink(&bytes, frames: frames, from: 2)
        fileSystem.setContents(of: segment, to: bytes)
        var options = JournalOptions(durability: .synchronous)
        options.encryption = encryption
        #expect {
            try Journal.open(at: journalPath, options: options, fileSystem: fileSystem)
        } throws: { error in
            guard case .wrongEncryptionKey(_, let location) = error as? JournalError else { return false }
            return location.offset == victim.offset
        }
    }
}
