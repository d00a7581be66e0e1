import SystemPackage
@testable import Tally
import TallyJournal
import TallyProjections
import TallyStore

/// The checkpoint of a closed ledger's read-side store, for tests that read, alter or remove it
/// (the checkpoint is the store's `checkpoint` row and `history` table: Docs/Engine.md).
enum StoredCheckpoints {
    /// Runs `body` with the store of the (closed) ledger at `ledger`, opened with its page key.
    static func withStore<T>(
        at ledger: FilePath, encryption: JournalEncryption? = nil, _ body: (LedgerStore) throws -> T
    ) throws -> T {
        let store = try LedgerStore(path: LedgerDirectory(ledger).readSideStore.string, key: ReadSide.pageKey(encryption))
        defer { store.close() }
        return try body(store)
    }

    /// The encoded checkpoint the store holds, or nil.
    static func bytes(at ledger: FilePath, encryption: JournalEncryption? = nil) throws -> [UInt8]? {
        try withStore(at: ledger, encryption: encryption) { try $0.checkpointState() }
    }

    /// Replaces the encoded checkpoint (its history rows stay).
    static func replaceBytes(at ledger: FilePath, encryption: JournalEncryption? = nil, with bytes: [UInt8]) throws {
        try withStore(at: ledger, encryption: encryption) { try $0.writeCheckpoint([], version: 0, replacingAll: false, state: bytes) }
    }

    /// The checkpoint, decoded.
    static func checkpoint(at ledger: FilePath, encryption: JournalEncryption? = nil) throws -> Checkpoint? {
        try bytes(at: ledger, encryption: encryption).map { try Checkpoint.decode($0) }
    }

    /// Removes the checkpoint and its history: the next open replays the whole journal.
    static func remove(at ledger: FilePath, encryption: JournalEncryption? = nil) throws {
        try withStore(at: ledger, encryption: encryption) { try $0.removeCheckpoint() }
    }

    /// The number of history rows the store holds.
    static func historyRowCount(at ledger: FilePath, encryption: JournalEncryption? = nil) throws -> Int {
        try withStore(at: ledger, encryption: encryption) { store in
            // The rows themselves, page by page (for the transaction book, the records kept as of
            // the checkpoint, which may hold texts too).
            var count = 0
            for space in ArchiveSpace.allCases {
                var after: [UInt8]?
                while true {
                    let page = try store.historyRows(space: space.rawValue, after: after, limit: 1_024)
                    count += page.count
                    guard page.count == 1_024, let last = page.last else { break }
                    after = last.key
                }
            }
            return count
        }
    }
}
