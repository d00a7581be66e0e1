import Foundation
import Tally
import TallyTestSupport
import Testing

/// Issue 30 item 2: the engine fills a command's envelope when the app gives only the action and
/// the person (`execute(_:as:)`), from `LedgerOptions.envelope`: the host's clock and random ids,
/// or a deterministic source for tests and scripts.
@Suite("Command envelopes filled by the engine")
struct CommandEnvelopeTests {
    static func journal(_ path: FilePath) throws -> [CommittedEvent] {
        var events: [CommittedEvent] = []
        _ = try LedgerReplay.replay(at: path, visit: { events.append($0) })
        return events
    }

    @Test("G3, G5, issue 30: with a deterministic envelope, execute(_:as:) records the action as the person with the source's next command id and time (one per command of a batch); the same script gives the same journal twice")
    func deterministicEnvelope() async throws {
        let directory = try TemporaryDirectory("tally-envelope")
        defer { directory.remove() }
        let start = Timestamp(millisecondsSinceEpoch: 1_772_407_800_000)
        func run(_ name: String) async throws -> [CommittedEvent] {
            let path = directory.appending(name)
            var s = Scenario()
            var options = LedgerOptions()
            options.envelope = .deterministic(seed: 42, startingAt: start, step: 5)
            let ledger = try await Ledger.open(at: path, options: options)
            try await ledger.execute(s.setup())
            let dora: PersonID = s.ids.next()
            let eve: PersonID = s.ids.next()
            let positions = try await ledger.execute(.addPerson(personID: dora, name: "Dora"), as: s.alice)
            try await ledger.execute([.addPerson(personID: eve, name: "Eve"), .updatePerson(personID: eve, name: "Eve B.", email: nil, phone: nil)], as: s.alice)
            var expected = DeterministicIDGenerator(seed: 42)
            let first: CommandID = expected.next()
            #expect(positions.map(\.commandID) == [first], "the source's first id")
            try await ledger.close()
            let events = try Self.journal(path).suffix(3)
            #expect(events.map(\.event.commandID) == [first, expected.next(), expected.next()])
            #expect(events.map(\.event.recordedAt.millisecondsSinceEpoch) == [0, 5, 10].map { start.millisecondsSinceEpoch + $0 })
            #expect(events.allSatisfy { $0.event.actor == s.alice })
            return Array(events)
        }
        let once = try await run("first")
        let twice = try await run("second")
        #expect(once == twice, "the same script, the same events")
    }

    @Test("G3, G5, issue 30: by default the envelope is the host's clock and a new random id per command")
    func systemEnvelope() async throws {
        let directory = try TemporaryDirectory("tally-envelope-system")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        let ledger = try await Ledger.open(at: path)
        try await ledger.execute(s.setup())
        let before = Timestamp.now()
        try await ledger.execute([.addPerson(personID: s.ids.next(), name: "Dora"), .addPerson(personID: s.ids.next(), name: "Eve")], as: s.alice)
        let after = Timestamp.now()
        try await ledger.close()
        let events = try Self.journal(path).suffix(2)
        #expect(Set(events.map(\.event.commandID)).count == 2, "a new id per command")
        #expect(events.allSatisfy { (before...after).contains($0.event.recordedAt) }, "the host's clock")
    }
}
