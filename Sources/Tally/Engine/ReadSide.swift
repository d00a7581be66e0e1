import Crypto
import Foundation
import SystemPackage
import Synchronization
import TallyJournal
import TallyModel
import TallyProjections
import TallyStore

extension StoreSnapshot {
    /// What the store is written from: the state's read models and display names (looked up by
    /// id: a commit reads only the names it writes).
    init(_ state: LedgerState) {
        let people = state.people
        let categories = state.categories
        self.init(
            readModels: state.readModels, personName: { people[$0]?.name.description }, categoryName: { categories[$0]?.name },
            personIDs: { Array(people.keys) }, categoryIDs: { Array(categories.keys) })
    }
}

/// The engine's link to its read-side store (`TallyStore`): opens it, checks it against the
/// journal, catches it up or rebuilds it, and commits every batch to it after the journal made
/// the batch durable.
///
/// The store only ever costs time: when it is missing, of another ledger (chain value), ahead of
/// the journal, damaged or of an unknown schema, it is rebuilt into a new file that replaces it
/// (`LedgerStore.rebuild`: the old file is never written); when a commit to it fails it is
/// marked stale and rebuilt by the next commit. It is never read while stale, and never claims
/// more than the journal made durable (commits follow the append). A failure that may pass (too
/// many open files, a full disk) changes no file: the ledger then runs without its store.
final class ReadSide: Sendable {
    /// Why the store was rebuilt at open, or why there is none (``LedgerOpenReport/readSide``).
    enum Status: Sendable, Equatable, CustomStringConvertible {
        case current
        case caughtUp(events: UInt64)
        case rebuilt(reason: String)
        case unavailable(reason: String)

        var description: String {
            switch self {
            case .current: "current"
            case .caughtUp(let events): "caught up by \(events) event(s)"
            case .rebuilt(let reason): "rebuilt: \(reason)"
            case .unavailable(let reason): "unavailable: \(reason)"
            }
        }
    }

    let status: Status
    /// The open store; replaced by a rebuild.
    private let current: Mutex<LedgerStore?>
    /// Where the engine's states read the history the checkpoint keeps in the store: the
    /// current store, followed through rebuilds.
    let history: StoreHistory
    let path: FilePath
    /// The ledger's encryption, whose current key derives the store's page key.
    private let encryption: JournalEncryption?
    var key: SymmetricKey { Self.pageKey(encryption) }
    private let stale = Mutex(false)
    /// Held by readers off the engine's actor (``withStore(_:)``) while they read, and by
    /// whatever closes or replaces the store, so no such reader meets a closed store.
    private let inUse = Mutex(())
    /// The sequence number the store's rows show (when not stale).
    private let stored: Mutex<UInt64>
    /// How many times the store file was replaced since open (a rebuild).
    private let generation = Mutex<UInt64>(0)

    /// Which store file is current: it changes when a rebuild replaces it.
    var storeGeneration: UInt64 { generation.withLock { $0 } }

    private init(
        store: LedgerStore?, history: StoreHistory, path: FilePath, encryption: JournalEncryption?, status: Status, storedSequenceNumber: UInt64 = 0
    ) {
        self.current = Mutex(store)
        self.history = history
        history.use(store)
        self.path = path
        self.encryption = encryption
        self.status = status
        self.stored = Mutex(storedSequenceNumber)
    }

    /// The store's database path for a ledger directory.
    static func storePath(in directory: FilePath) -> FilePath {
        LedgerDirectory(directory).readSideStore
    }

    /// The store a writer's open found, before the journal is folded: the checkpoint is read
    /// from it, then ``open(_:history:folded:reader:keys:forgotten:)`` brings it to the journal's end.
    struct Opening {
        let path: FilePath
        let encryption: JournalEncryption?
        /// The store, open; nil when there is none to use.
        var store: LedgerStore?
        /// Why there is no store to use: it is rebuilt for a damaged file, left out otherwise.
        var problem: (reason: String, rebuilds: Bool)?
    }

    /// Opens the store of `directory` as it is (the writer's open, under the folder's lock).
    /// Never throws: a store that cannot be opened is to be rebuilt (damaged, foreign, of
    /// another schema) or left out (turned off, an injected file system, a failure that may
    /// pass: nothing is changed then).
    static func prepare(directory: FilePath, options: LedgerOptions) -> Opening {
        let path = storePath(in: directory)
        var opening = Opening(path: path, encryption: options.encryption)
        guard options.keepsReadSide else {
            opening.problem = ("turned off", false)
            return opening
        }
        // SQLite does its own file I/O: it cannot run on an injected (simulated) file system.
        guard options.fileSystem.isOperatingSystemFileSystem else {
            opening.problem = ("the ledger runs on an injected file system", false)
            return opening
        }
        let folder = LedgerDirectory(directory).readSide
        do {
            try LedgerDirectory.makeDerivedFolder(folder, fileSystem: options.fileSystem)
            // SQLite would block opening a FIFO and follow a symlink: anything but a regular
            // file (or nothing) at the store's paths goes first (it is only a cache).
            for file in storeFiles(path) { try LedgerDirectory.clearDerivedFile(file, fileSystem: options.fileSystem) }
            // What a rebuild that did not finish left (killed, or a crash): the scratch store
            // (and, from versions before the checkpoint was the store's, its scratch archive
            // `.rebuild-history`) may hold texts of people forgotten since (P3). Under the lock.
            let scratch = LedgerStore.scratchPath(for: path.string)
            for file in (LedgerStore.files(at: scratch) + LedgerStore.files(at: scratch + "-history")).map({ FilePath($0) }) {
                try LedgerDirectory.clearDerivedFile(file, fileSystem: options.fileSystem)
                if options.fileSystem.fileExists(at: file) { try options.fileSystem.removeFile(at: file) }
            }
            if !options.fileSystem.fileExists(at: path) { _ = try options.fileSystem.createFile(at: path) }
        } catch {
            opening.problem = ("\(folder): \(error)", false)
            return opening
        }
        do throws(StoreError) {
            opening.store = try LedgerStore(path: path.string, key: pageKey(options.encryption))
        } catch {
            opening.problem = ("\(error)", error.isDamage)
        }
        return opening
    }

    /// The store of the ledger in `directory` when its files are there and it opens, for
    /// readers that take no lock (evidence, the audit's checkpoint); nil otherwise.
    static func existingStore(in directory: FilePath, encryption: JournalEncryption?, fileSystem: any FileSystem) -> LedgerStore? {
        guard fileSystem.isOperatingSystemFileSystem else { return nil }
        let path = storePath(in: directory)
        guard fileSystem.fileExists(at: path), storeFiles(path).allSatisfy(LedgerDirectory.isRegularFileOrAbsent) else { return nil }
        return try? LedgerStore(path: path.string, key: pageKey(encryption))
    }

    /// Brings the store `opening` found to the journal's end (`reader`), from the state folded
    /// at open: caught up, or rebuilt into a new file when it is missing, of another ledger
    /// (chain value), ahead of the journal, damaged or of an unknown schema. Never throws: a
    /// store that cannot be rebuilt, or cannot be opened for a reason that may pass, is left
    /// out (the engine works without it) and left as it is.
    /// - Parameters:
    ///   - history: what `folded` reads its history from; a rebuild copies the checkpoint into
    ///     the new file when `folded` reads from it.
    ///   - forgotten: people whose forgetting the open finished (P3): a store that already
    ///     covers their `PersonForgotten` may still hold their texts, so they are rewritten.
    static func open(
        _ opening: Opening, history: StoreHistory, folded: FoldedState, reader: JournalReader, keys: PersonalKeyRing,
        forgotten: [PersonID] = []
    ) -> ReadSide {
        let path = opening.path
        let encryption = opening.encryption
        let snapshot = StoreSnapshot(folded.state)
        let coverage = StoreCoverage(sequenceNumber: reader.lastSequenceNumber, chainValue: folded.chainValue.bytes)
        let copiesCheckpoint = !folded.isResident
        func rebuilt(_ reason: String) -> ReadSide {
            Self.rebuilt(
                path: path, encryption: encryption, replacing: opening.store, history: history, snapshot: snapshot, coverage: coverage,
                copiesCheckpoint: copiesCheckpoint, reason: reason)
        }
        guard let store = opening.store else {
            let (reason, rebuilds) = opening.problem ?? ("no store", false)
            if rebuilds { return rebuilt(reason) }
            return ReadSide(store: nil, history: history, path: path, encryption: encryption, status: .unavailable(reason: reason))
        }
        let reason: String
        do throws(StoreError) {
            if let found = try store.coverage() {
                if found == coverage {
                    if !forgotten.isEmpty {
                        var changes = StoreChanges()
                        changes.forget(forgotten)
                        try store.commit(changes, from: snapshot, coverage: coverage)
                    }
                    return ReadSide(store: store, history: history, path: path, encryption: encryption, status: .current, storedSequenceNumber: coverage.sequenceNumber)
                }
                if found.sequenceNumber > coverage.sequenceNumber {
                    reason = "it covers sequence \(found.sequenceNumber), beyond the journal's last \(coverage.sequenceNumber)"
                } else if var changes = tailChanges(after: found, reader: reader, keys: keys) {
                    changes.forget(forgotten)
                    try store.commit(changes, from: snapshot, coverage: coverage)
                    return ReadSide(
                        store: store, history: history, path: path, encryption: encryption,
                        status: .caughtUp(events: coverage.sequenceNumber - found.sequenceNumber), storedSequenceNumber: coverage.sequenceNumber)
                } else {
                    reason = "its chain value at sequence \(found.sequenceNumber) is not the journal's (another ledger, or a rewritten journal)"
                }
            } else {
                reason = "it was empty or missing"
            }
        } catch where !error.isDamage {
            // May pass: no file is changed, unless this open finished a forgetting (P3): the
            // store may still hold the person's texts and no later open would know to rewrite
            // them, so it goes (it is only a cache). The state then cannot read its history.
            store.close()
            if !forgotten.isEmpty { LedgerStore.remove(at: path.string) }
            return ReadSide(store: nil, history: history, path: path, encryption: encryption, status: .unavailable(reason: "\(error)"))
        } catch {
            return rebuilt("\(error)")
        }
        return rebuilt(reason)
    }

    /// A read side whose store was rebuilt into a new file for `reason`; with
    /// `copiesCheckpoint`, the checkpoint of the store it replaces (which the folded state
    /// reads its history from) is copied into it.
    private static func rebuilt(
        path: FilePath, encryption: JournalEncryption?, replacing old: LedgerStore?, history: StoreHistory, snapshot: StoreSnapshot,
        coverage: StoreCoverage, copiesCheckpoint: Bool, reason: String
    ) -> ReadSide {
        do throws(StoreError) {
            let store = try LedgerStore.rebuild(at: path.string, key: pageKey(encryption)) { built throws(StoreError) in
                try built.replaceAll(from: snapshot, coverage: coverage)
                if let failed = history.failure { throw failed }  // rows over a history read that failed
                if copiesCheckpoint { try history.copyCheckpoint(into: built) }
            } beforeSwap: {
                history.use(nil)
                old?.close()
            }
            return ReadSide(store: store, history: history, path: path, encryption: encryption, status: .rebuilt(reason: reason), storedSequenceNumber: coverage.sequenceNumber)
        } catch {
            history.use(nil)
            old?.close()
            return ReadSide(store: nil, history: history, path: path, encryption: encryption, status: .unavailable(reason: "\(reason); the rebuild failed: \(error)"))
        }
    }

    /// The database file and the files SQLite keeps beside it.
    static func storeFiles(_ path: FilePath) -> [FilePath] {
        LedgerStore.files(at: path.string).map { FilePath($0) }
    }

    /// The store's page key: derived from the ledger's current key when the journal is
    /// encrypted (a rotated key makes the old store unreadable: it is rebuilt), else the public
    /// integrity key.
    static func pageKey(_ encryption: JournalEncryption?) -> SymmetricKey {
        guard let encryption, let key = encryption.keys[encryption.currentKeyID] else { return LedgerStore.integrityKey }
        return LedgerStore.pageKey(derivedFrom: key)
    }

    /// The changes of the journal's events after `coverage`, when the journal holds a frame
    /// ending exactly there with the same chain value; `nil` when it does not (rebuild).
    private static func tailChanges(after coverage: StoreCoverage, reader: JournalReader, keys: PersonalKeyRing) -> StoreChanges? {
        guard coverage.sequenceNumber > 0, journalPosition(reader, endingAt: coverage.sequenceNumber) == coverage else { return nil }
        var changes = StoreChanges()
        do throws(LedgerError) {
            try Ledger.forEachEvent(
                in: reader, from: coverage.sequenceNumber + 1, through: reader.lastSequenceNumber, personalTexts: keys
            ) { committed in
                changes.add(committed.event, sequenceNumber: committed.sequenceNumber)
                if case .personForgotten(let forgotten) = committed.event.payload { changes.forget([forgotten.personID]) }  // P3: truncate the WAL too
            }
        } catch {
            return nil
        }
        return changes
    }

    /// The journal's position after the frame that ends exactly at `sequenceNumber` (its chain
    /// value), the genesis value for 0; `nil` when no frame ends there or it cannot be read.
    static func journalPosition(_ reader: JournalReader, endingAt sequenceNumber: UInt64) -> StoreCoverage? {
        guard sequenceNumber > 0 else { return StoreCoverage(sequenceNumber: 0, chainValue: ChainValue.genesis.bytes) }
        var chain: [UInt8]?
        try? reader.forEachFrame(from: sequenceNumber) { frame in
            if frame.lastSequenceNumber == sequenceNumber { chain = frame.chainValue.bytes }
            return false
        }
        return chain.map { StoreCoverage(sequenceNumber: sequenceNumber, chainValue: $0) }
    }

    /// Commits durable batches: the rows their events changed, from the read models after them.
    /// A failure marks the store stale; the next commit then rebuilds it.
    /// - Parameter copiesCheckpoint: the engine's states read their history from the store, so
    ///   a rebuild copies the checkpoint into the new file.
    /// - Returns: the tables the commit modified; nil when it rebuilt everything (or failed).
    func commit(
        _ changes: StoreChanges, snapshot: @autoclosure () -> StoreSnapshot, coverage: StoreCoverage, copiesCheckpoint: Bool
    ) -> Set<String>? {
        guard let store = current.withLock({ $0 }) else { return nil }
        if stale.withLock({ $0 }) {
            guard history.failure == nil else { return nil }  // the snapshot may lack what a read missed
            _ = try? rebuild(from: snapshot(), coverage: coverage, copiesCheckpoint: copiesCheckpoint)
            return nil
        }
        return committing(coverage) { () throws(StoreError) in
            // P3: a forgetting truncates the WAL, which a reader's snapshot would hold up: the
            // observations off the actor wait for this commit instead.
            changes.forgetsPeople
                ? try inUse.withLock { _ throws(StoreError) in try store.commit(changes, from: snapshot(), coverage: coverage) }
                : try store.commit(changes, from: snapshot(), coverage: coverage)
        }
    }

    /// Commits durable batches from the rows gathered for them, on the store writer's queue
    /// (``StoreWriteQueue``): a stale store is left stale (the engine rebuilds it from a
    /// snapshot at its next commit), a failure marks it stale.
    /// - Returns: the tables the commit modified; nil when it wrote nothing.
    func commit(_ changes: StoreChanges, rows: StoreRows, coverage: StoreCoverage) -> Set<String>? {
        guard let store = current.withLock({ $0 }), !isStale else { return nil }
        return committing(coverage) { () throws(StoreError) in try store.commit(changes, rows: rows, coverage: coverage) }
    }

    /// Runs a commit that brings the store to `coverage`: afterwards the store shows it, or,
    /// when the commit failed, the store is stale (rebuilt at the engine's next commit).
    private func committing(_ coverage: StoreCoverage, _ write: () throws(StoreError) -> Set<String>) -> Set<String>? {
        do throws(StoreError) {
            let modified = try write()
            stored.withLock { $0 = coverage.sequenceNumber }
            return modified
        } catch {
            stale.withLock { $0 = true }
            return nil
        }
    }

    /// What a synced device shows on top of the rows (``LedgerStore/show(_:)``), kept here too
    /// so that a store rebuilt into a new file shows it as well.
    private let overlay = Mutex<StoreOverlay?>(nil)

    /// Shows `overlay` (a synced device's pending rows, Docs/Sync.md "Pending on top") on every
    /// read of the store, this one and any that replaces it.
    func show(_ overlay: StoreOverlay) {
        self.overlay.withLock { $0 = overlay }
        current.withLock { $0 }?.show(overlay)
    }

    /// Whether a commit failed (or a rebuild did not finish) since the store was last whole.
    var isStale: Bool { stale.withLock { $0 } }

    /// Whether the ledger keeps a store (not turned off, not unavailable, not closed).
    var hasStore: Bool { current.withLock { $0 } != nil }

    /// Rebuilds the store from `snapshot` into a new file that replaces the old one (never
    /// written: a damaged page in it does not matter), clearing a stale mark; with
    /// `copiesCheckpoint`, the old file's checkpoint is copied into it (a copy that fails leaves
    /// the engine's states unable to read their history: ``StoreHistory/failure``).
    private func rebuild(from snapshot: StoreSnapshot, coverage: StoreCoverage, copiesCheckpoint: Bool) throws(LedgerError) -> [String: Int] {
        try rebuild { store throws(LedgerError) in
            do throws(StoreError) {
                try store.replaceAll(from: snapshot, coverage: coverage)
                if copiesCheckpoint {
                    do throws(StoreError) {
                        try history.copyCheckpoint(into: store)
                    } catch {
                        history.fail(error)
                    }
                }
            } catch {
                throw .readSide(error.description)
            }
            return coverage
        }
    }

    /// Rebuilds the store into a new file that `fill` writes (it returns the coverage it
    /// wrote) and that replaces the old one, clearing a stale mark. The old store is served
    /// (and left as it was when `fill` fails) until the new file is complete; it is closed and
    /// marked stale just before the swap, and stays stale if the swap fails (the next commit
    /// rebuilds it).
    func rebuild(filling fill: (LedgerStore) throws(LedgerError) -> StoreCoverage) throws(LedgerError) -> [String: Int] {
        guard let old = current.withLock({ $0 }) else { throw .readSide("this ledger keeps no read-side store (\(status))") }
        var fillFailure: LedgerError?
        var coverage: StoreCoverage?
        do throws(StoreError) {
            let store = try LedgerStore.rebuild(
                at: path.string, key: key,
                filling: { built throws(StoreError) in
                    do throws(LedgerError) {
                        coverage = try fill(built)
                    } catch {
                        fillFailure = error
                        throw .database(path: built.path, message: "the rebuild stopped: \(error.message)")
                    }
                },
                beforeSwap: {
                    stale.withLock { $0 = true }
                    inUse.withLock { _ in
                        history.use(nil)
                        old.close()
                    }
                })
            if let overlay = overlay.withLock({ $0 }) { store.show(overlay) }
            current.withLock { $0 = store }
            generation.withLock { $0 += 1 }
            history.use(store)
            stale.withLock { $0 = false }
            stored.withLock { $0 = coverage?.sequenceNumber ?? 0 }
            return try store.rowCounts()
        } catch {
            throw fillFailure ?? .readSide(error.description)
        }
    }

    /// The store when its rows show exactly `sequenceNumber` (no commit failed or pending since).
    func store(showing sequenceNumber: UInt64) -> LedgerStore? {
        guard let store = current.withLock({ $0 }), !stale.withLock({ $0 }), stored.withLock({ $0 }) == sequenceNumber else { return nil }
        return store
    }

    /// Runs `body` with the store as it is now (its last commit, whichever that is), unless it is
    /// stale or closed: for readers off the engine's actor, which a close or a rebuild waits for.
    func withStore(_ body: (LedgerStore) -> Void) {
        inUse.withLock { _ in
            guard !stale.withLock({ $0 }), let store = current.withLock({ $0 }) else { return }
            body(store)
        }
    }

    /// Writes a checkpoint (``LedgerStore/writeCheckpoint(_:version:replacingAll:state:)``) into the
    /// store when it shows exactly `version`: the transaction book is its `transactions` table,
    /// which the checkpoint's state reads as of it.
    /// - Returns: the ``storeGeneration`` it was written to; nil when it was not (no store, a
    ///   stale one, or one at another sequence number).
    /// Runs on the store writer's queue, as its commits do (no reader's lock: an observer slow
    /// to compute never holds the writer up; a close or rebuild waits for the queue first).
    func writeCheckpoint(_ rows: some Sequence<ArchiveRow>, version: UInt64, replacingAll: Bool, state: [UInt8]) throws(StoreError) -> UInt64? {
        guard let store = store(showing: version) else { return nil }
        try store.writeCheckpoint(rows, version: version, replacingAll: replacingAll, state: state)
        return storeGeneration
    }

    /// Removes the store's checkpoint and history (``LedgerStore/removeCheckpoint()``), P3.
    func removeCheckpoint() throws(StoreError) {
        try inUse.withLock { _ throws(StoreError) in try current.withLock({ $0 })?.removeCheckpoint() }
    }

    /// After a history read failed: removes the checkpoint, so that no open reads that history
    /// again; when even that fails (a damaged page), the store's files go (it is only a cache:
    /// the next open rebuilds it and replays the journal) and nothing is written to it again.
    func abandonCheckpoint() {
        do throws(StoreError) {
            try removeCheckpoint()
        } catch {
            stale.withLock { $0 = true }
            inUse.withLock { _ in
                history.use(nil)
                current.withLock { $0 }?.close()
                LedgerStore.remove(at: path.string)
            }
        }
    }

    /// The store's checkpoint, decoded; nil when it has none or there is no store.
    func storedCheckpoint() -> Checkpoint? {
        inUse.withLock { _ in current.withLock({ $0 }).flatMap { try? Checkpoint.stored(in: $0) } }
    }

    /// Closes the store (the ledger closed), its WAL copied in and emptied; nothing is written
    /// to it afterwards.
    func close() {
        stale.withLock { $0 = true }
        inUse.withLock { _ in
            history.use(nil)
            current.withLock { $0 }?.close(checkpointing: true)
        }
    }
}

extension Ledger {
    /// The read-side store of the ledger in `directory` when it shows exactly the journal's
    /// end (sequence number and chain value), for readers that need no writer lock (`tally
    /// balances`); `nil` when there is none, it is behind, ahead or of another chain, or it
    /// cannot be read (damaged, another key). The journal is opened as a replay opens it
    /// (`LedgerReplay.openForReading`: damage and evidence refused), so a store is never served
    /// over a journal a replay would refuse.
    /// What an interrupted restore or reset left at `directory` is settled first
    /// (``recoverInterruptedSwap(at:fileSystem:)``), as every opener does.
    /// - Throws: ``LedgerError/storage(_:)`` for a journal a replay refuses; what settling a
    ///   swap throws.
    public static func currentStore(
        at directory: FilePath, encryption: JournalEncryption? = nil, fileSystem: any FileSystem = PosixFileSystem()
    ) throws(LedgerError) -> LedgerStore? {
        guard let view = try coveredStore(at: directory, encryption: encryption, fileSystem: fileSystem) else { return nil }
        guard view.isCurrent else {
            view.store.close()
            return nil
        }
        return view.store
    }

    /// The read-side store of the ledger in `directory` as far as it covers the journal, for
    /// readers that never take the writer lock (issue 29): a writer running beside them commits
    /// the store a moment after the journal, and a writer that crashed left it behind until the
    /// next open catches it up. Served only when what it covers is the journal's own prefix
    /// (its sequence number and chain value are the journal's at that point), never when it is
    /// ahead, of another chain, damaged or sealed with another key (`nil`). The journal is
    /// opened as a replay opens it, so a store is never served over a journal a replay refuses.
    /// What an interrupted restore or reset left at `directory` is settled first
    /// (``recoverInterruptedSwap(at:fileSystem:)``), as every opener does.
    /// - Throws: ``LedgerError/storage(_:)`` for a journal a replay refuses; what settling a
    ///   swap throws.
    public static func coveredStore(
        at directory: FilePath, encryption: JournalEncryption? = nil, fileSystem: any FileSystem = PosixFileSystem()
    ) throws(LedgerError) -> CoveredStore? {
        _ = try LedgerSwap.recover(LedgerDirectory(directory), fileSystem: fileSystem)
        let path = ReadSide.storePath(in: directory)
        guard fileSystem.fileExists(at: path), ReadSide.storeFiles(path).allSatisfy(LedgerDirectory.isRegularFileOrAbsent) else { return nil }
        // The store's coverage first, the journal's end after: a writer makes a batch durable in
        // the journal before it commits it to the store, so the journal opened now reaches
        // whatever the store covered a moment ago (the other order finds a store "ahead").
        guard let store = try? LedgerStore(path: path.string, key: ReadSide.pageKey(encryption)) else {
            _ = try LedgerReplay.openForReading(at: directory, encryption: encryption, fileSystem: fileSystem, allowingDamage: false)
            return nil  // the journal opens (a missing key would have been the error): the store is damaged or foreign
        }
        let coverage = try? store.coverage()
        let reader: JournalReader
        do throws(LedgerError) {
            (_, reader) = try LedgerReplay.openForReading(at: directory, encryption: encryption, fileSystem: fileSystem, allowingDamage: false)
        } catch {
            store.close()
            throw error
        }
        guard let coverage, coverage.sequenceNumber <= reader.lastSequenceNumber,
              ReadSide.journalPosition(reader, endingAt: coverage.sequenceNumber) == coverage
        else {
            store.close()
            return nil
        }
        return CoveredStore(store: store, sequenceNumber: coverage.sequenceNumber, journalEnd: reader.lastSequenceNumber)
    }
}

/// A read-side store opened without the writer lock (``Ledger/coveredStore(at:encryption:fileSystem:)``)
/// and how far it covers the journal.
public struct CoveredStore: Sendable {
    /// The store; close it when done.
    public let store: LedgerStore
    /// The last journal sequence number its tables show (as of the open: a writer beside the
    /// reader moves it on; `LedgerStore.coverage()` says where it is now).
    public let sequenceNumber: UInt64
    /// The journal's last sequence number when the store was opened.
    public let journalEnd: UInt64
    /// Whether it showed the journal's end.
    public var isCurrent: Bool { sequenceNumber == journalEnd }
}
