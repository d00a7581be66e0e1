import Foundation
import SystemPackage
import TallyJournal
import TallyTestSupport
import Testing

/// The checked-in journal of format version 1 (Tests/Fixtures/journal-v1), the worked example
/// of Docs/JournalFormat.md. Kept forever: every later build must read it.
@Suite("Journal format fixture")
struct JournalFormatFixtureTests {
    static let fixtureDirectory = RepositoryFiles.fixture("journal-v1")
    static let segmentName = "00000000000000000001.segment"

    static let batches: [[NewRecord]] = [
        [
            NewRecord(recordedAtMilliseconds: 1_767_261_600_000, typeTag: 100, schemaVersion: 1, payload: Array("household".utf8)),
            NewRecord(recordedAtMilliseconds: 1_767_261_600_500, typeTag: 200, schemaVersion: 1, payload: Array("wallet".utf8)),
        ],
        [NewRecord(recordedAtMilliseconds: 1_767_348_000_000, typeTag: 400, schemaVersion: 2, payload: Array(repeating: 0x2A, count: 40))],
    ]

    /// Writes the example journal into `fileSystem` and returns the segment's bytes.
    static func write(into fileSystem: FaultInjectingFileSystem) async throws -> [UInt8] {
        let journal = try Journal.open(at: journalPath, fileSystem: fileSystem)
        for batch in batches { try await journal.append(batch) }
        try journal.close()
        return try #require(fileSystem.contents(of: journalPath.appending(segmentName)))
    }

    @Test("the version 1 fixture reads back the records it was written with")
    func fixtureReadsBack() async throws {
        let fileURL = Self.fixtureDirectory.appendingPathComponent(Self.segmentName)
        if ProcessInfo.processInfo.environment["TALLY_RECORD_FIXTURES"] == "1" {
            let bytes = try await Self.write(into: FaultInjectingFileSystem())
            try FileManager.default.createDirectory(at: Self.fixtureDirectory, withIntermediateDirectories: true)
            try Data(bytes).write(to: fileURL)
        }
        let data = try Data(contentsOf: fileURL)
        let records = try JournalReader.open(at: FilePath(Self.fixtureDirectory.path)).records()
        #expect(records.count == 3)
        #expect(zip(records, Self.batches.flatMap { $0 }).allSatisfy { $0.matches($1) })
        #expect(try JournalVerifier.verify(at: FilePath(Self.fixtureDirectory.path)).isClean)
        let expectedSize = 64 + 96 + 25 + 96 + 16
        #expect(data.count == expectedSize, "the sizes Docs/JournalFormat.md walks through")
    }

    @Test("the fixture, written before the segment index, opens for writing as before, gets an index, and its segment bytes stay as they were")
    func fixtureGetsAnIndexWhenOpenedForWriting() throws {
        let fixture = Array(try Data(contentsOf: Self.fixtureDirectory.appendingPathComponent(Self.segmentName)))
        let fileSystem = FaultInjectingFileSystem()
        try fileSystem.createDirectory(at: journalPath)
        try fileSystem.createFile(at: journalPath.appending(Self.segmentName)).write(fixture, at: 0)
        let reader = try JournalReader.open(at: journalPath, fileSystem: fileSystem)
        #expect(reader.lastSequenceNumber == 3)
        let index = IndexedJournal.indexPath(of: Self.segmentName)
        #expect(!fileSystem.fileExists(at: index))
        let journal = try Journal.open(at: journalPath, fileSystem: fileSystem)
        #expect(journal.lastSequenceNumber == 3 && journal.recoveryReport.isClean)
        try journal.close()
        #expect(fileSystem.fileExists(at: index))
        #expect(fileSystem.contents(of: journalPath.appending(Self.segmentName)) == fixture)
        #expect(zip(try readAll(journalPath, fileSystem: fileSystem), Self.batches.flatMap { $0 }).allSatisfy { $0.matches($1) })
    }

    @Test("this build writes the fixture's bytes exactly (the format has not drifted)")
    func writerProducesFixtureBytes() async throws {
        let written = try await Self.write(into: FaultInjectingFileSystem())
        let fixture = try Data(contentsOf: Self.fixtureDirectory.appendingPathComponent(Self.segmentName))
        #expect(written == Array(fixture))
    }
}
