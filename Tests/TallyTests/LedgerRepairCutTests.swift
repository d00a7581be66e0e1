#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SystemPackage
import Tally
import TallyJournal
import TallyTestSupport
import Testing

/// Issue 29 item 4: every cut at every byte of a ledger's files is a case `LedgerRepair` plans.
/// A segment cut inside its 64-byte header (the last, a middle or the first one) used to stop
/// the plan with `journalNotFound` ("holds no journal segments") or `badSegmentHeader`; now
/// the plan names what is lost, the apply sets the damaged bytes aside and keeps the prefix
/// before the cut segment, and the ledger opens.
@Suite("Repair of a ledger cut anywhere, segment headers included")
struct LedgerRepairCutTests {
    /// Which segment of the several-segment ledger is cut.
    enum Position: String, CaseIterable, Sendable { case last, middle, first }

    /// A closed ledger of several 4 KiB segments, a checkpoint and a key store; its segment
    /// names, oldest first, and every record it holds.
    static func makeLedger(_ label: String) async throws -> (TemporaryDirectory, FilePath, [String], [JournalRecord]) {
        let directory = try TemporaryDirectory("tally-repair-cut-\(label)")
        var s = Scenario()
        var options = LedgerOptions(durability: .none)
        options.segmentBytesMax = 4096
        let ledger = directory.appending("ledger")
        let open = try await Ledger.open(at: ledger, options: options)
        try await open.execute(s.setup())
        for index in 0..<40 {
            var entry = s.expense(Int64(100 + index), shared: index % 2 == 0)
            entry.note = "weekly shop number \(index), with enough words to fill a few segments"
            try await open.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: entry)))
        }
        try await open.close()
        let journal = ledger.appending(LedgerDirectory.journalName)
        let names = try JournalReader.segmentNames(in: journal)
        try #require(names.count >= 3, "the ledger needs a first, a middle and a last segment")
        return (directory, ledger, names, try JournalReader.open(at: journal).records())
    }

    /// A copy of `ledger` in `directory` under `name`, with `file` (a path inside the ledger
    /// folder) cut to `bytes` bytes.
    static func cutCopy(of ledger: FilePath, in directory: TemporaryDirectory, name: String, file: String, bytes: Int) throws -> FilePath {
        let copy = directory.appending(name)
        try FileManager.default.copyItem(atPath: ledger.string, toPath: copy.string)
        #expect(truncate(copy.appending(file).string, off_t(bytes)) == 0)
        return copy
    }

    @Test("I29.4: a segment cut at every byte of its 64-byte header (last, middle, first): the repair plan names the segment and the records lost, apply sets the cut bytes aside and keeps every record before it, the ledger opens, and a second plan finds nothing", arguments: Position.allCases)
    func everyHeaderCutIsPlanned(_ position: Position) async throws {
        let (directory, ledger, names, records) = try await Self.makeLedger(position.rawValue)
        defer { directory.remove() }
        let index = switch position {
        case .last: names.count - 1
        case .middle: names.count / 2
        case .first: 0
        }
        let cut = names[index]
        let firstCut = try #require(UInt64(cut.prefix(20)))
        let kept = firstCut - 1
        for bytes in 0..<64 {
            let copy = try Self.cutCopy(
                of: ledger, in: directory, name: "\(position)-\(bytes)", file: "\(LedgerDirectory.journalName)/\(cut)", bytes: bytes)
            let plan = try LedgerRepair.plan(at: copy)
            #expect(plan.keptThrough == kept, "\(position) cut at \(bytes)")
            #expect(plan.journal.setAsideSegments == Array(names[index...]), "\(position) cut at \(bytes)")
            #expect(plan.journal.problems.first?.kind == .badSegmentHeader, "\(position) cut at \(bytes): \(plan.journal.problems)")
            let loss = try #require(plan.journal.losses.first, "\(position) cut at \(bytes): no loss named")
            #expect(loss.segment == cut && loss.headerBytes == bytes && loss.firstSequenceNumber == firstCut, "\(loss)")
            #expect(loss.description.contains("cut inside its 64-byte header") && loss.description.contains("records from \(firstCut)"), "\(loss)")
            #expect(plan.journal.losses.map(\.segment) == Array(names[index...]), "every segment set aside is named")
            #expect((plan.journal.emptyFirstSegment != nil) == (position == .first))

            let setAside = try #require(try LedgerRepair.apply(plan, at: copy))
            let savedCut = LedgerDirectory(setAside).journal.appending(cut)
            #expect(try Data(contentsOf: URL(fileURLWithPath: savedCut.string)).count == bytes, "the cut segment's bytes are kept aside")
            let reopened = try await Ledger.open(at: copy, options: LedgerOptions(durability: .none))
            #expect(await reopened.lastSequenceNumber == kept, "\(position) cut at \(bytes)")
            try await reopened.close()
            let journal = copy.appending(LedgerDirectory.journalName)
            #expect(try JournalReader.open(at: journal).records() == Array(records.prefix(Int(kept))), "every record before the cut segment is intact")
            #expect(try LedgerRepair.plan(at: copy).isEmpty, "a second repair finds nothing to do")
            try FileManager.default.removeItem(atPath: copy.string)
        }
    }

    @Test("I29.4: a segment cut inside a frame or at a frame boundary is planned with the records it loses; readers allowing damage serve the prefix before a cut middle header instead of refusing")
    func cutsInsideSegmentsNameTheirLoss() async throws {
        let (directory, ledger, names, records) = try await Self.makeLedger("frames")
        defer { directory.remove() }
        let middle = names[names.count / 2]
        let firstMiddle = try #require(UInt64(middle.prefix(20)))
        let copy = try Self.cutCopy(
            of: ledger, in: directory, name: "middle-header", file: "\(LedgerDirectory.journalName)/\(middle)", bytes: 10)
        let prefix = try LedgerReplay.replay(at: copy, allowingDamage: true)
        #expect(prefix.lastSequenceNumber == firstMiddle - 1 && prefix.droppedProblems.first?.kind == .badSegmentHeader)

        let journalPath = ledger.appending(LedgerDirectory.journalName)
        let frame = try JournalReader.open(at: journalPath).location(of: firstMiddle + 2)
        let inFrame = try Self.cutCopy(
            of: ledger, in: directory, name: "middle-frame", file: "\(LedgerDirectory.journalName)/\(middle)", bytes: Int(frame.offset) + 7)
        let plan = try LedgerRepair.plan(at: inFrame)
        #expect(plan.keptThrough == (frame.sequenceNumber ?? 0) - 1)
        #expect(plan.journal.losses.first?.segment == middle && plan.journal.losses.first?.offset == frame.offset, "\(plan.journal.losses)")
        #expect(plan.journal.losses.first?.firstSequenceNumber == frame.sequenceNumber)
        try LedgerRepair.apply(plan, at: inFrame)
        let reopened = try await Ledger.open(at: inFrame, options: LedgerOptions(durability: .none))
        #expect(await reopened.lastSequenceNumber == plan.keptThrough)
        try await reopened.close()
        #expect(try JournalReader.open(at: inFrame.appending(LedgerDirectory.journalName)).records() == Array(records.prefix(Int(plan.keptThrough))))
    }

    @Test("I29.4: the key store and a checkpoint cut at every byte of their headers (and inside them): repair never traps nor says the journal has no segments; a cut checkpoint is only a cache and the ledger opens")
    func keyStoreAndCheckpointCutsAreNotJournalNotFound() async throws {
        let (directory, ledger, _, records) = try await Self.makeLedger("other-files")
        defer { directory.remove() }
        let keyBytes = try #require(try FileManager.default.attributesOfItem(atPath: ledger.appending(LedgerDirectory.personalKeysName).string)[.size] as? Int)
        for bytes in Array(0..<20) + [keyBytes / 2, keyBytes - 1] {
            let copy = try Self.cutCopy(of: ledger, in: directory, name: "keys-\(bytes)", file: LedgerDirectory.personalKeysName, bytes: bytes)
            do {
                _ = try LedgerRepair.plan(at: copy)
            } catch {
                #expect(error.code != "journalNotFound" && !error.message.contains("no journal segments"), "key store cut at \(bytes): \(error)")
                #expect(error.message.contains(LedgerDirectory.personalKeysName), "the error names the key store: \(error)")
            }
            try FileManager.default.removeItem(atPath: copy.string)
        }
        // The store, which holds the checkpoint.
        let storeBytes = try #require(try FileManager.default.attributesOfItem(atPath: LedgerDirectory(ledger).readSideStore.string)[.size] as? Int)
        for bytes in Array(0..<16) + [64, storeBytes / 2, storeBytes - 1] {
            let file = "\(LedgerDirectory.readSideName)/\(LedgerDirectory.readSideStoreName)"
            let copy = try Self.cutCopy(of: ledger, in: directory, name: "store-\(bytes)", file: file, bytes: bytes)
            let plan = try LedgerRepair.plan(at: copy)
            try LedgerRepair.apply(plan, at: copy)
            let reopened = try await Ledger.open(at: copy, options: LedgerOptions(durability: .none))
            #expect(await reopened.lastSequenceNumber == UInt64(records.count), "store cut at \(bytes)")
            try await reopened.close()
            try FileManager.default.removeItem(atPath: copy.string)
        }
    }
}
