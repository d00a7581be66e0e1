import Foundation
import TallyJournal
import TallyModel
import TallyProjections
import TallyStore

/// A rebuild of the read-side store from the journal alone, in bounded memory (issue 28 item 5):
/// the journal is folded once, front to back, into a new store file; every ``windowEvents``
/// events (at the end of a frame) the rows the window changed are committed to it, and what the
/// fold keeps of history (transactions, transfers, settlements, group expenses, the undo
/// history) is written to the store's history and dropped from memory, as a checkpoint does for
/// an open ledger (``ArchivedMap``). So memory holds the live state and one window, whatever the
/// length of the history.
///
/// The store is written by the same commits an open ledger makes (``LedgerStore/commit(_:from:coverage:)``,
/// O(what changed)), so a rebuilt store and one written commit by commit hold the same rows.
enum StoreRebuild {
    /// Events folded between two commits to the new store: the checkpoint interval's default.
    static let windowEvents = 10_000

    /// Folds `reader`'s records 1...`last` into `store` (new and empty).
    /// - Parameters:
    ///   - store: the new store, or nil to fold in memory (a ledger on an injected file
    ///     system, which SQLite cannot use).
    ///   - keys: the personal keys texts are opened with (nil: every text redacted).
    ///   - fingerprints: when set, the fold ends with a checkpoint of its last state listing
    ///     these key fingerprints (`PersonalKeyRing.fingerprints`), so the new store is one a
    ///     ledger opens from; without, the last window's history stays in memory.
    ///   - window: the events folded between two commits (``windowEvents``; tests take fewer).
    ///   - stops: sequence numbers at frame ends where a window ends whatever its size and
    ///     `reached` sees the fold, committed with its history: the audit compares the store
    ///     and the checkpoint there.
    ///   - visit: called with every event folded, in order.
    ///   - reached: at each stop, the fold and its sequence number.
    ///   - end: the fold when it ends: through `last`, or, when it fails, through the last event
    ///     folded before the failure (then the error is thrown).
    ///   - progress: (events folded, events in all), after each window.
    /// - Returns: the last sequence number folded and the chain value after it (the coverage
    ///   the store now records).
    /// - Throws: ``LedgerError/readSide(_:)`` when the store cannot be written or read; journal
    ///   and codec errors of the fold; what `reached` throws.
    @discardableResult
    static func fold(
        _ reader: JournalReader, through last: UInt64, personalTexts keys: PersonalKeyRing?,
        into store: LedgerStore?, checkpoint fingerprints: [PersonID: [UInt8]]? = nil, window: Int = windowEvents,
        stops: Set<UInt64> = [], visit: (CommittedEvent) -> Void = { _ in },
        reached: (FoldedState, UInt64) throws(LedgerError) -> Void = { _, _ in },
        end: (FoldedState) -> Void = { _ in }, progress: (Int, Int) -> Void = { _, _ in }
    ) throws(LedgerError) -> StoreCoverage {
        let last = min(last, reader.lastSequenceNumber)
        let history = store.map { StoreHistory(store: $0) }
        var changes = StoreChanges()
        var coverage = StoreCoverage(sequenceNumber: 0, chainValue: ChainValue.genesis.bytes)
        var windowCount = 0
        func commit(_ folded: inout FoldedState, through sequenceNumber: UInt64, chainValue: ChainValue) throws(LedgerError) {
            coverage = StoreCoverage(sequenceNumber: sequenceNumber, chainValue: chainValue.bytes)
            folded.chainValue = chainValue  // what a checkpoint of it records
            let stop = stops.contains(sequenceNumber)
            if let store, let history {
                do throws(StoreError) {
                    // A failed read of the history read as absent: nothing built on it is kept.
                    if let failure = history.failure { throw failure }
                    try store.commit(changes, from: StoreSnapshot(folded.state), coverage: coverage)
                    if let failure = history.failure { throw failure }
                    // The last window stays in memory, unless a stop reads its history as of it
                    // or the fold ends with a checkpoint.
                    let checkpoint = sequenceNumber >= last ? fingerprints.map { folded.checkpoint(fingerprints: $0).encoded() } : nil
                    if sequenceNumber < last || stop || checkpoint != nil {
                        try store.writeCheckpoint(folded.archiveRows, version: sequenceNumber, replacingAll: false, state: checkpoint)
                        history.advance(to: sequenceNumber)
                        folded.settle(reader: history)
                    }
                } catch {
                    throw .readSide("the rebuilt store at sequence \(sequenceNumber): \(error)")
                }
            }
            changes = StoreChanges()
            windowCount = 0
            progress(Int(sequenceNumber), Int(last))
            if stop { try reached(folded, sequenceNumber) }
        }
        if stops.contains(0) {  // a store that covers nothing yet is compared before any event
            var empty = FoldedState()
            try commit(&empty, through: 0, chainValue: .genesis)
        }
        let folded = try LedgerReplay.fold(
            reader, from: FoldedState(), through: last, personalTexts: keys,
            visit: { event in
                if store != nil { changes.add(event.event, sequenceNumber: event.sequenceNumber) }
                windowCount += 1
                visit(event)
            },
            frameEnd: { folded, sequenceNumber, chainValue throws(LedgerError) in
                guard store != nil && windowCount >= window || sequenceNumber >= last || stops.contains(sequenceNumber) else { return }
                try commit(&folded, through: sequenceNumber, chainValue: chainValue)
            },
            failed: end)
        var whole = FoldedState(state: folded.state, chainValue: folded.chainValue)
        if windowCount > 0 || coverage.sequenceNumber == 0 && !stops.contains(0) {
            try commit(&whole, through: folded.lastSequenceNumber, chainValue: folded.chainValue)
        }
        end(whole)
        return coverage
    }
}
