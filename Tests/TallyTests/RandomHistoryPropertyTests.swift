import Foundation
import SystemPackage
@testable import Tally
import TallyJournal
import TallyModel
import TallyProjections
import TallyTestSupport
import Testing

/// Random command histories (valid and invalid, from ``RandomCommandGenerator``) through the
/// real engine: the invariants of Docs/Domain.md hold after every run (``DomainInvariants``), and
/// replay == live == checkpoint + tail.
@Suite("Random histories")
struct RandomHistoryPropertyTests {
    @Test("random histories keep S3/S8 invariants and replay == live == checkpoint + tail", arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func randomHistory(seed: UInt64) async throws {
        let directory = try TemporaryDirectory("tally-random")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var options = LedgerOptions(durability: .none)
        options.checkpointIntervalEvents = 37
        var generator = RandomCommandGenerator(seed: seed)
        let ledger = try await Ledger.open(at: path, options: options)
        for command in generator.scenario.setup() { try await ledger.execute(command) }
        var rejected = 0
        for _ in 0..<300 {
            let batch = (0..<Int.random(in: 1...3, using: &generator.random)).map { _ in generator.next() }
            let before = await ledger.lastSequenceNumber
            do {
                try await ledger.execute(batch)
            } catch {
                rejected += 1
                #expect(await ledger.lastSequenceNumber == before, "seed \(seed): a rejected batch appended (G6)")
            }
            // Checkpoints are written in the background; wait, so every interval gets one
            // (fast `.none` appends would otherwise outrun a checkpoint's fsyncs).
            await ledger.checkpointWritten()
        }
        #expect(rejected > 0 && rejected < 300, "seed \(seed): the mix must have valid and invalid batches")
        // A crash image before the close's final checkpoint: the store's checkpoint is the last
        // interval's, the journal holds a tail after it.
        let image = directory.appending("image")
        try FileManager.default.copyItem(atPath: path.string, toPath: image.string)
        let live = await ledger.readModels
        let liveState = await ledger.state
        try await ledger.close()

        var events: [CommittedEvent] = []
        let replayed = try LedgerReplay.replay(at: path, visit: { events.append($0) })
        #expect(try replayed.readModels.canonicalJSON().text == live.canonicalJSON().text, "seed \(seed): replay == live")
        #expect(replayed.state == liveState)
        let audit = try LedgerAudit.audit(at: path)
        #expect(audit.isClean, "seed \(seed): \(audit.problems.prefix(3))")
        let violations = DomainInvariants.violations(events: events, readModels: live, state: liveState)
        #expect(violations.isEmpty, "seed \(seed): \(violations.prefix(3))")
        // Checkpoint + tail: the crash image opens from its interval checkpoint.
        let olderSequence = try #require(LedgerDirectory(image).checkpointSequenceNumber(), "seed \(seed): no checkpoint was written")
        let reopened = try await Ledger.open(at: image, options: options)
        #expect(reopened.openReport.checkpointSequenceNumber == olderSequence, "seed \(seed)")
        let lastSequence = try #require(events.last?.sequenceNumber)
        #expect(reopened.openReport.eventsReplayed == lastSequence - olderSequence, "seed \(seed): the tail after the checkpoint")
        #expect(reopened.openReport.eventsReplayed > 0)
        #expect(try await reopened.readModels.canonicalJSON().text == live.canonicalJSON().text, "seed \(seed): checkpoint + tail == live")
        #expect(await reopened.state == liveState)
        try await reopened.close()
    }
}
