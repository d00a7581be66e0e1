import Foundation
import SystemPackage
import TallyJournal
import TallyStore

extension LedgerAudit {
    /// The problems of a synced device's outbox (Docs/Sync.md, "The outbox"): the only copy of
    /// the commands the device made that the server has not confirmed, so damage to it is
    /// reported, never repaired (nothing else holds what it held). None for a ledger without
    /// one, or one whose tables were never made (a crash before its first commit). The file is
    /// opened as the device opens it, without creating anything, every page checked and every
    /// row read (``SyncOutboxStore/verify()``). A damaged WAL frame with committed commands after
    /// it is damage (`walFrameDamaged`); damage in the WAL's last transaction is not seen (SQLite
    /// takes it for a write torn by a crash).
    static func syncOutboxProblems(in directory: FilePath, encryption: JournalEncryption?, fileSystem: any FileSystem) -> [AuditProblem] {
        let path = LedgerDirectory(directory).syncOutbox
        guard fileSystem.isOperatingSystemFileSystem, fileSystem.fileExists(at: path) else { return [] }
        // An empty file (a crash before the new outbox's first commit): nothing to check.
        guard LedgerDirectory.holdsDatabase(path) else { return [] }
        do throws(StoreError) {
            let outbox = try Ledger.openSyncOutbox(in: directory, encryption: encryption, existingOnly: true)
            defer { outbox.close() }
            try outbox.verify()
            return []
        } catch .unsupportedSchema(_, let version) where version == 0 {
            return []
        } catch {
            // A page that fails its seal is damage, or the ledger's key is not the one given.
            let reason = error.isDamage
                ? "is damaged or sealed with another key than the one given (\(error))"
                : "cannot be read (\(error))"
            return [AuditProblem(
                code: "syncOutboxUnreadable", location: nil,
                message: "the sync outbox \(path) \(reason); \(SyncOutboxStore.holds). With the right key (--key-file) it is damaged: the device refuses to sync with it; set the device up again from an invitation (its unpushed commands are lost) or put back a copy of the folder made after they were")]
        }
    }
}
