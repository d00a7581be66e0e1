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
    ///   - keys: the personal keys texts are opened with (nil: every text redacted).
    ///   - archivePath: where the scratch archive is written (``scratchArchivePath(for:)``);
    ///     it is removed before and after.
    ///   - key: the page key the scratch archive is sealed with (the store's).
    ///   - window: the events folded between two commits (``windowEvents``; tests take fewer).
    ///   - progress: (events folded, events in all), after each window.
    /// - Returns: the last sequence number folded and the chain value after it (the coverage
    ///   the store now records).
    /// - Throws: ``LedgerError/readSide(_:)`` when the store or the scratch archive cannot be
    ///   written or read; journal and codec errors of the fold.
    static func fold(
        _ reader: JournalReader, through last: UInt64, personalTexts keys: PersonalKeyRing?,
        into store: LedgerStore, key: SymmetricKey, history archivePath: String, window: Int = windowEvents,
        progress: (Int, Int) -> Void = { _, _ in }
    ) throws(LedgerError) -> StoreCoverage {
        CheckpointArchive.remove(at: archivePath)
        defer { CheckpointArchive.remove(at: archivePath) }
        // Created 0600 first: SQLite gives the WAL and shared memory the database file's mode.
        guard FileManager.default.createFile(atPath: archivePath, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw .readSide("\(archivePath): cannot create the rebuild's scratch archive")
        }
        let archive: CheckpointArchive
        do {
            archive = try CheckpointArchive(path: archivePath, key: key)
        } catch {
            throw .readSide("the rebuild's scratch archive: \(error)")
        }
        defer { archive.close() }
        let history = ArchiveReader(archive: archive, asOf: 0)
        var changes = StoreChanges()
        var coverage = StoreCoverage(sequenceNumber: 0, chainValue: ChainValue.genesis.bytes)
        let total = Int(min(last, reader.lastSequenceNumber))
        func commit(_ folded: inout FoldedState, through sequenceNumber: UInt64, chainValue: ChainValue) throws(LedgerError) {
            coverage = StoreCoverage(sequenceNumber: sequenceNumber, chainValue: chainValue.bytes)
            do throws(StoreError) {
                // A failed read of the archive read as absent: nothing built on it is kept.
                if let failure = history.failure { throw failure }
                try store.commit(changes, from: StoreSnapshot(folded.state, folded.readModels), coverage: coverage)
                if let failure = history.failure { throw failure }
                changes = StoreChanges()
                progress(Int(sequenceNumber), total)
                guard sequenceNumber < last else { return }  // the last window stays in memory
                try archive.write(folded.archiveRows, checkpoint: sequenceNumber, chain: chainValue.bytes)
            } catch {
                throw .readSide("the rebuilt store at sequence \(sequenceNumber): \(error)")
            }
            history.sequenceNumber = sequenceNumber
            folded.settle(reader: history)
        }
        let folded = try LedgerReplay.fold(
            reader, from: FoldedState(), through: last, personalTexts: keys,
            visit: { changes.add($0.event) },
            frameEnd: { folded, sequenceNumber, chainValue throws(LedgerError) in
                guard changes.eventCount >= window || sequenceNumber >= last else { return }
                try commit(&folded, through: sequenceNumber, chainValue: chainValue)
            })
        if changes.eventCount > 0 || coverage.sequenceNumber == 0 {
            var whole = FoldedState(state: folded.state, readModels: folded.readModels, chainValue: folded.chainValue)
            try commit(&whole, through: folded.lastSequenceNumber, chainValue: folded.chainValue)
        }
        return coverage
    }
}
