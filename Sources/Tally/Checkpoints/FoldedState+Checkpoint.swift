import SystemPackage
import TallyJournal
import TallyModel
import TallyProjections
import TallyStore

extension FoldedState {
    static let ledgerStateSection = "ledgerState"
    static let readModelsSection = "readModels"
    /// Per key holder, a keyed fingerprint of their key (`PersonalKeyRing.fingerprints`): the
    /// holders, and which keys they held. A checkpoint holds their texts readable, so it is used
    /// only with the very keys it was written with: a key file swapped in from another ledger
    /// (same people, other keys) is noticed at open, not after new texts were sealed with it.
    static let keyFingerprintsSection = "personalKeyFingerprints"

    /// The checkpoint of this state listing `fingerprints` (`PersonalKeyRing.fingerprints`,
    /// taken when the state was): pure, so it can run off the ledger actor. What grows with
    /// history (the archived maps of the state and of the read models) is not in it: a
    /// checkpoint writes those rows (``archiveRows``) to the store beside it.
    func checkpoint(fingerprints unsorted: [PersonID: [UInt8]]) -> Checkpoint {
        let fingerprints = unsorted.sorted { $0.key < $1.key }
        var prints = BinaryWriter(reservingCapacity: 48 * fingerprints.count)
        for (person, fingerprint) in fingerprints {
            prints.write(person)
            prints.writeRawBytes(fingerprint)
        }
        let sections = [
            Self.ledgerStateSection: state.checkpointBytes(historyArchived: true),
            Self.readModelsSection: readModels.encodedState(archived: true),
            Self.keyFingerprintsSection: prints.bytes]
        return Checkpoint(sequenceNumber: state.nextSequenceNumber - 1, chainValue: chainValue, sections: sections)
    }

    /// The key holders a checkpoint lists, with their key's fingerprint.
    static func keyHolders(of checkpoint: Checkpoint) throws(CheckpointDefect) -> [PersonID: [UInt8]] {
        var holders: [PersonID: [UInt8]] = [:]
        do {
            var prints = BinaryReader(checkpoint.sections[keyFingerprintsSection] ?? [])
            while prints.remainingCount > 0 {
                let person: PersonID = try prints.read()
                holders[person] = Array(try prints.readRawBytes(count: PersonalKeyRing.fingerprintBytes))
            }
        } catch {
            throw .stateUnreadable("personal key holders: \(error)")
        }
        return holders
    }

    /// Restores the live state a checkpoint holds; what it keeps of history is read from
    /// `history` (the store the checkpoint was read from), as of the checkpoint.
    init(checkpoint: Checkpoint, history: StoreHistory) throws(CheckpointDefect) {
        guard let stateBytes = checkpoint.sections[Self.ledgerStateSection] else { throw .missingSection(Self.ledgerStateSection) }
        guard let modelBytes = checkpoint.sections[Self.readModelsSection] else { throw .missingSection(Self.readModelsSection) }
        do {
            state = try LedgerState(checkpointBytes: stateBytes)
        } catch {
            throw .stateUnreadable("ledger state: \(error)")
        }
        do {
            state.readModels = try Projections(encodedState: modelBytes)
            state.periods.update(paydays: state.readModels.budgets.paySchedule)
        } catch {
            throw .stateUnreadable("read models: \(error)")
        }
        guard state.nextSequenceNumber - 1 == checkpoint.sequenceNumber,
              readModels.lastSequenceNumber ?? 0 == checkpoint.sequenceNumber
        else { throw .stateUnreadable("sections disagree with the checkpoint's sequence number \(checkpoint.sequenceNumber)") }
        chainValue = checkpoint.chainValue
        attach(history)
        history.advance(to: checkpoint.sequenceNumber)
    }

    /// What a checkpoint writes to the store's history: every entry of the state and the read
    /// models changed since the last one.
    var archiveRows: some Sequence<ArchiveRow> { state.archiveRows }

    /// Reads what is not in memory from `reader`.
    mutating func attach(_ reader: StoreHistory) { state.attach(reader) }

    /// After every changed entry was written to the history `reader` reads: keeps in memory
    /// only what changes from now on.
    mutating func settle(reader: StoreHistory) {
        let written = state
        state.settle(written: written, reader: reader)
    }

    /// A copy with everything in memory, which reads nothing from the store.
    func detached() -> FoldedState { FoldedState(state: state.detached(), chainValue: chainValue) }

    /// Whether nothing is read from the store's history.
    var isResident: Bool { state.isResident }
}

extension Checkpoint {
    /// The checkpoint `store` holds, or nil when it holds none.
    static func stored(in store: LedgerStore) throws(CheckpointDefect) -> Checkpoint? {
        let bytes: [UInt8]?
        do {
            bytes = try store.checkpointState()
        } catch {
            throw .stateUnreadable("\(error)")
        }
        return try bytes.map { bytes throws(CheckpointDefect) in try decode(bytes) }
    }

    /// This checkpoint restored, reading its history from `history`, when it sits on a frame
    /// boundary of `reader`'s journal with the same chain value and its key holders all still
    /// have the same key or were forgotten (a full replay then notices texts that cannot be
    /// opened, P2).
    func restored(for reader: JournalReader, keys: PersonalKeyRing, history: StoreHistory) throws(CheckpointDefect) -> FoldedState {
        try check(against: reader)
        let holders = try FoldedState.keyHolders(of: self)
        let missing = holders.keys.filter { !keys.hasKey(for: $0) && !keys.forgotten.contains($0) }
        guard missing.isEmpty else { throw .personalKeysMissing(missing.map(\.description).sorted()) }
        let current = keys.fingerprints
        let other = holders.filter { person, recorded in current[person].map { $0 != recorded } ?? false }
        guard other.isEmpty else { throw .personalKeysDiffer(other.keys.map(\.description).sorted()) }
        return try FoldedState(checkpoint: self, history: history)
    }

    /// The checkpoint of `store` restored (``restored(for:keys:history:)``), or nil with why
    /// it was passed over (none, damaged, another journal position, other keys).
    ///
    /// A damaged checkpoint only costs time, but one that decodes and disagrees with the
    /// journal's chain value at its sequence number is evidence that the journal was rewritten
    /// (or replaced by another ledger's): that is refused, never replayed past.
    /// - Throws: ``LedgerError/storage(_:)`` with `corruption` of kind `chainMismatch`.
    static func usable(
        in store: LedgerStore, for reader: JournalReader, keys: PersonalKeyRing, history: StoreHistory
    ) throws(LedgerError) -> (FoldedState?, rejected: String?) {
        do throws(CheckpointDefect) {
            guard let checkpoint = try stored(in: store) else { return (nil, nil) }
            let restored = try checkpoint.restored(for: reader, keys: keys, history: history)  // its chain value first: evidence
            let complete: Bool
            do throws(StoreError) {
                complete = try store.keptRecordsComplete()
            } catch {
                throw .stateUnreadable("\(error)")
            }
            guard complete else { throw .keptRecordsIncomplete }
            return (restored, nil)
        } catch .chainMismatch(let sequenceNumber) {
            throw .storage(.corruption(JournalProblem(
                kind: .chainMismatch, location: reader.location(of: sequenceNumber),
                detail: "the checkpoint in \(LedgerDirectory.readSideName)/\(LedgerDirectory.readSideStoreName) records another chain value after sequence \(sequenceNumber) than the journal's frame ending there: the journal was rewritten or replaced. Restore it from a backup; `tally repair` sets the store aside explicitly")))
        } catch {
            return (nil, "the checkpoint in \(LedgerDirectory.readSideStoreName): \(error)")
        }
    }

    /// The journal has a frame ending at this checkpoint's sequence number with its chain value.
    func check(against reader: JournalReader) throws(CheckpointDefect) {
        guard sequenceNumber > 0 else { return }
        guard sequenceNumber <= reader.lastSequenceNumber else { throw .notInJournal(sequenceNumber: sequenceNumber) }
        var frameEnd: UInt64?
        var frameChain: ChainValue?
        do {
            try reader.forEachFrame(from: sequenceNumber) { frame in
                frameEnd = frame.lastSequenceNumber
                frameChain = frame.chainValue
                return false
            }
        } catch {
            throw .stateUnreadable("journal at sequence \(sequenceNumber): \(error)")
        }
        guard frameEnd == sequenceNumber else { throw .notInJournal(sequenceNumber: sequenceNumber) }
        guard frameChain == chainValue else { throw .chainMismatch(sequenceNumber: sequenceNumber) }
    }
}

/// Audit: the store's checkpoint against the audit's one fold of the journal alone, compared
/// when the fold reaches the checkpoint's sequence number.
enum CheckpointComparison {
    /// The store's checkpoint, read and checked against the journal before the fold.
    struct Candidate {
        let checkpoint: Checkpoint
        /// The ledger's store, which holds it (the audit closes it).
        let store: LedgerStore
    }

    /// What the audit knows of the checkpoint before it folds the journal.
    enum Found {
        /// A checkpoint to compare with the fold at its sequence number.
        case compare(Candidate)
        /// Nothing to compare: the status is known already.
        case settled(CheckpointStatus)
    }

    /// The checkpoint of the store at `directory` (read before the journal, so that the journal
    /// holds what it covers), checked against `reader`'s journal.
    static func candidate(
        directory: FilePath, encryption: JournalEncryption?, fileSystem: any FileSystem, reader: JournalReader, evidence: JournalEvidence?
    ) -> Found {
        guard let store = ReadSide.existingStore(in: directory, encryption: encryption, fileSystem: fileSystem) else { return .settled(.none) }
        do throws(CheckpointDefect) {
            guard let checkpoint = try Checkpoint.stored(in: store) else {
                store.close()
                return .settled(.none)
            }
            // Beyond the journal the audit opened and beyond the evidence read before it: written
            // by a writer since. (One that was there is beyond a damaged or cut journal: the
            // journal's open reported the missing records, and it is unreadable, as below.)
            guard checkpoint.sequenceNumber <= max(reader.lastSequenceNumber, evidence?.lastSequenceNumber ?? 0) else {
                store.close()
                return .settled(.notCompared(writtenMeanwhileMessage))
            }
            try checkpoint.check(against: reader)
            return .compare(Candidate(checkpoint: checkpoint, store: store))
        } catch {
            store.close()
            return .settled(.unreadable("the checkpoint in \(LedgerDirectory.readSideStoreName): \(error)"))
        }
    }

    /// Which part of the fold an archived space belongs to, for a report.
    private static func holder(of space: ArchiveSpace) -> String {
        switch space {
        case .transactions, .walletTransfers, .debtSettlements, .debtSettledItems, .debtGroupExpenses, .attachments:
            "a book the validation state and the read models share"
        case .commandEntries, .touches: "the validation state"
        }
    }

    /// One archived space of one store, read page by page (memory does not grow with the
    /// history), as the entries compared: a touch row as its touches (``TouchRow/expanded(_:)``),
    /// since how rows group them depends on when checkpoints fell.
    private struct HistoryStream {
        let store: LedgerStore
        let space: ArchiveSpace
        private var after: [UInt8]?
        private var buffered: [(key: [UInt8], value: [UInt8])] = []
        private var position = 0
        private var exhausted = false

        init(store: LedgerStore, space: ArchiveSpace) {
            self.store = store
            self.space = space
        }

        mutating func next() throws(StoreError) -> (key: [UInt8], value: [UInt8])? {
            while position == buffered.count {
                guard !exhausted else { return nil }
                let page = try store.historyRows(space: space.rawValue, after: after, limit: pageEntries)
                exhausted = page.count < pageEntries
                after = page.last?.key
                buffered = space == .touches ? page.flatMap(TouchRow.expanded) : page
                position = 0
            }
            defer { position += 1 }
            return buffered[position]
        }
    }

    private static let writtenMeanwhileMessage = "a writer wrote the checkpoint after the audit had read the journal; audit again when the ledger is idle to compare one"

    private static let replacedMessage = "a writer replaced the checkpoint before the audit had compared it; audit again when the ledger is idle to compare one"

    /// Entries of one archived space compared per page.
    private static let pageEntries = 1_024

    /// `candidate` against `folded`, the journal folded through the checkpoint's sequence
    /// number, whose history is in `scratch`'s as of it.
    /// Compared byte for byte: the checkpoint's sections with those the fold would write, then
    /// every archived space, page by page (memory does not grow with the history); a
    /// checkpoint a writer replaced meanwhile is not compared.
    static func compare(_ candidate: Candidate, with folded: FoldedState, scratch: LedgerStore) -> CheckpointStatus {
        let checkpoint = candidate.checkpoint
        let sequenceNumber = checkpoint.sequenceNumber
        let expected = folded.checkpoint(fingerprints: [:])
        var differing: String?
        if expected.sections[FoldedState.ledgerStateSection] != checkpoint.sections[FoldedState.ledgerStateSection] {
            differing = "the validation state differs"
        } else if expected.sections[FoldedState.readModelsSection] != checkpoint.sections[FoldedState.readModelsSection] {
            differing = "the read models differ (budget snapshots, balances or debts)"
        } else {
            do throws(StoreError) {
                // A book's table (the transactions, the transfers) is compared with the store's
                // other tables (ReadSideComparison); its history rows are only records kept for
                // a checkpoint.
                for space in ArchiveSpace.allCases where differing == nil && !space.isStoreTable {
                    var kept = HistoryStream(store: candidate.store, space: space)
                    var replayed = HistoryStream(store: scratch, space: space)
                    while true {
                        let left = try kept.next()
                        let right = try replayed.next()
                        guard left?.key == right?.key, left?.value == right?.value else {
                            differing = "the history entries of \(space) differ (\(Self.holder(of: space)))"
                            break
                        }
                        if left == nil { break }
                    }
                }
                // The records commits kept as of the checkpoint (of rows of the store's books
                // changed since), each against the fold's book at the checkpoint.
                for space in ArchiveSpace.allCases where differing == nil && space.isStoreTable {
                    var kept = HistoryStream(store: candidate.store, space: space)
                    while differing == nil, let entry = try kept.next() {
                        if try scratch.historyValue(space: space.rawValue, key: entry.key, asOf: sequenceNumber) != entry.value {
                            differing = "the records kept as of the checkpoint in \(space) differ (\(Self.holder(of: space)))"
                        }
                    }
                }
            } catch {
                return .unreadable("the checkpoint in \(LedgerDirectory.readSideStoreName): \(error)")
            }
        }
        // A writer writes a checkpoint's rows and its state in one transaction: the same state
        // now means the rows read are the checkpoint's.
        guard (try? Checkpoint.stored(in: candidate.store)) == checkpoint else { return .notCompared(replacedMessage) }
        if let differing { return .differs(sequenceNumber: sequenceNumber, reason: differing) }
        return .matchesReplay(sequenceNumber: sequenceNumber)
    }
}
