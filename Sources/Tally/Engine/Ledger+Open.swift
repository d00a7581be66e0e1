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
        // Evidence first: a journal shorter than what the checkpoints and the key store prove
        // is refused before the journal cuts a tail or creates a first segment.
        // The key file read here, before the lock, is only evidence: a writer that closed in
        // between can only have raised it, so it is a safe lower bound. The ring the ledger
        // uses is read again under the lock.
        let checkpoints = CheckpointStore(
            directory: layout.checkpoints, fileSystem: fileSystem, encryption: options.encryption)
        var journalOptions = options.journalOptions
        journalOptions.evidence = try LedgerEvidence.gather(
            checkpoints: checkpoints,
            keys: try PersonalKeyRing.load(ledgerDirectory: directory, fileSystem: fileSystem, encryption: options.encryption, readOnly: true))
        let journal: Journal
        do {
            journal = try Journal.open(
                at: layout.journal, options: journalOptions, fileSystem: fileSystem)
        } catch {
            throw .storage(error)
        }
        var archive: CheckpointArchive?
        do throws(LedgerError) {
            archive = try checkpoints.openArchiveForWriting()  // under the writer lock
            let personalKeys = try PersonalKeyRing.load(
                ledgerDirectory: directory, fileSystem: fileSystem, encryption: options.encryption)
            let reader = try Ledger.reader(of: journal)
            let (start, rejected) = try checkpoints.newestUsable(for: reader, keys: personalKeys, archive: archive)
            var replayed = try LedgerReplay.fold(
                reader, from: start ?? FoldedState(), through: reader.lastSequenceNumber, personalTexts: personalKeys)
            var report = LedgerOpenReport(
                checkpointSequenceNumber: start.map { $0.state.nextSequenceNumber - 1 },
                eventsReplayed: replayed.lastSequenceNumber - (start.map { $0.state.nextSequenceNumber - 1 } ?? 0),
                rejectedCheckpoints: rejected)
            report.journalRecovery = journal.recoveryReport
            report.swapRecovery = swapRecovery
            report.removedInterruptedRestore = swapRecovery.removedInterruptedRestore
            // P3: a crash or an I/O failure may have cut a forgetting short: the key not
            // destroyed yet, or the checkpoint used (or an older one) holds the texts readable.
            let forgotten = replayed.state.forgottenPeople
            let keyed = forgotten.filter(personalKeys.hasKey)
            let lastForgetting = replayed.state.lastForgettingSequenceNumber
            let checkpointPredatesForgetting = start.map { $0.state.nextSequenceNumber <= lastForgetting } ?? false
            if !keyed.isEmpty || checkpointPredatesForgetting {
                try personalKeys.forget(keyed)
                personalKeys.resetUnopened()
                replayed = try LedgerReplay.fold(reader, from: FoldedState(), through: reader.lastSequenceNumber, personalTexts: personalKeys)
                report.checkpointSequenceNumber = nil
                report.eventsReplayed = replayed.lastSequenceNumber
                report.forgettingCompleted = forgotten.subtracting(start?.state.forgottenPeople ?? []).union(keyed)
                    .sorted()
            }
            // The archive keeps only what the state read from it can reach: rows newer than the
            // checkpoint used (left by a newer checkpoint not used, or a journal cut since) go;
            // a state rebuilt by replay holds everything, so the archive starts empty. When that
            // fails, the archive is set aside and the state replayed.
            if let usedArchive = archive {
                do throws(StoreError) {
                    if let reading = replayed.state.archiveReader {
                        try usedArchive.discard(after: reading.sequenceNumber)
                    } else {
                        try usedArchive.removeAll()
                    }
                } catch where !error.isDamage {
                    throw LedgerError.readSide("\(error); nothing was changed, open the ledger again")  // may pass: no file changes
                } catch {
                    // Set aside: a fresh archive starts empty, like the replayed state's history.
                    usedArchive.close()
                    CheckpointArchive.remove(at: checkpoints.archivePath.string)
                    archive = try checkpoints.openArchiveForWriting()
                    if !replayed.state.isResident {
                        report.rejectedCheckpoints.append("\(report.checkpointSequenceNumber.map { LedgerDirectory.checkpointFileName(sequenceNumber: $0) } ?? "checkpoint"): \(LedgerDirectory.checkpointArchiveName) cannot be used: \(error)")
                        replayed = try LedgerReplay.fold(reader, from: FoldedState(), through: reader.lastSequenceNumber, personalTexts: personalKeys)
                        report.checkpointSequenceNumber = nil
                        report.eventsReplayed = replayed.lastSequenceNumber
                    }
                }
            }
            // Checkpoints older than the last forgetting, and temporary files a crash during a
            // checkpoint write left: only the writer (holding the lock) removes them.
            do {
                try checkpoints.removeAll(coveringLessThan: lastForgetting)
            } catch {
                throw .storage(error)
            }
            let unreadable = personalKeys.unopened
            if !unreadable.isEmpty {
                let count = unreadable.values.reduce(0, +)
                guard options.opensWithUnreadablePersonalTexts else {
                    let people = unreadable.keys.map(\.description).sorted().joined(separator: ", ")
                    throw LedgerError.personalKeys(
                        "\(count) personal text(s) of \(people), never forgotten, cannot be opened: their keys are missing from \(LedgerDirectory.personalKeysName). Restore that file from a backup of the ledger directory, or open with opensWithUnreadablePersonalTexts to read them as redacted")
                }
                report.unreadablePersonalTexts = count
            }
            let folded = FoldedState(state: replayed.state, chainValue: replayed.chainValue)
            let readSide = ReadSide.open(
                directory: directory, options: options, folded: folded, reader: reader, keys: personalKeys,
                forgotten: report.forgettingCompleted)
            report.readSide = readSide.status.description
            return Ledger(
                directory: directory, folderLock: folderLock, journal: journal, options: options, folded: folded,
                checkpoints: checkpoints, archive: archive, personalKeys: personalKeys, readSide: readSide, openReport: report)
        } catch {
            archive?.close()
            try? journal.close()
            throw error
        }
    }
}
