import Foundation
@testable import Tally
import TallyModel
import TallyTestSupport
import Testing

/// Issue 15: raw committed events for integrations, from a sequence number, resumable,
/// without silent drops (where `changes` drops the oldest events of a subscriber that lags).
@Suite("Committed events for integrations")
struct CommittedEventSequenceTests {
    @Test("issue 15: a slow consumer following committedEvents(after: n) gets every later event once, in order, through the close, where a `changes` subscriber with a buffer of 2 loses some")
    func slowConsumerLosesNothing() async throws {
        var s = Scenario()
        let directory = try TemporaryDirectory("tally-committed-events")
        defer { directory.remove() }
        var options = LedgerOptions(durability: .synchronous)
        options.changesBufferLimit = 2
        let ledger = try await Ledger.open(at: directory.appending("ledger"), options: options)
        try await ledger.execute(s.setup())
        try await ledger.execute(s.command(.setPayday(day: 25)))
        try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(100))))
        let start = await ledger.lastSequenceNumber  // the integration handled these before
        #expect(start > 1)
        let follower = Task {
            var seen: [UInt64] = []
            for try await committed in ledger.committedEvents(after: start) {
                seen.append(committed.sequenceNumber)
                try await Task.sleep(for: .milliseconds(2))  // slower than the commits
            }
            return seen
        }
        // The control: a `changes` subscriber that reads nothing until the close.
        let lagging = ledger.changes
        // And a second integration that starts reading only after the close.
        let late = ledger.committedEvents(after: start)
        try await Task.sleep(for: .milliseconds(20))  // both subscribed
        for index in 0..<40 {
            try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(200 + Int64(index)))))
        }
        let last = await ledger.lastSequenceNumber
        try await ledger.close()
        let seen = try await follower.value
        #expect(seen == Array((start + 1)...last), "every event after the start once, in order, through the close")
        var lagged: [UInt64] = []
        for await committed in lagging { lagged.append(committed.sequenceNumber) }
        #expect(lagged == [last - 1, last], "the control: a `changes` subscriber that lags keeps only its buffer's newest events")
        var afterClose: [UInt64] = []
        for try await committed in late { afterClose.append(committed.sequenceNumber) }
        #expect(afterClose == seen, "read after the close from the journal on disk")

        // Resumable: a new ledger value follows on from any sequence number.
        let reopened = try await Ledger.open(at: directory.appending("ledger"), options: options)
        var resumed: [UInt64] = []
        let follow = Task {
            var seen: [UInt64] = []
            for try await committed in reopened.committedEvents(after: last - 3) { seen.append(committed.sequenceNumber) }
            return seen
        }
        try await Task.sleep(for: .milliseconds(20))
        try await reopened.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(999))))
        try await reopened.close()
        resumed = try await follow.value
        #expect(resumed == Array((last - 2)...(last + 1)))
        var beyond = 0
        for try await _ in reopened.committedEvents(after: .max) { beyond += 1 }
        #expect(beyond == 0, "a sequence number past every one follows nothing, without a trap")
    }
}
