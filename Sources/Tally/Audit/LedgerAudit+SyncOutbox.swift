import Foundation
import SystemPackage
import TallyJournal
import TallyStore

extension LedgerAudit {
    /// The problems of a synced device's outbox (Docs/Sync.md, "The outbox"): the only copy of
    /// the commands the device made that the server has not confirmed, so damage to it is
    /// reported, never repaired (nothing else holds what it held). None for a ledger without one.
    /// The file is opened as the device opens it and every row read (its pages authenticated,
    /// its accepted ranges checked).
    static func syncOutboxProblems(in directory: FilePath, encryption: JournalEncryption?, fileSystem: any FileSystem) -> [AuditProblem] {
        let path = LedgerDirectory(directory).syncOutbox
        guard fileSystem.isOperatingSystemFileSystem, fileSystem.fileExists(at: path) else { return [] }
        func unreadable(_ reason: String) -> [AuditProblem] {
            [AuditProblem(
                code: "syncOutboxUnreadable", location: nil,
                message: "the sync outbox \(path) \(reason): it holds the commands this device made that the server has not confirmed; the device refuses to sync until it is restored from a backup of the ledger folder")]
        }
        // An empty file (a crash before the new outbox's first commit) holds nothing, and
        // opening it would write its tables: nothing to check.
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path.string)[.size]) as? Int, size > 0 else { return [] }
        do throws(StoreError) {
            let outbox = try Ledger.openSyncOutbox(in: directory, encryption: encryption, existingOnly: true)
            defer { outbox.close() }
            _ = try outbox.pending()
            _ = try outbox.rejections()
            _ = try outbox.sharedKeys()
            return []
        } catch {
            return unreadable("cannot be read (\(error))")
        }
    }
}
