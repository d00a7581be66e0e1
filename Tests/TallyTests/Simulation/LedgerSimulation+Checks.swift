import Tally
import TallyJournal
import TallyModel
import TallyProjections

extension LedgerSimulation {
    /// The checks after every step and every reopen; throws the first failure.
    ///
    /// 1. Acknowledged events: on a live ledger the journal holds exactly the acknowledged
    ///    events; after a reopen ``SimulationShadow/reconcile(journal:)`` applies the rule for
    ///    in-flight submissions. `ledger.events()` and `lastSequenceNumber` agree.
    /// 2. `LedgerAudit` (which runs `JournalVerifier`: frames, CRC32C, hash chain, sequence
    ///    continuity; S3/S7/S8; newest checkpoint == replay at its sequence number) is clean.
    /// 3. The ledger's read models (live, or checkpoint + tail after a reopen) == a full replay
    ///    from event 1 (`LedgerReplay`) == a fresh fold of `ledger.events()`, compared as
    ///    canonical JSON; the validation state equals the replay's.
    /// 4. ``DomainInvariants`` (S8, W3, S5, S6/T2) and B6: a closed period's snapshot never
    ///    changes and a closed period never reopens.
    mutating func check(reopened: Bool) async throws(SimulationFailure) {
        guard let ledger = instance?.ledger else { throw failure("no open ledger to check") }
        var journal: [CommittedEvent] = []
        let replayed: ReplayResult
        do {
            replayed = try LedgerReplay.replay(at: Self.directory, fileSystem: fileSystem, visit: { journal.append($0) })
        } catch {
            throw failure("replay from event 1 failed: \(error)")
        }
        // P3: texts read redacted once the key is destroyed (a tombstone in the key file); an
        // I/O fault can leave a recorded forgetting unfinished for a while (`unfinishedForgetting`).
        let forgotten = (try? PersonalKeyRing.load(
            ledgerDirectory: Self.directory, fileSystem: fileSystem, encryption: nil, readOnly: true).forgotten) ?? []
        if reopened {
            let (problems, survived) = shadow.reconcile(journal: journal, forgotten: forgotten)
            if let first = problems.first { throw failure(first) }
            if survived { statistics.inFlightSurvived += 1 }
        } else if journal != shadow.events.map({ $0.redacting(forgotten) }) {
            let expected = shadow.events.map { $0.redacting(forgotten) }
            let first = zip(expected, journal).first { $0 != $1 }
            let detail = first.map { "; first difference at \($0.sequenceNumber): acknowledged \($0.event), journal \($1.event)" } ?? ""
            throw failure("the journal (\(journal.count) events) is not exactly the acknowledged events (\(shadow.events.count))\(detail)")
        }
        let ledgerEvents: [CommittedEvent]
        do {
            ledgerEvents = try await ledger.events()
        } catch {
            throw failure("ledger.events() failed: \(error)")
        }
        guard ledgerEvents == journal, await ledger.lastSequenceNumber == UInt64(journal.count) else {
            throw failure("ledger.events() (\(ledgerEvents.count)) differs from the journal (\(journal.count))")
        }
        try audit()
        let live = await ledger.readModels
        let liveState = await ledger.state
        try compareReadModels(live: live, replayed: replayed, events: ledgerEvents, reopened: reopened)
        guard liveState == replayed.state else { throw failure("the ledger's validation state differs from a replay") }
        let violations = DomainInvariants.violations(events: journal, readModels: live, state: liveState)
        if let first = violations.first { throw failure(first) }
        try checkFrozenSnapshots(live.budgets)
    }

    func audit() throws(SimulationFailure) {
        let report: AuditReport
        do {
            report = try LedgerAudit.audit(at: Self.directory, fileSystem: fileSystem)
        } catch {
            throw failure("the audit could not run: \(error)")
        }
        guard report.isClean else {
            throw failure("the audit found \(report.problems.count) problems: \(report.problems.prefix(3).map(\.description))")
        }
    }

    func compareReadModels(live: Projections, replayed: ReplayResult, events: [CommittedEvent], reopened: Bool) throws(SimulationFailure) {
        var fresh = Projections()
        for event in events { fresh.apply(event.event, sequenceNumber: event.sequenceNumber) }
        let source = reopened ? "checkpoint + tail" : "live"
        do {
            let liveJSON = try live.canonicalJSON().text
            guard liveJSON == (try replayed.readModels.canonicalJSON().text) else {
                throw failure("read models (\(source)) differ from a full replay")
            }
            guard liveJSON == (try fresh.canonicalJSON().text) else {
                throw failure("read models (\(source)) differ from a fold of ledger.events()")
            }
        } catch let error as SimulationFailure {
            throw error
        } catch {
            throw failure("canonical JSON failed: \(error)")
        }
    }

    /// B6: once a period is closed its snapshot is frozen and it stays closed. B1: every period
    /// the engine closed (`PeriodClosed`, decided by its `PeriodSchedule`) is a period of the
    /// read model's pay schedule, the one rule both ask (`PaySchedule`).
    mutating func checkFrozenSnapshots(_ budgets: BudgetProjection) throws(SimulationFailure) {
        let closed = Set(budgets.closedPeriods)
        for period in closed {
            let scheduled = budgets.period(containing: period.start)
            guard scheduled == period else {
                throw failure("B1: the engine closed \(period.start)...\(period.end), but the budget read model's pay schedule puts \(period.start) in \(scheduled.start)...\(scheduled.end)")
            }
        }
        for period in frozenSnapshots.keys where !closed.contains(period) {
            throw failure("B6: period \(period.start)...\(period.end) was closed and is open again")
        }
        for period in closed.sorted() {
            let report: BudgetReport
            do {
                report = try budgets.budget(for: period)
            } catch {
                throw failure("B6: the snapshot of \(period.start)...\(period.end) cannot be read: \(error)")
            }
            if let frozen = frozenSnapshots[period] {
                guard frozen == report else { throw failure("B6: the snapshot of closed period \(period.start)...\(period.end) changed") }
            } else {
                frozenSnapshots[period] = report
            }
        }
    }
}
