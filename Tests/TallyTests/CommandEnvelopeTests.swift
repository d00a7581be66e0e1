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
            let executed = try await ledger.execute(.addPerson(personID: dora, name: "Dora"), as: s.alice)
            try await ledger.execute([.addPerson(personID: eve, name: "Eve"), .updatePerson(personID: eve, name: "Eve B.", email: nil, phone: nil)], as: s.alice)
            var expected = DeterministicIDGenerator(seed: 42)
            let first: CommandID = expected.next()
            #expect(executed.commandID == first && executed.events.map(\.commandID) == [first], "the source's first id")
            #expect(executed.sequenceNumber == executed.events.last?.sequenceNumber)
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

    @Test("issue 30: read { db in } after execute shows the command (read your writes); observe takes the same closure with no thrown type written, and an app's own error ends the sequence with that error; undo names the executed command's id (T5)")
    func readAndObserveLikeGRDB() async throws {
        struct Refused: Error, Equatable {}
        let directory = try TemporaryDirectory("tally-read-like-grdb")
        defer { directory.remove() }
        var s = Scenario()
        let ledger = try await Ledger.open(at: directory.appending("ledger"))
        try await ledger.execute(s.setup())
        let dora: PersonID = s.ids.next()
        let names = await ledger.observe { db in try db.personNames() }
        let added = try await ledger.execute(.addPerson(personID: dora, name: "Dora"), as: s.alice)
        #expect(try await ledger.read { db in try db.personNames()[dora] } == "Dora")
        await ledger.waitForObservations(through: added.sequenceNumber)
        var seen: [String?] = []
        for try await value in names {
            seen.append(value[dora])
            break
        }
        #expect(seen == ["Dora"], "after the wait, the newest value shows the command: \(seen)")
        let renamed = try await ledger.execute(.renamePerson(personID: dora, name: "Dorothea"), as: s.alice)
        #expect(renamed.sequenceNumber > added.sequenceNumber)
        #expect(try await ledger.read { db in try db.personNames()[dora] } == "Dorothea")
        try await ledger.execute(.undo(targetCommandID: renamed.commandID), as: s.alice)
        #expect(try await ledger.read { db in try db.personNames()[dora] } == "Dora", "undo put the old name back")
        await #expect(throws: Refused.self) {
            try await ledger.read { db -> Int in
                _ = try db.personNames()
                throw Refused()
            }
        }
        let failing = await ledger.observe { db -> Int in
            if try db.personNames().isEmpty { return 0 }
            throw Refused()
        }
        await #expect(throws: Refused.self) {
            for try await _ in failing {}
        }
        try await ledger.close()
    }
}
