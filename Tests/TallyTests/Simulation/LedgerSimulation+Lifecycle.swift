import SystemPackage
import Tally
import TallyModel
import TallyTestSupport

extension LedgerSimulation {
    /// Maybe arms one fault for the coming step (drawn from the seed's schedule).
    mutating func injectFaults() {
        let roll = Int.random(in: 0..<100, using: &schedule)
        switch roll {
        case 0..<30:
            // The countdown counts writes, syncs, creates, renames and removes: appends are two
            // (write, fdatasync), a checkpoint six, a segment rotation seven.
            fileSystem.crash(afterOperations: Int.random(in: 0...60, using: &schedule), mode: crashMode())
        case 30..<33: fileSystem.failNextWrite(.ioError)
        case 33..<36: fileSystem.failNextWrite(.noSpace)
        case 36..<39: fileSystem.failWrite(after: Int.random(in: 1...8, using: &schedule), with: .ioError)
        case 39..<42: fileSystem.failNextSync(.ioError)
        case 42..<45: fileSystem.setCapacity(fileSystem.usedBytes + Int.random(in: 0...3_000, using: &schedule))
        default: return
        }
        if roll >= 30 { statistics.injectedFaults += 1 }
        trace("fault roll \(roll)")
    }

    /// Mostly "unsynced data is lost"; sometimes torn, kept, or a random mix per file.
    mutating func crashMode() -> FaultInjectingFileSystem.CrashMode {
        switch Int.random(in: 0..<10, using: &schedule) {
        case 0..<4: .dropUnsynced
        case 4..<7: .random
        case 7: .tornPrefix
        case 8: .tornWithZeros
        default: .keepEverything
        }
    }

    /// After the clients: either abandon (crash or kill) + reopen + checks, or checks on the
    /// live ledger.
    mutating func finishStep(abandon: Bool, crashed: Bool) async throws(SimulationFailure) {
        if step > 0 { statistics.steps += 1 }
        if abandon {
            try await self.abandon(crashed: crashed, powerLoss: Bool.random(using: &schedule))
            try await reopen(mayCrash: true)
            try await check(reopened: true)
        } else {
            try await absorbPublished()
            try await check(reopened: false)
        }
    }

    /// Waits until the observer has every acknowledged event, then adds them to the shadow.
    mutating func absorbPublished() async throws(SimulationFailure) {
        guard let current = instance else { throw failure("no open ledger") }
        let last = await current.ledger.lastSequenceNumber
        let caughtUp = await withDeadline(seconds: configuration.deadlineSeconds) {
            while max(current.collector.lastSequenceNumber, current.openedAt) < last { await Task.yield() }
            return true
        }
        guard caughtUp != nil else { throw failure("the changes stream did not deliver events through \(last)") }
        let problems = shadow.absorb(published: current.collector.all)
        if let first = problems.first { throw failure(first) }
    }

    /// Abandons the open instance: a power loss or a process kill (unless a crash already
    /// happened), then `close()` on the dead instance, which must end with a typed error or
    /// succeed without touching the disk, and must end the `changes` stream.
    mutating func abandon(crashed: Bool, powerLoss: Bool) async throws(SimulationFailure) {
        guard let current = instance else { return }
        trace("abandon: crashed \(crashed), power loss \(powerLoss)")
        if !crashed {
            if powerLoss {
                fileSystem.crash(crashMode())
            } else {
                fileSystem.kill(current.process)
                statistics.kills += 1
            }
        }
        let closed = await withDeadline(seconds: configuration.deadlineSeconds) { () -> LedgerError? in
            do throws(LedgerError) { try await current.ledger.close(); return nil } catch { return error }
        }
        guard let closed else { throw failure("close() of an abandoned ledger hung") }
        if let error = closed {
            switch error {
            case .storage, .closed: break
            default: throw failure("close() of an abandoned ledger failed with an unexpected error: \(error)")
            }
        }
        let command = generator.scenario.command(.closePeriod)
        let late = await withDeadline(seconds: configuration.deadlineSeconds) { () -> LedgerError? in
            do throws(LedgerError) { try await current.ledger.execute(command); return nil } catch { return error }
        }
        guard let late else { throw failure("execute on a closed ledger hung") }
        guard late == .closed else { throw failure("execute on a closed ledger did not throw .closed: \(String(describing: late))") }
        guard await withDeadline(seconds: configuration.deadlineSeconds, { await current.observer.value }) != nil else {
            throw failure("the changes stream did not finish at close")
        }
        instance = nil
        let problems = shadow.absorb(published: current.collector.all)
        if let first = problems.first { throw failure(first) }
    }

    /// Opens the ledger in a new simulated process; sometimes arms a crash that hits the
    /// recovery. An open that fails (typed, storage) is retried: a crash or fault during
    /// recovery must never make the ledger unopenable.
    mutating func reopen(mayCrash: Bool) async throws(SimulationFailure) {
        if mayCrash, Int.random(in: 0..<4, using: &schedule) == 0 {
            fileSystem.crash(afterOperations: Int.random(in: 0...4, using: &schedule), mode: crashMode())
        }
        var lastError: LedgerError?
        var repaired = false
        for attempt in 0..<9 {
            if attempt == 8 {
                // Docs/Simulation.md "Issue 13": zeros that replace a last frame's bytes which
                // differed from zero in one bit alone look like a flipped bit, and the open
                // refuses them as damage on purpose. An operator then repairs explicitly
                // (`tally repair`); the shadow's checks after the open still require every
                // acknowledged event.
                guard case .storage(.corruption(let problem))? = lastError, problem.kind == .checksumMismatch, !repaired else { break }
                trace("open refused a damaged journal end (\(problem)); repairing explicitly")
                let process = fileSystem.startProcess()
                do throws(LedgerError) {
                    let plan = try LedgerRepair.plan(at: Self.directory, fileSystem: process)
                    try LedgerRepair.apply(plan, at: Self.directory, fileSystem: process)
                } catch {
                    throw failure("the explicit repair after a refused open failed: \(error)")
                }
                fileSystem.kill(process)
                repaired = true
                statistics.repairs += 1
            }
            let process = fileSystem.startProcess()
            var processOptions = self.options
            processOptions.fileSystem = process
            let options = processOptions
            let opened = await withDeadline(seconds: configuration.deadlineSeconds) { () -> Result<Ledger, LedgerError> in
                do throws(LedgerError) { return .success(try await Ledger.open(at: Self.directory, options: options)) } catch { return .failure(error) }
            }
            guard let opened else { throw failure("Ledger.open hung") }
            switch opened {
            case .success(let ledger):
                let collector = EventCollector()
                let stream = ledger.changes
                let observer = Task { for await event in stream { collector.append(event) } }
                let openedAt = await ledger.lastSequenceNumber
                instance = Instance(ledger: ledger, process: process, collector: collector, observer: observer, openedAt: openedAt)
                trace("opened at \(openedAt), checkpoint \(ledger.openReport.checkpointSequenceNumber.map(String.init) ?? "none"), crashes so far \(fileSystem.crashCount)")
                if step > 0 { statistics.reopens += 1 }
                if ledger.openReport.checkpointSequenceNumber != nil { statistics.checkpointOpens += 1 }
                return
            case .failure(let error):
                trace("open failed: \(error)")
                statistics.failedOpens += 1
                guard case .storage = error else { throw failure("Ledger.open failed with a non-storage error: \(error)") }
                fileSystem.kill(process)
                lastError = error
            }
        }
        throw failure("the ledger could not be reopened in 8 attempts; last error: \(lastError.map { "\($0)" } ?? "none")")
    }
}
