@testable import Tally
import SystemPackage
import TallyJournal
import TallyModel
import TallyTestSupport
import Testing

/// Journal guarantee at the engine: a journal with a missing segment is reported as a typed
/// `sequenceGap` with its location by `Ledger.open`, `LedgerReplay.replay` and
/// `LedgerAudit.audit`; no fold ever traps on a gap (G6: bad input is a typed error).
@Suite("Ledger over a journal with a missing segment")
struct LedgerSegmentContinuityTests {
    static let path = FilePath("/households/gap")

    static func options(_ fileSystem: FaultInjectingFileSystem) -> LedgerOptions {
        var options = LedgerOptions(durability: .none)
        options.fileSystem = fileSystem
        options.segmentBytesMax = 4096
        return options
    }

    /// A ledger of several 4 KiB segments whose second segment was deleted; returns the
    /// segment after the hole and the sequence number expected there.
    static func ledgerWithMissingSegment() async throws -> (FaultInjectingFileSystem, segment: String, expected: UInt64) {
        let fileSystem = FaultInjectingFileSystem(seed: 3)
        try fileSystem.createDirectory(at: FilePath("/households"))
        var s = Scenario()
        let ledger = try await Ledger.open(at: path, options: options(fileSystem))
        try await ledger.execute(s.setup())
        for index in 0..<60 {
            var entry = s.expense(Int64(100 + index), shared: index % 2 == 0)
            entry.note = "weekly shop number \(index), with enough words to fill a few segments"
            try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: entry)))
        }
        try await ledger.close()
        let journal = path.appending(LedgerDirectory.journalName)
        let names = try fileSystem.contentsOfDirectory(at: journal).filter { $0.hasSuffix(".segment") }.sorted()
        try #require(names.count >= 3)
        try fileSystem.removeFile(at: journal.appending(names[1]))
        return (fileSystem, names[2], try #require(UInt64(names[1].prefix(20))))
    }

    static func isGap(_ error: LedgerError, at segment: String, offset: Int64 = 0, expected: UInt64) -> Bool {
        guard case .storage(.corruption(let problem)) = error else { return false }
        return problem.kind == .sequenceGap
            && problem.location == JournalLocation(segment: segment, offset: offset, sequenceNumber: expected)
    }

    @Test("journal guarantee: Ledger.open refuses a journal with a missing segment with a typed sequenceGap naming the place")
    func openReportsGap() async throws {
        let (fileSystem, segment, expected) = try await Self.ledgerWithMissingSegment()
        do {
            let ledger = try await Ledger.open(at: Self.path, options: Self.options(fileSystem))
            try await ledger.close()
            Issue.record("Ledger.open accepted a journal with a missing segment")
        } catch {
            #expect(Self.isGap(error, at: segment, expected: expected), "\(error)")
            #expect(error.code == "journalCorrupted")
        }
    }

    @Test("journal guarantee: LedgerReplay.replay throws a typed sequenceGap for a missing segment instead of trapping")
    func replayReportsGap() async throws {
        let (fileSystem, segment, expected) = try await Self.ledgerWithMissingSegment()
        #expect { try LedgerReplay.replay(at: Self.path, fileSystem: fileSystem) } throws: { error in
            Self.isGap(try #require(error as? LedgerError), at: segment, expected: expected)
        }
    }

    @Test("journal guarantee: LedgerAudit.audit reports a missing segment as a sequenceGap problem with its location")
    func auditReportsGap() async throws {
        let (fileSystem, segment, expected) = try await Self.ledgerWithMissingSegment()
        let report = try LedgerAudit.audit(at: Self.path, fileSystem: fileSystem)
        #expect(report.problems.contains {
            $0.code == "sequenceGap" && $0.location == JournalLocation(segment: segment, offset: 0, sequenceNumber: expected)
        }, "\(report.problems)")
    }

    @Test("G6: a fold that meets a sequence gap throws a typed sequenceGap and folds nothing (FoldedState.apply no longer traps)")
    func foldRefusesGap() throws {
        var s = Scenario()
        let event = Event(commandID: s.ids.next(), actor: s.alice, recordedAt: Timestamp(millisecondsSinceEpoch: s.clock),
                          payload: .householdCreated(HouseholdCreated(householdID: s.household, name: "Muster", baseCurrency: .chf, admin: s.alice, adminName: PersonalText("Alice", owner: s.alice))))
        var folded = FoldedState()
        let location = JournalLocation(segment: "00000000000000000042.segment", offset: 64, sequenceNumber: 42)
        do {
            try folded.apply(event, sequenceNumber: 42, at: location)
            Issue.record("a fold over a gap was accepted")
        } catch {
            #expect(Self.isGap(error, at: location.segment, offset: 64, expected: 1), "\(error)")
        }
        #expect(folded == FoldedState())
    }
}
