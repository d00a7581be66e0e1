import Crypto
import Foundation
import TallyJournal
import TallyModel
import TallyProjections
import TallyStore

/// A rebuild of the read-side store from the journal alone, in bounded memory (issue 28 item 5):
/// the journal is folded once, front to back, into a new store file; every ``windowEvents``
/// events (at the end of a frame) the rows the window changed are committed to it, and what the
/// fold keeps of history (transactions, transfers, settlements, group expenses, the undo
/// history) is written to a scratch archive beside it and dropped from memory, as a checkpoint
/// does for an open ledger (``ArchivedMap``). So memory holds the live state and one window,
/// whatever the length of the history; the scratch archive is removed afterwards.
///
/// The store is written by the same commits an open ledger makes (``LedgerStore/commit(_:from:coverage:)``,
/// O(what changed)), so a rebuilt store and one written commit by commit hold the same rows.
enum StoreRebuild {
    /// Events folded between two commits to the new store (and two writes to the scratch
    /// archive): the checkpoint interval's default.
    static let windowEvents = 10_000

    /// Where the scratch archive of a rebuild of the store at `storePath` lives: beside the
    /// scratch store (`read-side.sqlite.rebuild-history`). The writer's open removes both.
    static func scratchArchivePath(for storePath: String) -> String { LedgerStore.scratchPath(for: storePath) + "-history" }

    /// Folds `reader`'s records 1...`last` into `store` (new and empty).
    /// - Parameters:
    ///   - store: the new store, or nil to fold without writing one (the audit of a ledger
    ///     whose store it does not compare).
    ///   - keys: the personal keys texts are opened with (nil: every text redacted).
    ///   - archivePath: where the scratch archive is written (``scratchArchivePath(for:)``);
    ///     it is removed before and after. Nil keeps the whole fold in memory (a ledger on an
    ///     injected file system, which SQLite cannot use).
    ///   - key: the page key the scratch archive is sealed with (the store's).
    ///   - window: the events folded between two commits (``windowEvents``; tests take fewer).
    ///   - stops: sequence numbers at frame ends where a window ends whatever its size and
    ///     `reached` sees the fold, committed and archived: the audit compares the store and the
    ///     newest checkpoint there.
    ///   - visit: called with every event folded, in order.
    ///   - reached: at each stop, the fold, its sequence number and the scratch archive holding
    ///     its history as of it (nil without one).
    ///   - end: the fold when it ends: through `last`, or, when it fails, through the last event
    ///     folded before the failure (then the error is thrown).
    ///   - progress: (events folded, events in all), after each window.
    /// - Returns: the last sequence number folded and the chain value after it (the coverage
    ///   the store now records).
    /// - Throws: ``LedgerError/readSide(_:)`` when the store or the scratch archive cannot be
    ///   written or read; journal and codec errors of the fold; what `reached` throws.
    @discardableResult
    static func fold(
        _ reader: JournalReader, through last: UInt64, personalTexts keys: PersonalKeyRing?,
        into store: LedgerStore?, key: SymmetricKey, history archivePath: String?, window: Int = windowEvents,
        stops: Set<UInt64> = [], visit: (CommittedEvent) -> Void = { _ in },
        reached: (FoldedState, UInt64, CheckpointArchive?) throws(LedgerError) -> Void = { _, _, _ in },
        end: (FoldedState) -> Void = { _ in }, progress: (Int, Int) -> Void = { _, _ in }
    ) throws(LedgerError) -> StoreCoverage {
        let last = min(last, reader.lastSequenceNumber)
        let archive = try archivePath.map { path throws(LedgerError) in try scratchArchive(at: path, key: key) }
        defer {
            archive?.close()
            if let archivePath { CheckpointArchive.remove(at: archivePath) }
        }
        let history = archive.map { ArchiveReader(archive: $0, asOf: 0) }
        var changes = StoreChanges()
        var coverage = StoreCoverage(sequenceNumber: 0, chainValue: ChainValue.genesis.bytes)
        var windowCount = 0
        func commit(_ folded: inout FoldedState, through sequenceNumber: UInt64, chainValue: ChainValue) throws(LedgerError) {
            coverage = StoreCoverage(sequenceNumber: sequenceNumber, chainValue: chainValue.bytes)
            let stop = stops.contains(sequenceNumber)
            do throws(StoreError) {
                // A failed read of the archive read as absent: nothing built on it is kept.
                if let failure = history?.failure { throw failure }
                if let store { try store.commit(changes, from: StoreSnapshot(folded.state), coverage: coverage) }
                if let failure = history?.failure { throw failure }
                changes = StoreChanges()
                windowCount = 0
                progress(Int(sequenceNumber), Int(last))
                // The last window stays in memory, unless a stop reads its history as of it.
                if let archive, let history, sequenceNumber < last || stop {
                    try archive.write(folded.archiveRows, checkpoint: sequenceNumber, chain: chainValue.bytes)
                    history.sequenceNumber = sequenceNumber
                    folded.settle(reader: history)
                }
            } catch {
                throw .readSide("the rebuilt store at sequence \(sequenceNumber): \(error)")
            }
            if stop { try reached(folded, sequenceNumber, archive) }
        }
        if stops.contains(0) {  // a store that covers nothing yet is compared before any event
            var empty = FoldedState()
            try commit(&empty, through: 0, chainValue: .genesis)
        }
        let windowed = archive != nil || store != nil
        let folded = try LedgerReplay.fold(
            reader, from: FoldedState(), through: last, personalTexts: keys,
            visit: { event in
                if store != nil { changes.add(event.event) }
                windowCount += 1
                visit(event)
            },
            frameEnd: { folded, sequenceNumber, chainValue throws(LedgerError) in
                guard windowed && windowCount >= window || sequenceNumber >= last || stops.contains(sequenceNumber) else { return }
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

    /// A new scratch archive at `path` (0600, as every database file), sealed with `key`.
    private static func scratchArchive(at path: String, key: SymmetricKey) throws(LedgerError) -> CheckpointArchive {
        CheckpointArchive.remove(at: path)
        do {
            return try CheckpointArchive(path: path, key: key, scratch: true)
        } catch {
            CheckpointArchive.remove(at: path)
            throw .readSide("the fold's scratch archive: \(error)")
        }
    }
}
