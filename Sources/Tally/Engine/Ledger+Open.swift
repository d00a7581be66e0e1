import SystemPackage
import TallyJournal
import TallyModel
import TallyProjections
import TallyStore

/// Opening: evidence, journal recovery, the newest usable checkpoint and its archive, the replay of
/// the journal tail, an unfinished forgetting, the read side.
extension Ledger {
    /// Opens (or creates) the ledger in `directory` and replays its journal into the state.
    ///
    /// First what an interrupted restore or reset left at `directory` is settled
    /// (``recoverInterruptedSwap(at:fileSystem:)``, reported in
    /// ``LedgerOpenReport/swapRecovery``): a committed swap is finished, a leftover removed;
    /// a path whose swap cannot be settled is refused and nothing is created there.
    ///
    /// - Parameters:
    ///   - directory: the ledger's directory; created when missing and `options.createIfMissing`
    ///     (never while a swap of it is pending).
    ///   - options: durability, segment size, file system, limits.
    /// - Returns: the open ledger; it holds the journal's writer lock until ``close()``.
    /// - Throws: ``LedgerError/storage(_:)`` (`journalLocked`, corruption, I/O),
    ///   ``LedgerError/codec(_:sequenceNumber:)`` when a stored event cannot be decoded,
    ///   ``LedgerError/swapInterrupted(_:)`` and ``LedgerError/restoreInProgress(_:)`` from
    ///   settling a swap.
    public static func open(at directory: FilePath, options: LedgerOptions = LedgerOptions()) async throws(LedgerError) -> Ledger {
        try await open(at: directory, options: options, folderLockedByCaller: false)
    }

    /// ``open(at:options:)``; with `folderLockedByCaller`, the caller holds the lock on the
    /// folder itself and keeps it after the ledger closes (a reset builds its new ledger in the
    /// restoring folder it locked for the whole swap).
    package static func open(
        at directory: FilePath, options: LedgerOptions, folderLockedByCaller: Bool
    ) async throws(LedgerError) -> Ledger {
        let fileSystem = options.fileSystem
        let layout = LedgerDirectory(directory)
        let swapRecovery = try LedgerSwap.recover(layout, fileSystem: fileSystem)
        if !fileSystem.fileExists(at: directory) {
            guard options.createIfMissing else { throw .storage(.journalNotFound(directory: directory.string)) }
            // A restore or reset that started since the recovery above owns the path now.
            if fileSystem.fileExists(at: layout.swapIntent) || fileSystem.fileExists(at: layout.restoring) {
                throw .restoreInProgress(directory.string)
            }
            do {
                try fileSystem.createDirectory(at: directory)
            } catch {
                throw .storage(JournalError(error, operation: "create directory", path: directory))
            }
        }
        // The whole folder is locked, not only the journal in it: while this writer lives, no
        // second one gets in, even when a tool swapped the journal folder (issue 29). Readers
        // never take it.
        var folderLock: (any FileLock)?
        if !folderLockedByCaller {
            do {
                folderLock = try Journal.lockWriter(at: directory, fileSystem: fileSystem)
            } catch {
                throw .storage(error)
            }
        }
        do {
            return try await open(at: directory, options: options, folderLock: folderLock, swapRecovery: swapRecovery)
        } catch {
            folderLock?.unlock()
            throw error
        }
    }

    /// ``open(at:options:)`` under the folder's lock.
    private static func open(
        at directory: FilePath, options: LedgerOptions, folderLock: (any FileLock)?, swapRecovery: SwapRecovery
    ) async throws(LedgerError) -> Ledger {
        let fileSystem = options.fileSystem
        let layout = LedgerDirectory(directory)
        // The store first, its checkpoint is evidence: a journal shorter than what the
        // checkpoint and the key store prove is refused before the journal cuts a tail or
        // creates a first segment. The key file read here, before the lock, is only evidence: a
        // writer that closed in between can only have raised it, so it is a safe lower bound.
        // The ring the ledger uses is read again under the lock.
        let opening = ReadSide.prepare(directory: directory, options: options)
        var history = StoreHistory(store: opening.store)
        var journalOptions = options.journalOptions
        journalOptions.evidence = LedgerEvidence.gather(
            store: opening.store,
            keys: try PersonalKeyRing.load(ledgerDirectory: directory, fileSystem: fileSystem, encryption: options.encryption, readOnly: true),
            layout: layout, fileSystem: fileSystem)
        let journal: Journal
        do {
            journal = try Journal.open(
                at: layout.journal, options: journalOptions, fileSystem: fileSystem)
        } catch {
            opening.store?.close()
            throw .storage(error)
        }
        do throws(LedgerError) {
            // Before checkpoints were the store's, they were files in `checkpoints/` beside an
            // archive: evidence until the journal opened, but they hold texts readable (P3) and
            // nothing reads them any more.
            try LedgerDirectory.removeLegacyCheckpoints(layout, fileSystem: fileSystem)
            let personalKeys = try PersonalKeyRing.load(
                ledgerDirectory: directory, fileSystem: fileSystem, encryption: options.encryption, keyless: options.keyless)
            let reader = try Ledger.reader(of: journal)
            /// The journal alone, folded from its start: the checkpoint is not used.
            func foldWhole() throws(LedgerError) -> ReplayResult {
                personalKeys.resetUnopened()
                return try LedgerReplay.fold(reader, from: FoldedState(), through: reader.lastSequenceNumber, personalTexts: personalKeys)
            }
            var (start, rejected): (FoldedState?, String?) = (nil, nil)
            if let store = opening.store {
                (start, rejected) = try Checkpoint.usable(in: store, for: reader, keys: personalKeys, history: history)
            }
            var replayed = try LedgerReplay.fold(
                reader, from: start ?? FoldedState(), through: reader.lastSequenceNumber, personalTexts: personalKeys)
            if start != nil, let failed = history.failure {
                // The tail's replay read a row the checkpoint cannot have written (newer than it:
                // files of different moments) or a damaged page: the journal alone then.
                history = StoreHistory(store: opening.store)
                start = nil
                rejected = "the checkpoint in \(LedgerDirectory.readSideStoreName): \(failed)"
                replayed = try foldWhole()
            }
            var report = LedgerOpenReport(
                checkpointSequenceNumber: start.map { $0.state.nextSequenceNumber - 1 },
                eventsReplayed: replayed.lastSequenceNumber - (start.map { $0.state.nextSequenceNumber - 1 } ?? 0),
                rejectedCheckpoints: rejected.map { [$0] } ?? [])
            report.journalRecovery = journal.recoveryReport
            report.swapRecovery = swapRecovery
            report.removedInterruptedRestore = swapRecovery.removedInterruptedRestore
            // P3: a crash or an I/O failure may have cut a forgetting short: the key not
            // destroyed yet, or the checkpoint used holds the texts readable.
            let forgotten = replayed.state.forgottenPeople
            let keyed = forgotten.filter(personalKeys.hasKey)
            let lastForgetting = replayed.state.lastForgettingSequenceNumber
            let checkpointPredatesForgetting = start.map { $0.state.nextSequenceNumber <= lastForgetting } ?? false
            if !keyed.isEmpty || checkpointPredatesForgetting {
                try personalKeys.forget(keyed)
                replayed = try foldWhole()
                report.checkpointSequenceNumber = nil
                report.eventsReplayed = replayed.lastSequenceNumber
                report.forgettingCompleted = forgotten.subtracting(start?.state.forgottenPeople ?? []).union(keyed)
                    .sorted()
            }
            let unreadable = personalKeys.unopened
            if !unreadable.isEmpty {
                let count = unreadable.values.reduce(0, +)
                guard options.opensWithUnreadablePersonalTexts else {
                    let people = unreadable.keys.map(\.description).sorted().joined(separator: ", ")
                    throw LedgerError.personalKeys(
                        "\(count) personal text(s) of \(people), never forgotten, cannot be opened: their keys are missing from \(LedgerDirectory.personalKeysName). Restore that file from a backup of the ledger directory, or open with opensWithUnreadablePersonalTexts to read them as sealed")
                }
                report.unreadablePersonalTexts = count
            }
            var folded = FoldedState(state: replayed.state, chainValue: replayed.chainValue)
            let readSide = ReadSide.open(
                opening, history: history, folded: folded, reader: reader, keys: personalKeys, forgotten: report.forgettingCompleted)
            report.readSide = readSide.status.description
            if !readSide.hasStore, !folded.isResident {
                // The store the checkpoint's history is in could not be kept (a failure that may
                // pass, or a rebuild that failed): the journal alone, in memory.
                let whole = try foldWhole()
                folded = FoldedState(state: whole.state, chainValue: whole.chainValue)
                report.rejectedCheckpoints.append("the checkpoint in \(LedgerDirectory.readSideStoreName): the store cannot be kept open (\(readSide.status))")
                report.checkpointSequenceNumber = nil
                report.eventsReplayed = whole.lastSequenceNumber
            }
            let ledger = Ledger(
                directory: directory, folderLock: folderLock, journal: journal, options: options, folded: folded,
                personalKeys: personalKeys, readSide: readSide, openReport: report)
            // A checkpoint older than the last forgetting holds their texts readable: only the
            // writer (holding the lock) removes it.
            do {
                try ledger.checkpointWriter.removeAll(coveringLessThan: lastForgetting)
            } catch {
                readSide.close()
                try? journal.close()
                throw LedgerError.storage(error)
            }
            return ledger
        } catch {
            history.use(nil)
            opening.store?.close()
            try? journal.close()
            throw error
        }
    }
}
