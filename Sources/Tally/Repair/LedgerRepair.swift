import SystemPackage
import TallyJournal
import TallyStore

/// `tally repair`: the one explicit way to make a damaged or truncated ledger writable again.
/// Opening never repairs anything but a torn tail; this decides, when a person asks, what to
/// keep: the journal's valid prefix. Nothing is deleted: what is dropped is moved into
/// `<ledger>/repair/<n>/` (the journal's damaged bytes and later segments, the read-side store with its checkpoint),
/// and the personal-key store's evidence is lowered to the kept end. Personal keys themselves
/// are never touched (texts in set-aside segments stay readable with them).
public enum LedgerRepair {
    /// What a repair would do.
    public struct Plan: Sendable, Hashable {
        /// The journal's part: the valid prefix kept and what is set aside.
        public var journal: JournalRepair.Plan
        /// Whether the read-side store, which holds the checkpoint, is set aside (when anything
        /// is repaired: it is a cache, and the next open rebuilds it from the kept prefix).
        public var setsAsideStore: Bool
        /// The evidence that proves more than the kept prefix (checkpoint, key store), if any.
        public var evidence: JournalEvidence?
        /// Why the checkpoint disagrees with the journal (a rewritten journal), if it does.
        public var checkpointMismatch: String?
        /// True when the ledger opens as it is.
        public var isEmpty: Bool { journal.isEmpty && !setsAsideStore && evidence == nil }
        /// The last sequence number kept.
        public var keptThrough: UInt64 { journal.keptThrough }
    }

    /// Looks at the ledger in `directory` and says what a repair would keep and set aside. A
    /// segment cut or damaged anywhere, its header included, is planned: the prefix before it
    /// is kept and ``Plan/journal``'s `losses` say what is given up. Settles an interrupted
    /// restore or reset first (``Ledger/recoverInterruptedSwap(at:fileSystem:)``).
    /// - Parameters:
    ///   - directory: the ledger's directory.
    ///   - encryption: the keys of an encrypted ledger.
    ///   - chainKey: the key of a keyed hash chain (`LedgerOptions.chainKey`); when the
    ///     repair keeps no segment, the empty first segment it writes is keyed when a key is given
    ///     (otherwise as the journal's readable headers say).
    ///   - fileSystem: where the ledger's files are.
    /// - Throws: ``LedgerError/storage(_:)`` when the journal cannot be read at all (no segment
    ///   files, a special file in a segment's place, I/O), ``LedgerError/personalKeys(_:)``
    ///   (the key store is damaged: restore it from a backup), what settling a swap throws.
    public static func plan(
        at directory: FilePath, encryption: JournalEncryption? = nil, chainKey: [UInt8]? = nil,
        fileSystem: any FileSystem = PosixFileSystem()
    ) throws(LedgerError) -> Plan {
        _ = try LedgerSwap.recover(LedgerDirectory(directory), fileSystem: fileSystem)
        let journalPath = LedgerDirectory(directory).journal
        let keys = try PersonalKeyRing.load(ledgerDirectory: directory, fileSystem: fileSystem, encryption: encryption, readOnly: true)
        var journalPlan: JournalRepair.Plan
        let evidence: JournalEvidence?
        do {
            let keyedChain: Bool? = chainKey == nil ? nil : true
            // The evidence first, the journal after (as the key file above): a writer beside the
            // plan makes a batch durable before a checkpoint proves it, so the journal read now
            // holds whatever the evidence read a moment ago proves (the other order takes a
            // checkpoint written meanwhile for records the journal lost).
            let gathered = LedgerEvidence.gather(directory: directory, encryption: encryption, fileSystem: fileSystem, keys: keys)
            journalPlan = try JournalRepair.plan(
                at: journalPath, encryption: encryption, fileSystem: fileSystem, includingTornTail: true, keyedChain: keyedChain)
            evidence = gathered.flatMap { $0.lastSequenceNumber > journalPlan.keptThrough ? $0 : nil }
            // A torn tail is set aside here only when the evidence says records there were
            // acknowledged; otherwise the next open cuts it (keeping its bytes), as after any crash.
            if evidence == nil, journalPlan.problems.allSatisfy({ $0.kind == .tornTail }) {
                journalPlan = .keeping(through: journalPlan.keptThrough)
            }
            if evidence == nil, journalPlan.isEmpty, let undecodable = Self.undecodableRecord(at: directory, encryption: encryption, fileSystem: fileSystem) {
                // Frames whose checksum holds but whose records do not decode or decrypt
                // (altered with the CRC recomputed): readers refuse them, so repair cuts there.
                journalPlan = try JournalRepair.plan(
                    at: journalPath, encryption: encryption, fileSystem: fileSystem, undecodable: undecodable, keyedChain: keyedChain)
            }
        } catch {
            throw .storage(error)
        }
        var mismatch: String?
        if journalPlan.isEmpty, evidence == nil {
            do throws(LedgerError) {
                let reader: JournalReader
                do {
                    reader = try JournalReader.open(at: journalPath, fileSystem: fileSystem, encryption: encryption)
                } catch {
                    throw .storage(error)
                }
                if let store = ReadSide.existingStore(in: directory, encryption: encryption, fileSystem: fileSystem) {
                    defer { store.close() }
                    _ = try Checkpoint.usable(in: store, for: reader, keys: keys, history: StoreHistory(store: store))
                }
            } catch {
                mismatch = error.message
            }
        }
        let repairsSomething = !journalPlan.isEmpty || evidence != nil || mismatch != nil
        let hasStore = fileSystem.fileExists(at: LedgerDirectory(directory).readSideStore)
        return Plan(journal: journalPlan, setsAsideStore: repairsSomething && hasStore, evidence: evidence, checkpointMismatch: mismatch)
    }

    /// Carries out `plan` under the journal's writer lock and returns the folder that holds
    /// what was set aside (nil when there was nothing to do). The plan is made again under the
    /// lock; if the ledger changed since `plan` was shown, nothing is done.
    /// - Throws: ``LedgerError/repairPlanOutdated`` when the ledger changed since the plan;
    ///   ``LedgerError/storage(_:)`` (`journalLocked` when a writer has the ledger open; I/O
    ///   errors), ``LedgerError/personalKeys(_:)``.
    /// - Parameters:
    ///   - plan: what ``plan(at:encryption:chainKey:fileSystem:)`` said.
    ///   - directory: the ledger's directory.
    ///   - encryption: the keys of an encrypted ledger.
    ///   - chainKey: as given to ``plan(at:encryption:chainKey:fileSystem:)``.
    ///   - fileSystem: where the ledger's files are.
    @discardableResult
    public static func apply(
        _ plan: Plan, at directory: FilePath, encryption: JournalEncryption? = nil, chainKey: [UInt8]? = nil,
        fileSystem: any FileSystem = PosixFileSystem()
    ) throws(LedgerError) -> FilePath? {
        guard !plan.isEmpty else { return nil }
        let journalPath = LedgerDirectory(directory).journal
        let readSide = LedgerDirectory(directory).readSide
        do {
            let folderLock = try Journal.lockWriter(at: directory, fileSystem: fileSystem)  // as `Ledger.open` takes them
            defer { folderLock.unlock() }
            let lock = try Journal.lockWriter(at: journalPath, fileSystem: fileSystem)
            defer { lock.unlock() }
            guard try Self.plan(at: directory, encryption: encryption, chainKey: chainKey, fileSystem: fileSystem) == plan else {
                throw LedgerError.repairPlanOutdated
            }
            let setAside = try nextSetAsideDirectory(in: directory, fileSystem: fileSystem)
            let setAsideLayout = LedgerDirectory(setAside)
            try JournalRepair.apply(plan.journal, at: journalPath, setAsideDirectory: setAsideLayout.journal, fileSystem: fileSystem)
            if plan.setsAsideStore {
                let destination = setAsideLayout.readSide
                try JournalError.catching("set aside the read-side store", destination) { () throws(Errno) in
                    if !fileSystem.fileExists(at: destination) { try fileSystem.createDirectory(at: destination) }
                    for file in ReadSide.storeFiles(LedgerDirectory(directory).readSideStore) where fileSystem.fileExists(at: file) {
                        try fileSystem.rename(from: file, to: destination.appending(file.lastComponent?.string ?? LedgerDirectory.readSideStoreName))
                    }
                    try fileSystem.synchronizeDirectory(at: destination)
                    try fileSystem.synchronizeDirectory(at: readSide)
                }
            }
            // Checkpoint files an older version left are evidence too: set aside with the store.
            let legacy = LedgerDirectory(directory).path.appending(LedgerDirectory.legacyCheckpointsName)
            if plan.evidence != nil, fileSystem.fileExists(at: legacy) {
                try JournalError.catching("set aside the checkpoints of an older version", legacy) { () throws(Errno) in
                    try fileSystem.rename(from: legacy, to: setAside.appending(LedgerDirectory.legacyCheckpointsName))
                    try fileSystem.synchronizeDirectory(at: directory)
                }
            }
            let keys = try PersonalKeyRing.load(ledgerDirectory: directory, fileSystem: fileSystem, encryption: encryption)
            if let evidence = keys.evidence, evidence.lastSequenceNumber > plan.keptThrough {
                try keys.lowerEvidence(to: plan.keptThrough)
            }
            return setAside
        } catch let error as LedgerError {
            throw error
        } catch let error as JournalError {
            throw .storage(error)
        } catch {
            throw .storage(.ioFailure(operation: "repair", path: directory.string, errno: Errno.ioError.rawValue))
        }
    }

    /// The first record a replay of the journal cannot decode or decrypt, as a problem located
    /// at its sequence number; nil when the whole journal replays (other failures, such as a
    /// missing key file, are not the journal's damage and are left to the error they raise).
    private static func undecodableRecord(
        at directory: FilePath, encryption: JournalEncryption?, fileSystem: any FileSystem
    ) -> JournalProblem? {
        do {
            _ = try LedgerReplay.replay(at: directory, encryption: encryption, fileSystem: fileSystem)
            return nil
        } catch .codec(let error, let sequenceNumber) {
            return JournalProblem(
                kind: .badRecords, location: JournalLocation(segment: "", offset: 0, sequenceNumber: sequenceNumber),
                detail: "record \(sequenceNumber) does not decode (\(error.message)) although its frame's checksum holds")
        } catch .storage(.corruption(let problem)) {
            return problem
        } catch .storage(.wrongEncryptionKey(_, let location)) {
            return JournalProblem(
                kind: .decryptionFailed, location: location,
                detail: "the frame does not decrypt with the key that opens the journal's last frame: its ciphertext was altered")
        } catch {
            return nil
        }
    }

    /// `<ledger>/repair/<n>` for the first `n` not yet used (no clock: repeatable).
    private static func nextSetAsideDirectory(in directory: FilePath, fileSystem: any FileSystem) throws(JournalError) -> FilePath {
        let layout = LedgerDirectory(directory)
        var number = 1
        while fileSystem.fileExists(at: layout.repairSetAside(number: number)) { number += 1 }
        let chosen = layout.repairSetAside(number: number)
        try JournalError.catching("create directory", chosen) { () throws(Errno) in try fileSystem.createDirectory(at: chosen) }
        return chosen
    }
}
