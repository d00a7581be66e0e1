import SystemPackage
import TallyJournal
import TallyModel
import TallyProjections
import TallyStore

extension FoldedState {
    static let ledgerStateSection = "ledgerState"
    static let readModelsSection = "readModels"
    /// The people who had a personal key when the checkpoint was written (P2), in checkpoints
    /// written before key fingerprints: a checkpoint holds their texts readable, so it is only
    /// used while their keys are still there. Read, no longer written.
    static let keyHoldersSection = "personalKeyHolders"
    /// Per key holder, a keyed fingerprint of their key (`PersonalKeyRing.fingerprints`): the
    /// holders, and which keys they held. A checkpoint is used only with the very keys it was
    /// written with, so a key file swapped in from another ledger (same people, other keys) is
    /// noticed at open, not after new texts were sealed with it.
    static let keyFingerprintsSection = "personalKeyFingerprints"

    /// The checkpoint of this state, which covers the journal through its last sequence number.
    func checkpoint(keys: PersonalKeyRing) -> Checkpoint {
        checkpoint(fingerprints: keys.fingerprints)
    }

    /// The checkpoint of this state listing `fingerprints` (`PersonalKeyRing.fingerprints`,
    /// taken when the state was): pure, so it can run off the ledger actor.
    /// - Parameter archived: what grows with history (the command history, the archived maps of
    ///   the state and of the read models) goes to the checkpoint archive (written apart,
    ///   before the file), not into the file.
    func checkpoint(fingerprints unsorted: [PersonID: [UInt8]], historyArchived archived: Bool = false) -> Checkpoint {
        let fingerprints = unsorted.sorted { $0.key < $1.key }
        var prints = BinaryWriter(reservingCapacity: 48 * fingerprints.count)
        for (person, fingerprint) in fingerprints {
            prints.write(person)
            prints.writeRawBytes(fingerprint)
        }
        var sections = [
            Self.ledgerStateSection: state.checkpointBytes(historyArchived: archived), Self.readModelsSection: readModels.encodedState(archived: archived),
            Self.keyFingerprintsSection: prints.bytes]
        if archived { sections[Checkpoint.archivedHistorySection] = [] }
        return Checkpoint(sequenceNumber: state.nextSequenceNumber - 1, chainValue: chainValue, sections: sections)
    }

    /// The key holders a checkpoint lists, with their key's fingerprint when it has one (nil in
    /// checkpoints written before fingerprints; empty for those written before sealing).
    static func keyHolders(of checkpoint: Checkpoint) throws(CheckpointDefect) -> [PersonID: [UInt8]?] {
        var holders: [PersonID: [UInt8]?] = [:]
        do {
            var old = BinaryReader(checkpoint.sections[keyHoldersSection] ?? [])
            while old.remainingCount > 0 { holders[try old.read() as PersonID] = .some(nil) }
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

    /// Restores the state a checkpoint holds; its command history from `archive` when the
    /// checkpoint keeps it there (the archive must list the checkpoint with its chain value).
    init(checkpoint: Checkpoint, archive: CheckpointArchive?) throws(CheckpointDefect) {
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
        if checkpoint.hasArchivedHistory {
            guard let archive, (try? archive.checkpoints())?[checkpoint.sequenceNumber] == checkpoint.chainValue.bytes else {
                throw .archiveLacks(sequenceNumber: checkpoint.sequenceNumber)
            }
            attach(ArchiveReader(archive: archive, asOf: checkpoint.sequenceNumber))
        }
    }

    /// What a checkpoint writes to the archive: every entry of the state and the read models
    /// changed since the last one.
    var archiveRows: some Sequence<ArchiveRow> { state.archiveRows }

    /// The rows of ``archiveRows`` that replace an older archived version.
    var rewrittenRows: some Sequence<ArchiveRow> { state.rewrittenRows }

    /// Reads what is not in memory from `reader`.
    mutating func attach(_ reader: ArchiveReader) { state.attach(reader) }

    /// After every changed entry was written to the archive `reader` reads (as of its sequence
    /// number): keeps in memory only what changes from now on.
    mutating func settle(reader: ArchiveReader) {
        let written = state
        state.settle(written: written, reader: reader)
    }

    /// A copy with everything in memory, which reads nothing from the archive.
    func detached() -> FoldedState { FoldedState(state: state.detached(), chainValue: chainValue) }

    /// Whether nothing is in the archive.
    var isResident: Bool { state.isResident }
}

extension CheckpointStore {
    /// The newest checkpoint that decodes, sits on a frame boundary of `reader`'s journal with
    /// the same chain value and whose key holders all still have a key or were forgotten (a
    /// full replay then notices texts that cannot be opened, P2), restored; plus why newer ones
    /// were passed over.
    ///
    /// A damaged checkpoint only costs time, but one that decodes and disagrees with the
    /// journal's chain value at its sequence number is evidence that the journal was rewritten
    /// (or replaced by another ledger's): that is refused, never replayed past.
    /// - Throws: ``LedgerError/storage(_:)`` with `corruption` of kind `chainMismatch`.
    func newestUsable(
        for reader: JournalReader, keys: PersonalKeyRing, archive: CheckpointArchive?
    ) throws(LedgerError) -> (FoldedState?, rejected: [String]) {
        var rejected: [String] = []
        let candidates = (try? names()) ?? []
        for name in candidates.reversed() {
            do throws(CheckpointDefect) {
                let checkpoint = try read(name)
                try checkpoint.check(against: reader)
                let holders = try FoldedState.keyHolders(of: checkpoint)
                let missing = holders.keys.filter { !keys.hasKey(for: $0) && !keys.forgotten.contains($0) }
                guard missing.isEmpty else { throw .personalKeysMissing(missing.map(\.description).sorted()) }
                let current = keys.fingerprints
                let other = holders.filter { person, recorded in
                    guard let recorded, let fingerprint = current[person] else { return false }
                    return fingerprint != recorded
                }
                guard other.isEmpty else { throw .personalKeysDiffer(other.keys.map(\.description).sorted()) }
                return (try FoldedState(checkpoint: checkpoint, archive: archive), rejected)
            } catch .chainMismatch(let sequenceNumber) {
                throw .storage(.corruption(JournalProblem(
                    kind: .chainMismatch, location: reader.location(of: sequenceNumber),
                    detail: "\(LedgerDirectory.checkpointsName)/\(name) records another chain value after sequence \(sequenceNumber) than the journal's frame ending there: the journal was rewritten or replaced. Restore it from a backup; `tally repair` sets the checkpoint aside explicitly")))
            } catch {
                rejected.append("\(name): \(error)")
            }
        }
        return (nil, rejected)
    }
}

extension Checkpoint {
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

/// Audit: the newest checkpoint against the audit's one fold of the journal alone, compared
/// when the fold reaches the checkpoint's sequence number.
enum CheckpointComparison {
    /// The newest checkpoint, read and checked against the journal before the fold.
    struct Candidate {
        let name: String
        let checkpoint: Checkpoint
        /// Its state as restored (reading the archive for what it keeps there).
        let restored: FoldedState
        /// The ledger's archive, when the checkpoint keeps its history there.
        let archive: CheckpointArchive?
    }

    /// What the audit knows of the newest checkpoint before it folds the journal.
    enum Found {
        /// A checkpoint to compare with the fold at its sequence number.
        case compare(Candidate)
        /// Nothing to compare: the status is known already.
        case settled(CheckpointStatus)
    }

    /// The checkpoint `name` in `store` (the newest when the audit began, read before the
    /// journal so that the journal holds what it covers), checked against `reader`'s journal and
    /// restored. A writer beside the audit removes a checkpoint, and prunes its archived
    /// versions, two checkpoints after it: one that fails while a newer one exists was replaced,
    /// and is not compared.
    static func candidate(_ name: String?, in store: CheckpointStore, reader: JournalReader) -> Found {
        guard let name else { return .settled(.none) }
        let archive = store.openArchive(creating: false)
        do throws(CheckpointDefect) {
            let checkpoint = try store.read(name)
            try checkpoint.check(against: reader)
            let restored = try FoldedState(checkpoint: checkpoint, archive: archive)
            if !checkpoint.hasArchivedHistory { archive?.close() }
            return .compare(Candidate(name: name, checkpoint: checkpoint, restored: restored, archive: checkpoint.hasArchivedHistory ? archive : nil))
        } catch {
            archive?.close()
            if let newest = (try? store.names())?.last, newest != name { return .settled(.notCompared(replacedMessage)) }
            if case .archiveLacks = error {
                return .settled(.unreadable("\(name): \(LedgerDirectory.checkpointArchiveName) does not hold this checkpoint's entries; the ledger opens by full replay"))
            }
            return .settled(.unreadable("\(name): \(error)"))
        }
    }

    /// Which part of the fold an archived space belongs to, for a report.
    private static func holder(of space: ArchiveSpace) -> String {
        switch space {
        case .transactions, .categoryMembers, .walletTransfers, .debtSettlements, .debtSettledItems, .debtGroupExpenses:
            "a book the validation state and the read models share"
        case .commandEntries, .touches: "the validation state"
        case .budgetDatedTransactions: "the read models"
        }
    }

    private static let replacedMessage = "a writer replaced the checkpoint before the audit had compared it; audit again when the ledger is idle to compare one"

    /// Entries of one archived space compared per page.
    private static let pageEntries = 1_024

    /// `candidate` against `folded`, the journal folded through the checkpoint's sequence
    /// number, whose history (when the fold keeps it in a scratch archive) is in `history` as
    /// of it. A checkpoint that keeps its history in the ledger's archive is compared byte for
    /// byte: its file's sections with those the fold would write, then every archived space,
    /// page by page (memory does not grow with the history); any other is compared restored.
    static func compare(_ candidate: Candidate, with folded: FoldedState, history: CheckpointArchive?) -> CheckpointStatus {
        let checkpoint = candidate.checkpoint
        let sequenceNumber = checkpoint.sequenceNumber
        guard let archive = candidate.archive, let history else {
            if candidate.restored.readModels != folded.readModels {
                return .differs(sequenceNumber: sequenceNumber, reason: "the read models differ (budget snapshots, balances or debts)")
            }
            if candidate.restored.state != folded.state { return .differs(sequenceNumber: sequenceNumber, reason: "the validation state differs") }
            if let failed = candidate.restored.state.archiveReader?.failure {
                return .unreadable("\(candidate.name): \(LedgerDirectory.checkpointArchiveName): \(failed)")
            }
            return .matchesReplay(sequenceNumber: sequenceNumber)
        }
        let expected = folded.checkpoint(fingerprints: [:], historyArchived: true)
        var differing: String?
        if expected.sections[FoldedState.ledgerStateSection] != checkpoint.sections[FoldedState.ledgerStateSection] {
            differing = "the validation state differs"
        } else if expected.sections[FoldedState.readModelsSection] != checkpoint.sections[FoldedState.readModelsSection] {
            differing = "the read models differ (budget snapshots, balances or debts)"
        } else {
            do throws(StoreError) {
                for space in ArchiveSpace.allCases where differing == nil {
                    var after: [UInt8]?
                    while true {
                        let kept = try archive.entries(space: space.rawValue, after: after, limit: pageEntries, asOf: sequenceNumber)
                        let replayed = try history.entries(space: space.rawValue, after: after, limit: pageEntries, asOf: sequenceNumber)
                        guard kept.elementsEqual(replayed, by: { $0.key == $1.key && $0.value == $1.value }) else {
                            differing = "the archived entries of \(space) differ (\(Self.holder(of: space)))"
                            break
                        }
                        guard kept.count == pageEntries, let next = kept.last?.key else { break }
                        after = next
                    }
                }
            } catch {
                return .unreadable("\(candidate.name): \(LedgerDirectory.checkpointArchiveName): \(error)")
            }
        }
        // Read whole only if still listed: a writer prunes a checkpoint's versions when it is
        // no longer kept, and drops its listing in the same transaction.
        guard (try? archive.checkpoints())?[sequenceNumber] == checkpoint.chainValue.bytes else { return .notCompared(replacedMessage) }
        if let differing { return .differs(sequenceNumber: sequenceNumber, reason: differing) }
        return .matchesReplay(sequenceNumber: sequenceNumber)
    }
}
