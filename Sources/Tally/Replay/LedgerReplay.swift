import SystemPackage
import TallyJournal
import TallyModel
import TallyProjections

/// What a replay rebuilt: every read model (and, package-internal, the validation state), as of
/// a sequence number.
public struct ReplayResult: Sendable {
    /// The engine's validation state: package-internal (Docs/Architecture.md, "Public surface").
    package var state: LedgerState
    /// The read models (wallets, debts, budgets, net worth), folded with the state.
    public var readModels: Projections { state.readModels }
    /// The last sequence number folded (0 for an empty journal).
    public var lastSequenceNumber: UInt64
    /// The journal's chain value after `lastSequenceNumber`.
    public var chainValue: ChainValue
    /// Personal texts of people never forgotten that could not be opened (their key is missing
    /// from `personal-keys`): they read as sealed. 0 for a complete ledger directory.
    public var unreadablePersonalTexts = 0
    /// What a replay that allowed damage left out: the damage that ends the prefix it served,
    /// and records the ledger's other files prove but the journal lacks. Empty otherwise.
    public var droppedProblems: [JournalProblem] = []
}

/// Rebuilds state from the journal alone: no checkpoint, no writer lock (it may run while a
/// writer appends; a frame being written is a torn tail to it and is not read), so its output
/// is what `tally replay` and the audit compare everything else against.
public enum LedgerReplay {
    /// Folds every event of the ledger in `directory` (through `through`, default the last).
    ///
    /// - Parameters:
    ///   - directory: the ledger directory (the one `Ledger.open(at:options:)` takes).
    ///   - through: the last sequence number to fold; `nil` folds to the journal's end.
    ///   - encryption: the keys of an encrypted ledger; `nil` for a plain one.
    ///   - fileSystem: the file system to read through (tests inject faults here).
    ///   - allowingDamage: serve the valid prefix before damage instead of refusing (see
    ///     `JournalReader.open`); ``ReplayResult/droppedProblems`` says what was left out.
    ///   - progress: called now and then with (sequence number reached, last sequence number).
    ///   - visit: called with every event folded, in order (for exports and logs).
    /// - Returns: the read models (and, package-internal, the validation state); personal texts
    ///   whose keys are gone (their owner forgotten) read as redacted, those whose keys are
    ///   missing (`personal-keys` is read from `directory` when present) as sealed, and ``ReplayResult/unreadablePersonalTexts`` counts those of people
    ///   never forgotten.
    /// - Throws: `LedgerError.storage` (missing journal, damage anywhere but a torn tail, a
    ///   journal shorter than the checkpoints or key store prove: `journalShorterThanEvidence`,
    ///   wrong key),
    ///   `LedgerError.codec` when an event does not decode, `LedgerError.personalKeys` when the
    ///   key file is damaged; what settling an interrupted restore or reset throws (it runs
    ///   first, `Ledger.recoverInterruptedSwap`: `swapInterrupted`, `restoreInProgress`).
    public static func replay(
        at directory: FilePath, through: UInt64? = nil, encryption: JournalEncryption? = nil,
        fileSystem: any FileSystem = PosixFileSystem(), allowingDamage: Bool = false,
        progress: (@Sendable (UInt64, UInt64) -> Void)? = nil, visit: ((CommittedEvent) -> Void)? = nil
    ) throws(LedgerError) -> ReplayResult {
        let (keys, reader) = try openForReading(
            at: directory, encryption: encryption, fileSystem: fileSystem, allowingDamage: allowingDamage)
        var result = try fold(
            reader, from: FoldedState(), through: through ?? reader.lastSequenceNumber, personalTexts: keys,
            progress: progress, visit: { visit?($0) })
        result.unreadablePersonalTexts = keys.unopened.values.reduce(0, +)
        if allowingDamage { result.droppedProblems = reader.recoveryReport.problems.filter { $0.kind != .tornTail } }
        return result
    }

    /// A cursor over the events of the ledger in `directory` from `start` through `end`
    /// (default: the last), read-only and without the writer lock, decoded one frame at a
    /// time: memory does not grow with the journal. Opens and checks the journal as
    /// ``replay(at:through:encryption:fileSystem:allowingDamage:progress:visit:)`` does.
    /// - Throws: as `replay` when opening; reading throws as ``LedgerEventCursor/next()``.
    public static func eventCursor(
        at directory: FilePath, from start: UInt64 = 1, through end: UInt64? = nil, encryption: JournalEncryption? = nil,
        fileSystem: any FileSystem = PosixFileSystem(), allowingDamage: Bool = false
    ) throws(LedgerError) -> LedgerEventCursor {
        let (keys, reader) = try openForReading(
            at: directory, encryption: encryption, fileSystem: fileSystem, allowingDamage: allowingDamage)
        return LedgerEventCursor(reader: reader, from: start, through: end ?? reader.lastSequenceNumber, personalTexts: keys)
    }

    /// The key file (read-only) and a reader of the journal checked against the evidence,
    /// after settling what an interrupted restore or reset left at `directory`
    /// (``Ledger/recoverInterruptedSwap(at:fileSystem:)``: every reader runs it).
    static func openForReading(
        at directory: FilePath, encryption: JournalEncryption?, fileSystem: any FileSystem, allowingDamage: Bool
    ) throws(LedgerError) -> (PersonalKeyRing, JournalReader) {
        _ = try LedgerSwap.recover(LedgerDirectory(directory), fileSystem: fileSystem)
        let keys = try PersonalKeyRing.load(ledgerDirectory: directory, fileSystem: fileSystem, encryption: encryption, readOnly: true)
        let evidence = LedgerEvidence.gather(directory: directory, encryption: encryption, fileSystem: fileSystem, keys: keys)
        do {
            let reader = try JournalReader.open(
                at: LedgerDirectory(directory).journal, fileSystem: fileSystem, encryption: encryption,
                evidence: evidence, allowingDamage: allowingDamage)
            return (keys, reader)
        } catch {
            throw .storage(error)
        }
    }

    /// Folds the records after `start.lastSequenceNumber` through `end` onto `start`.
    /// - Parameters:
    ///   - visit: called with each event after it is folded.
    ///   - frameEnd: called after each frame folded whole, with the fold, the frame's last
    ///     sequence number and its chain value (what a store covering it records); an error
    ///     ends the fold and is thrown.
    ///   - failed: called with the fold as it is when the fold fails (every event before the
    ///     one that failed), before the error is thrown: the audit checks that prefix.
    static func fold(
        _ reader: JournalReader, from start: FoldedState, through end: UInt64, personalTexts keys: PersonalKeyRing?,
        progress: (@Sendable (UInt64, UInt64) -> Void)? = nil, visit: (CommittedEvent) -> Void = { _ in },
        frameEnd: (inout FoldedState, UInt64, ChainValue) throws(LedgerError) -> Void = { _, _, _ in },
        failed: (FoldedState) -> Void = { _ in }
    ) throws(LedgerError) -> ReplayResult {
        var folded = start
        let last = min(end, reader.lastSequenceNumber)
        var chainValue = start.chainValue
        var failure: LedgerError?
        do {
            try reader.forEachFrame(from: folded.state.nextSequenceNumber) { frame in
                for record in frame.records where record.sequenceNumber >= folded.state.nextSequenceNumber {
                    if record.sequenceNumber > last { return false }
                    do throws(LedgerError) {
                        let event = try Ledger.decode(record, personalTexts: keys)
                        try folded.apply(
                            event, sequenceNumber: record.sequenceNumber,
                            at: JournalLocation(segment: frame.segment, offset: frame.offset, sequenceNumber: record.sequenceNumber))
                        visit(CommittedEvent(sequenceNumber: record.sequenceNumber, event: event))
                    } catch {
                        failure = error
                        return false
                    }
                }
                if frame.lastSequenceNumber <= last {
                    chainValue = frame.chainValue
                    do throws(LedgerError) {
                        try frameEnd(&folded, frame.lastSequenceNumber, frame.chainValue)
                    } catch {
                        failure = error
                        return false
                    }
                }
                if frame.lastSequenceNumber % 65_536 < UInt64(frame.records.count) { progress?(frame.lastSequenceNumber, last) }
                return frame.lastSequenceNumber < last
            }
        } catch let error as JournalError {
            failure = .storage(error)
        } catch {
            failure = .storage(.journalFailed(reason: "reading failed: \(error)"))
        }
        if let failure {
            failed(folded)
            throw failure
        }
        return ReplayResult(
            state: folded.state,
            lastSequenceNumber: folded.state.nextSequenceNumber - 1, chainValue: chainValue)
    }
}

/// The engine's one fold (the state with its read models) and the chain value it reached.
struct FoldedState: Sendable, Equatable {
    var state = LedgerState()
    var chainValue = ChainValue.genesis

    /// The read models, which the state folds with itself.
    var readModels: Projections { state.readModels }

    /// Folds one event. The journal refuses segments that do not continue each other, so a gap
    /// here means the journal changed under the reader; it is a typed error, not a trap, because
    /// the bytes come from disk.
    ///
    /// - Parameter location: the frame holding the event, for the error.
    /// - Throws: `LedgerError.storage(.corruption)` of kind `sequenceGap` when `sequenceNumber`
    ///   is not the next one expected; nothing is folded then.
    mutating func apply(_ event: Event, sequenceNumber: UInt64, at location: JournalLocation) throws(LedgerError) {
        let expected = state.nextSequenceNumber
        guard sequenceNumber == expected else {
            throw .storage(.corruption(JournalProblem(
                kind: .sequenceGap,
                location: JournalLocation(segment: location.segment, offset: location.offset, sequenceNumber: expected),
                detail: "record \(sequenceNumber) follows record \(expected - 1); expected \(expected): records are missing or repeated")))
        }
        state.apply(event)
    }
}
