import Tally
import TallyModel
import TallyTestSupport
import Testing

@Suite("Ledger")
struct LedgerTests {
    @Test("Reopening after close replays to the same state (G3)")
    func reopenGivesTheSameState() async throws {
        var s = Scenario()
        let test = try await TestLedger.make()
        try await test.ledger.execute(s.setup())
        let shared = s.ids.next() as TransactionID
        try await test.ledger.execute([
            s.command(.setPayday(day: 25)),
            s.command(.setSplitRatio(mode: .manual, ratios: [s.ratio(s.alice, 6000), s.ratio(s.bob, 4000)])),
            s.command(.recordTransaction(transactionID: shared, entry: s.expense(12_345, shared: true))),
            s.command(.editTransaction(transactionID: shared, entry: s.expense(12_000, shared: true))),
        ])
        let before = await test.ledger.state
        try await test.ledger.close()
        let reopened = try await test.reopen()
        #expect(await reopened.state == before)
        #expect(await reopened.lastSequenceNumber == before.nextSequenceNumber - 1)
        try await reopened.close()
    }

    @Test("G6: a batch with one bad command appends nothing")
    func atomicBatchAppendsNothingOnRejection() async throws {
        var s = Scenario()
        let test = try await TestLedger.make()
        try await test.ledger.execute(s.setup())
        let batch = [
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(100))),
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(200))),
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(0))),
        ]
        await expectRejection(test.ledger, batch, code: "amountMustBePositive", rule: "T1")
        #expect(await test.ledger.state.transactions.allEntries.isEmpty)
    }

    @Test("Fifty concurrent executes all land, in order, with no lost events")
    func concurrentExecutesAllLand() async throws {
        var s = Scenario()
        let test = try await TestLedger.make()
        try await test.ledger.execute(s.setup())
        let start = await test.ledger.lastSequenceNumber
        let commands = (0..<50).map { index in s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(Int64(100 + index)))) }
        let ledger = test.ledger
        let positions = try await withThrowingTaskGroup(of: [EventPosition].self) { group in
            for command in commands { group.addTask { try await ledger.execute(command) } }
            var all: [EventPosition] = []
            for try await result in group { all += result }
            return all
        }
        #expect(positions.count == 50)
        #expect(Set(positions.map(\.sequenceNumber)) == Set((start + 1)...(start + 50)))
        let events = try await ledger.events(from: start + 1)
        #expect(events.map(\.sequenceNumber) == Array((start + 1)...(start + 50)))
        #expect(Set(events.map(\.event.commandID)) == Set(commands.map(\.commandID)))
        #expect(await ledger.state.transactions.allEntries.count == 50)
    }

    @Test("changes delivers committed events in order, only after the append")
    func changesDeliversCommittedEventsInOrder() async throws {
        var s = Scenario()
        let test = try await TestLedger.make()
        let stream = test.ledger.changes
        let setup = s.setup()
        try await test.ledger.execute(setup)
        await expectRejection(test.ledger, s.command(.changeBaseCurrency(baseCurrency: .eur), by: s.ids.next()), code: "unknownActor", rule: "G7")
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(100))))
        let last = await test.ledger.lastSequenceNumber
        var received: [CommittedEvent] = []
        for await event in stream {
            received.append(event)
            if event.sequenceNumber == last { break }
        }
        #expect(received.map(\.sequenceNumber) == Array(1...last))
        #expect(received.map(\.event) == (try await test.ledger.events()).map(\.event))
        try await test.ledger.close()
    }

    @Test("B6: the first command recorded after a period's end closes it, in the same batch")
    func periodClosesAutomatically() async throws {
        var s = Scenario()
        let test = try await TestLedger.make()
        try await test.ledger.execute(s.setup())
        try await test.ledger.execute(s.command(.setPayday(day: 25)))  // Jan 5: open period Dec 25 ... Jan 24
        #expect(await test.ledger.state.periods.openStart == Scenario.date("2025-12-25"))
        s.advance(to: "2026-01-24")
        try await test.ledger.execute(s.command(.setPayday(day: 31)))  // inside the period: pending (B1)
        s.advance(to: "2026-03-01")
        let positions = try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(100))))
        #expect(positions.map(\.tag) == [.periodClosed, .periodClosed, .periodClosed, .transactionRecorded])
        let closed = try await test.ledger.events(from: positions[0].sequenceNumber, through: positions[2].sequenceNumber)
        let periods = closed.compactMap { committed -> PeriodClosed? in
            if case .periodClosed(let period) = committed.event.payload { return period }
            return nil
        }
        // Dec 25 - Jan 24 under payday 25; the change to 31 takes effect at its end, so a short
        // period Jan 25 - Jan 30 runs to the new payday, then Jan 31 - Feb 27 (Feb 28 is payday 31 clamped).
        #expect(periods == [
            PeriodClosed(periodStart: Scenario.date("2025-12-25"), periodEnd: Scenario.date("2026-01-24")),
            PeriodClosed(periodStart: Scenario.date("2026-01-25"), periodEnd: Scenario.date("2026-01-30")),
            PeriodClosed(periodStart: Scenario.date("2026-01-31"), periodEnd: Scenario.date("2026-02-27")),
        ])
        #expect(await test.ledger.state.periods.openEnd == Scenario.date("2026-03-30"))
        await expectRejection(test.ledger, s.command(.closePeriod), code: "noPeriodToClose", rule: "B6")
        s.advance(to: "2026-04-02")
        let explicit = try await test.ledger.execute(s.command(.closePeriod))
        #expect(explicit.map(\.tag) == [.periodClosed])
    }

    @Test("T5: undo and redo survive a restart")
    func undoAndRedoSurviveRestart() async throws {
        var s = Scenario()
        let test = try await TestLedger.make()
        try await test.ledger.execute(s.setup())
        let id = s.ids.next() as TransactionID
        let record = s.command(.recordTransaction(transactionID: id, entry: s.expense(4200)))
        let edit = s.command(.editTransaction(transactionID: id, entry: s.expense(4500)))
        try await test.ledger.execute([record, edit])
        let undoEdit = s.command(.undo(targetCommandID: edit.commandID))
        #expect(try await test.ledger.execute(undoEdit).map(\.tag) == [.commandUndone, .transactionEdited])
        #expect(await test.ledger.state.transactions[id]?.details.amount == Scenario.chf(4200))
        try await test.ledger.close()

        let reopened = try await test.reopen()
        await expectRejection(reopened, s.command(.undo(targetCommandID: edit.commandID)), code: "alreadyUndone", rule: "T5")
        #expect(try await reopened.execute(s.command(.redo(targetCommandID: edit.commandID))).map(\.tag) == [.commandRedone, .transactionEdited])
        #expect(await reopened.state.transactions[id]?.details.amount == Scenario.chf(4500))
        await expectRejection(reopened, s.command(.redo(targetCommandID: edit.commandID)), code: "notUndone", rule: "T5")
        try await reopened.execute([s.command(.undo(targetCommandID: edit.commandID)), s.command(.undo(targetCommandID: record.commandID))])
        #expect(await reopened.state.transactions[id]?.isDeleted == true)
        try await reopened.close()
    }

    @Test("T5: an undo is blocked by a later event that depends on the command, naming it")
    func undoBlockedByDependentEvent() async throws {
        var s = Scenario()
        let test = try await TestLedger.make()
        try await test.ledger.execute(s.setup())
        let id = s.ids.next() as TransactionID
        let record = s.command(.recordTransaction(transactionID: id, entry: s.expense(4200)))
        try await test.ledger.execute(record)
        let positions = try await test.ledger.execute(s.command(.editTransaction(transactionID: id, entry: s.expense(4300))))
        let undo = s.command(.undo(targetCommandID: record.commandID))
        await expectRejection(test.ledger, undo, code: "undoBlocked", rule: "T5")
        do {
            try await test.ledger.execute(undo)
        } catch {
            #expect(error.message.contains("event \(positions[0].sequenceNumber) (TransactionEdited"), "\(error.message)")
        }
        await expectRejection(test.ledger, s.command(.undo(targetCommandID: s.ids.next())), code: "unknownCommand", rule: "T5")
        let setupCommand = s.command(.undo(targetCommandID: try #require(await test.ledger.events(from: 1, through: 1).first).event.commandID))
        await expectRejection(test.ledger, setupCommand, code: "notUndoable", rule: "T5")
    }
}
