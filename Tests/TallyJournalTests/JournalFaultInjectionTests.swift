import SystemPackage
import TallyJournal
import TallyTestSupport
import Testing

/// Journal guarantees under faults the plain write/sync tests do not reach: a failed cut-back
/// after a failed write, EIO on read, faults at every step of segment rotation, ENOSPC on
/// `fdatasync`, and a failed background sync under `.interval` durability. In every case an
/// acknowledged record survives, a failed append leaves nothing a later open would serve, and
/// the error is a typed `JournalError`.
@Suite("Journal under injected read, truncate, rotation and sync faults")
struct JournalFaultInjectionTests {
    /// A tiny batch: never rotates a 4 KiB segment that has room for it.
    static func tiny(_ id: UInt64, _ random: inout SeededRandom) -> [NewRecord] {
        RecordFactory.batch(id: id, count: 1, fillerBytes: 4, random: &random)
    }

    /// A batch larger than a 4 KiB segment (incompressible): appending it to a segment that
    /// holds a frame rotates.
    static func rotating(_ id: UInt64, _ random: inout SeededRandom) -> [NewRecord] {
        SegmentBytes.incompressibleBatch(count: 3, bytes: 1500, random: &random)
    }

    @Test("journal guarantee: a failed write whose cut-back also fails leaves the journal refusing appends (journalFailed); reopening cuts the partial frame and keeps every acknowledged record")
    func failedWriteThenFailedTruncate() async throws {
        let fileSystem = FaultInjectingFileSystem()
        var random = SeededRandom(seed: 11)
        let journal = try Journal.open(at: journalPath, fileSystem: fileSystem)
        let acknowledged = try await appendRandomBatches(to: journal, batches: 4, random: &random)
        let segment = journalPath.appending(try segmentNames(fileSystem)[0])
        let size = try #require(fileSystem.contents(of: segment)).count
        fileSystem.setCapacity(size + 150)
        fileSystem.failNextTruncate(.ioError)
        await #expect(throws: JournalError.diskFull(path: segment.string)) {
            try await journal.append(RecordFactory.batch(id: 50, count: 20, fillerBytes: 100, random: &random))
        }
        #expect(try #require(fileSystem.contents(of: segment)).count > size, "the partial frame is still there")
        fileSystem.setCapacity(nil)
        await #expect { try await journal.append(Self.tiny(51, &random)) } throws: { error in
            (error as? JournalError)?.code == "journalFailed"
        }
        #expect(throws: JournalError.self) { try journal.close() }
        let reopened = try Journal.open(at: journalPath, fileSystem: fileSystem)
        #expect(reopened.recoveryReport.bytesDropped == 150)
        #expect(reopened.recoveryReport.truncatedAt?.offset == Int64(size))
        #expect(reopened.lastSequenceNumber == UInt64(acknowledged.count))
        try await reopened.append(Self.tiny(52, &random))
        try reopened.close()
        let records = try readAll(journalPath, fileSystem: fileSystem)
        #expect(records.count == acknowledged.count + 1)
        #expect(zip(records, acknowledged).allSatisfy { $0.matches($1) })
        #expect(try JournalVerifier.verify(at: journalPath, fileSystem: fileSystem).isClean)
    }

    @Test("journal guarantee: EIO on a read is a typed ioFailure from open, the reader and the verifier; nothing changes and the next open succeeds")
    func readFailure() async throws {
        let fileSystem = FaultInjectingFileSystem()
        var random = SeededRandom(seed: 12)
        let journal = try Journal.open(at: journalPath, options: smallSegmentOptions(), fileSystem: fileSystem)
        let written = try await appendRandomBatches(to: journal, batches: 20, random: &random)
        try journal.close()
        let isReadFailure: (any Error) -> Bool = { error in
            guard case .ioFailure(_, let path, let errno) = error as? JournalError else { return false }
            return errno == Errno.ioError.rawValue && path.hasPrefix(journalPath.string)
        }
        fileSystem.failNextRead(.ioError)
        #expect(performing: { _ = try Journal.open(at: journalPath, options: smallSegmentOptions(), fileSystem: fileSystem) },
                throws: isReadFailure)
        fileSystem.failNextRead(.ioError)
        #expect(performing: { _ = try JournalReader.open(at: journalPath, fileSystem: fileSystem) }, throws: isReadFailure)
        let reader = try JournalReader.open(at: journalPath, fileSystem: fileSystem)
        fileSystem.failNextRead(.ioError)
        #expect(performing: { _ = try reader.records() }, throws: isReadFailure)
        fileSystem.failNextRead(.ioError)
        #expect(performing: { _ = try JournalVerifier.verify(at: journalPath, fileSystem: fileSystem) }, throws: isReadFailure)
        // The failed open released the writer lock and changed nothing.
        let reopened = try Journal.open(at: journalPath, options: smallSegmentOptions(), fileSystem: fileSystem)
        #expect(reopened.lastSequenceNumber == UInt64(written.count))
        #expect(reopened.recoveryReport.isClean)
        try reopened.close()
    }

    /// A fault at one step of rotation, and whether the journal stays usable after it.
    struct RotationFault: Sendable, CustomTestStringConvertible {
        var name: String
        var arm: @Sendable (FaultInjectingFileSystem, FaultInjectingFileSystem.Fault) -> Void
        var journalStaysUsable: Bool
        var testDescription: String { name }
    }

    static let rotationFaults: [RotationFault] = [
        RotationFault(name: "fsync of the full segment", arm: { $0.failSync(after: 0, with: $1) }, journalStaysUsable: false),
        RotationFault(name: "write of the next segment's header", arm: { $0.failNextWrite($1) }, journalStaysUsable: true),
        RotationFault(name: "fsync of the next segment's header", arm: { $0.failSync(after: 1, with: $1) }, journalStaysUsable: true),
        RotationFault(name: "rename of the next segment into place", arm: { $0.failNextRename($1) }, journalStaysUsable: true),
        RotationFault(name: "directory fsync after the rename", arm: { $0.failSync(after: 2, with: $1) }, journalStaysUsable: true),
    ]

    @Test("journal guarantee: a fault at any step of segment rotation fails only that append; later appends never go to the sealed segment; reopening keeps every acknowledged record",
          arguments: rotationFaults, [FaultInjectingFileSystem.Fault.ioError, .noSpace])
    func rotationFault(_ fault: RotationFault, _ kind: FaultInjectingFileSystem.Fault) async throws {
        let fileSystem = FaultInjectingFileSystem(seed: 13)
        var random = SeededRandom(seed: 13)
        let journal = try Journal.open(at: journalPath, options: smallSegmentOptions(), fileSystem: fileSystem)
        var acknowledged = try await appendRandomBatches(to: journal, batches: 3, maxFiller: 40, random: &random)
        let sealed = journalPath.appending(try segmentNames(fileSystem).last ?? "")
        let sealedBytes = try #require(fileSystem.contents(of: sealed))
        fault.arm(fileSystem, kind)
        await #expect(throws: JournalError.self) { try await journal.append(Self.rotating(100, &random)) }
        if fault.journalStaysUsable {
            // A small batch would fit in the old segment, but the next segment may exist
            // already: the rotation is retried first, so the sealed segment is never extended.
            let small = Self.tiny(101, &random)
            try await journal.append(small)
            acknowledged += small
            #expect(fileSystem.contents(of: sealed) == sealedBytes, "the sealed segment changed after a failed rotation")
            #expect(try segmentNames(fileSystem).count == 2)
            try journal.close()
        } else {
            await #expect { try await journal.append(Self.tiny(101, &random)) } throws: { error in
                (error as? JournalError)?.code == "journalFailed"
            }
            #expect(throws: JournalError.self) { try journal.close() }
        }
        fileSystem.crash(.dropUnsynced)
        let reopened = try Journal.open(at: journalPath, options: smallSegmentOptions(), fileSystem: fileSystem)
        #expect(reopened.lastSequenceNumber == UInt64(acknowledged.count))
        try await reopened.append(Self.rotating(102, &random))
        try reopened.close()
        let records = try readAll(journalPath, fileSystem: fileSystem)
        #expect(records.count == acknowledged.count + 3)
        #expect(zip(records, acknowledged).allSatisfy { $0.matches($1) })
        #expect(try JournalVerifier.verify(at: journalPath, fileSystem: fileSystem).isClean)
    }

    @Test("journal guarantee: ENOSPC on fdatasync fails the append with journalFailed, and the unacknowledged frame is cut: a reopen does not serve it")
    func noSpaceOnSync() async throws {
        let fileSystem = FaultInjectingFileSystem()
        var random = SeededRandom(seed: 14)
        let journal = try Journal.open(at: journalPath, fileSystem: fileSystem)
        let acknowledged = try await appendRandomBatches(to: journal, batches: 4, random: &random)
        fileSystem.failNextSync(.noSpace)
        await #expect { try await journal.append(Self.tiny(60, &random)) } throws: { error in
            guard case .journalFailed(let reason) = error as? JournalError else { return false }
            return reason.contains("diskFull")
        }
        await #expect { try await journal.append(Self.tiny(61, &random)) } throws: { error in
            (error as? JournalError)?.code == "journalFailed"
        }
        #expect(throws: JournalError.self) { try journal.close() }
        // No crash: whatever the kernel kept of the failed append would be served by a reopen.
        let reopened = try Journal.open(at: journalPath, fileSystem: fileSystem)
        #expect(reopened.lastSequenceNumber == UInt64(acknowledged.count))
        try reopened.close()
        let records = try readAll(journalPath, fileSystem: fileSystem)
        #expect(records.count == acknowledged.count)
        #expect(zip(records, acknowledged).allSatisfy { $0.matches($1) })
    }

    @Test("journal guarantee: under .interval durability a failed background sync fails the next append, synchronize and close with journalFailed; reopening keeps the written records")
    func intervalSyncFailure() async throws {
        let fileSystem = FaultInjectingFileSystem()
        var random = SeededRandom(seed: 15)
        let journal = try Journal.open(
            at: journalPath, options: JournalOptions(durability: .interval(milliseconds: 2)), fileSystem: fileSystem)
        var written = try await appendRandomBatches(to: journal, batches: 3, random: &random)
        fileSystem.failNextSync(.ioError)
        var failure: JournalError?
        for id in 0..<2000 where failure == nil {
            let batch = Self.tiny(UInt64(100 + id), &random)
            do {
                try await journal.append(batch)
                written += batch
            } catch {
                failure = error
            }
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(failure?.code == "journalFailed", "the background sync failure never reached an append")
        #expect { try journal.synchronize() } throws: { ($0 as? JournalError)?.code == "journalFailed" }
        #expect { try journal.close() } throws: { ($0 as? JournalError)?.code == "journalFailed" }
        let reopened = try Journal.open(at: journalPath, fileSystem: fileSystem)
        #expect(reopened.lastSequenceNumber == UInt64(written.count))
        try reopened.close()
        let records = try readAll(journalPath, fileSystem: fileSystem)
        #expect(zip(records, written).allSatisfy { $0.matches($1) })
        #expect(try JournalVerifier.verify(at: journalPath, fileSystem: fileSystem).isClean)
    }
}
