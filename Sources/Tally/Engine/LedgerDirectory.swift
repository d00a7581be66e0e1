import Foundation
import SystemPackage
import TallyJournal
import TallyStore

/// The layout of a ledger folder: the one place that names every file and folder the engine
/// keeps in it (Docs/Engine.md, "Ledger folder"). Whatever creates, lists or reads them asks
/// this type for the path.
///
/// ```
/// <ledger>/
///   journal/                      the journal (TallyJournal names what is inside:
///                                 <first sequence, 20 digits>.segment, .segment.tmp,
///                                 torn/ with cut tails); locked by flock on the folder itself
///   personal-keys                 the per-person key store (personal-keys.tmp while written)
///   read-side/read-side.sqlite    the read-side store with the checkpoint (-wal, -shm beside it)
///   sync-outbox.sqlite            a synced device's outbox: commands not yet confirmed by the
///                                 server, rejections not yet dismissed (-wal, -shm beside it)
///   repair/<n>/journal/           what `LedgerRepair.apply` set aside, n = 1, 2, ...
///   repair/<n>/read-side/
/// .<ledger name>.restoring/       beside the ledger: a restore or reset in progress (`Ledger.restore`,
///                                 `LedgerReset`), locked by flock on the folder while it runs
/// .<ledger name>.swap             beside the ledger: the intent record of a swap in progress
///                                 (.swap.tmp while written); see `Ledger.recoverInterruptedSwap`
/// <ledger name>.replaced-<n>/      beside the ledger: a ledger a restore or reset replaced, kept
/// ```
///
/// A value names paths only; it touches no file.
public struct LedgerDirectory: Sendable, Hashable, CustomStringConvertible {
    /// The ledger folder itself.
    public let path: FilePath

    /// The layout of the ledger folder at `path`.
    public init(_ path: FilePath) { self.path = path }

    /// The journal's folder name.
    public static let journalName = "journal"
    /// The folder checkpoint files and their archive were kept in before the checkpoint
    /// became the store's: a writer's open removes it (``removeLegacyCheckpoints(_:fileSystem:)``).
    static let legacyCheckpointsName = "checkpoints"
    /// The per-person key store's file name.
    public static let personalKeysName = "personal-keys"
    /// The read-side store's folder name.
    public static let readSideName = "read-side"
    /// The read-side store's database file name, inside ``readSideName``; SQLite keeps `-wal`
    /// and `-shm` beside it.
    public static let readSideStoreName = "read-side.sqlite"
    /// A synced device's outbox (Docs/Sync.md, "The outbox"); its presence marks the ledger as synced.
    public static let syncOutboxName = "sync-outbox.sqlite"
    /// The folder `LedgerRepair.apply` sets damaged files aside in, one numbered folder per repair.
    public static let repairName = "repair"
    /// The suffix `FileSystem.replaceAtomically` gives a file it writes before the rename
    /// (`personal-keys.tmp`).
    public static let temporarySuffix = AtomicReplacement.temporarySuffix
    /// The suffix of the folder a restore builds beside its target.
    public static let restoringSuffix = ".restoring"

    /// `<ledger>/journal`.
    public var journal: FilePath { path.appending(Self.journalName) }
    /// `<ledger>/personal-keys`.
    public var personalKeys: FilePath { path.appending(Self.personalKeysName) }
    /// `<ledger>/read-side`.
    public var readSide: FilePath { path.appending(Self.readSideName) }
    /// `<ledger>/read-side/read-side.sqlite`.
    public var readSideStore: FilePath { readSide.appending(Self.readSideStoreName) }
    /// `<ledger>/sync-outbox.sqlite`.
    public var syncOutbox: FilePath { path.appending(Self.syncOutboxName) }
    /// `<ledger>/repair`.
    public var repair: FilePath { path.appending(Self.repairName) }

    /// The highest sequence number a checkpoint file an older version left in `checkpoints/`
    /// announces (`<20 digits>.checkpoint`): evidence of what the journal held, until the
    /// writer's open removes the folder.
    func legacyCheckpointSequenceNumber(fileSystem: any FileSystem) -> UInt64? {
        let folder = path.appending(Self.legacyCheckpointsName)
        guard fileSystem.fileExists(at: folder), let names = try? fileSystem.contentsOfDirectory(at: folder) else { return nil }
        let suffix = ".checkpoint"
        return names.compactMap { $0.hasSuffix(suffix) ? UInt64($0.dropLast(suffix.count)) : nil }.max()
    }

    /// Removes `<ledger>/checkpoints/` and what is in it, left by a version that kept checkpoints
    /// in files (they hold personal texts readable, P3, and nothing reads them any more).
    /// The writer's call, under the folder's lock.
    /// - Throws: ``LedgerError/storage(_:)`` when a file there cannot be removed.
    static func removeLegacyCheckpoints(_ layout: LedgerDirectory, fileSystem: any FileSystem) throws(LedgerError) {
        let folder = layout.path.appending(legacyCheckpointsName)
        guard fileSystem.fileExists(at: folder) else { return }
        do {
            try fileSystem.removeTree(at: folder)
            try fileSystem.synchronizeDirectory(at: layout.path)
        } catch {
            throw .storage(JournalError(error, operation: "remove the checkpoints of an older version", path: folder))
        }
    }

    /// Moves what stands at `path` aside, renamed `<name>.set-aside-<n>` (the first free
    /// number): a derived file or folder of the wrong kind (a file where the
    /// read side's folder belongs, a folder where a database file does) is then made anew from
    /// the journal, and what stood there is kept, never deleted. The writer does it, under its
    /// lock; readers ignore such a path.
    /// - Returns: where it went.
    /// - Throws: `EEXIST` when the first 1,000 numbers are taken.
    @discardableResult
    static func setAside(_ path: FilePath, fileSystem: any FileSystem) throws(Errno) -> FilePath {
        for number in 1...1_000 {
            let destination = FilePath(path.string + ".set-aside-\(number)")
            guard Self.kind(at: destination) == .absent else { continue }
            try fileSystem.rename(from: path, to: destination)
            return destination
        }
        throw .fileExists
    }

    /// What stands at a path, a symbolic link not followed.
    enum EntryKind: Equatable {
        case absent, regularFile, directory, symbolicLink
        /// Anything else: a FIFO, a socket, a device.
        case other
        /// `lstat` failed for another reason than the path missing (no permission, an I/O error).
        case unknown
    }

    /// What stands at `path` (`lstat`: a symbolic link, dangling or not, is one).
    static func kind(at path: FilePath) -> EntryKind {
        var status = stat()
        guard lstat(path.string, &status) == 0 else { return errno == ENOENT ? .absent : .unknown }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        default: return .other
        }
    }

    /// Whether `path` is a regular file (a symbolic link is not followed) or nothing: the only
    /// things SQLite may open at a database path.
    static func isRegularFileOrAbsent(_ path: FilePath) -> Bool {
        [.regularFile, .absent].contains(kind(at: path))
    }

    /// Whether the database file at `path` holds bytes: SQLite leaves a new database's file
    /// empty until its first commit, so an empty (or missing) one holds nothing to read, and
    /// opening it would write tables a reader must not write.
    static func holdsDatabase(_ path: FilePath) -> Bool {
        guard let size = try? FileManager.default.attributesOfItem(atPath: path.string)[.size] as? Int else { return false }
        return size > 0
    }

    /// Makes way for a derived database file at `path` (SQLite would block opening a FIFO and
    /// follow a symbolic link): a regular file (or nothing) stays, a folder is set aside
    /// (``setAside(_:fileSystem:)``), anything else is removed.
    static func clearDerivedFile(_ path: FilePath, fileSystem: any FileSystem) throws(Errno) {
        switch kind(at: path) {
        case .absent, .regularFile, .unknown: return
        case .directory: try setAside(path, fileSystem: fileSystem)
        case .symbolicLink, .other: try fileSystem.removeFile(at: path)
        }
    }

    /// Makes sure a derived folder (the read side) is a folder: creates it when
    /// missing and sets aside a file that stands in its place (``setAside(_:fileSystem:)``).
    static func makeDerivedFolder(_ path: FilePath, fileSystem: any FileSystem) throws(Errno) {
        if fileSystem.fileExists(at: path) {
            do throws(Errno) {
                _ = try fileSystem.contentsOfDirectory(at: path)
                return
            } catch .notDirectory {
                try setAside(path, fileSystem: fileSystem)
            }
        }
        try fileSystem.createDirectory(at: path)
    }

    /// `<ledger>/repair/<number>`: the folder of one repair's set-aside files.
    public func repairSetAside(number: Int) -> FilePath { repair.appending(String(number)) }

    /// The ledger folder's own name (its last path component).
    public var name: String { path.lastComponent?.string ?? "ledger" }

    /// The folder holding the ledger folder (`.` for a bare name): where the folders and the
    /// record of a swap live, and the folder synced after a rename.
    public var parent: FilePath {
        let parent = path.removingLastComponent()
        return parent.isEmpty ? "." : parent
    }

    /// `.<ledger name>.restoring` beside the ledger folder (same file system, so renaming it
    /// into place is atomic).
    public var restoring: FilePath {
        path.removingLastComponent().appending("." + name + Self.restoringSuffix)
    }

    /// `.<ledger name>.swap` beside the ledger folder: the intent record a restore or reset
    /// writes and syncs before its first rename and removes after its last; while it exists,
    /// ``restoring`` holds a complete, audited ledger (see `Ledger.recoverInterruptedSwap`).
    public var swapIntent: FilePath {
        path.removingLastComponent().appending("." + name + Self.swapIntentSuffix)
    }

    /// The suffix of ``swapIntent`` after the ledger's name.
    public static let swapIntentSuffix = ".swap"

    /// `<ledger name>.replaced-<number>` beside the ledger folder: a ledger a restore or a reset
    /// replaced, kept (`Ledger.restore(...replacing:)`, `LedgerReset`).
    public func replaced(number: Int) -> FilePath {
        path.removingLastComponent().appending(name + Self.replacedSuffix + String(number))
    }

    /// The suffix of ``replaced(number:)`` before its number.
    public static let replacedSuffix = ".replaced-"

    /// The numbers of the ``replaced(number:)`` folders beside the ledger, ascending (at most
    /// the first 1,000 a listing of the parent finds); empty when the parent cannot be listed.
    public func replacedNumbers(fileSystem: any FileSystem = PosixFileSystem()) -> [Int] {
        let prefix = name + Self.replacedSuffix
        let names = (try? fileSystem.contentsOfDirectory(at: parent)) ?? []
        let numbers = names.lazy.filter { $0.hasPrefix(prefix) }
            .compactMap { (entry: String) -> Int? in
                let digits = String(entry.dropFirst(prefix.count))
                guard let number = Int(digits), number > 0, String(number) == digits else { return nil }
                return number
            }
        return Array(numbers.prefix(1_000)).sorted()
    }

    /// The journal's segment file names, oldest first (the journal names them).
    /// - Throws: `JournalError` when the journal folder cannot be listed.
    public func segmentNames(fileSystem: any FileSystem = PosixFileSystem()) throws(JournalError) -> [String] {
        try JournalReader.segmentNames(in: journal, fileSystem: fileSystem)
    }

    /// The sequence number the checkpoint in the read-side store covers; nil when there is no
    /// store, it has no checkpoint, or it cannot be read (another key, damage).
    public func checkpointSequenceNumber(encryption: JournalEncryption? = nil, fileSystem: any FileSystem = PosixFileSystem()) -> UInt64? {
        let store = ReadSide.existingStore(in: path, encryption: encryption, fileSystem: fileSystem)
        defer { store?.close() }
        return store.flatMap { try? Checkpoint.stored(in: $0) }?.sequenceNumber
    }

    /// The read-side store's bytes (its pages) and, with `byObject`, what each table and index
    /// takes, largest first (SQLite's `dbstat`: reads every page); nil when there is no store or
    /// it cannot be read (another key, damage).
    public func storeBytes(
        byObject: Bool, encryption: JournalEncryption? = nil, fileSystem: any FileSystem = PosixFileSystem()
    ) -> (total: Int64, objects: [(name: String, bytes: Int64)]?)? {
        guard let store = ReadSide.existingStore(in: path, encryption: encryption, fileSystem: fileSystem) else { return nil }
        defer { store.close() }
        guard let total = try? store.pageBytes() else { return nil }
        return (total, byObject ? try? store.bytesByObject() : nil)
    }

    /// Whether a ledger lives here: its journal folder exists.
    public func holdsLedger(fileSystem: any FileSystem = PosixFileSystem()) -> Bool {
        fileSystem.fileExists(at: journal)
    }

    /// The path.
    public var description: String { path.string }
}
