import SystemPackage
import TallyJournal
import TallyStore

extension CheckpointStore {
    /// The archive file beside the checkpoints.
    var archivePath: FilePath { directory.appending(LedgerDirectory.checkpointArchiveName) }

    /// The checkpoint archive beside the checkpoints (Docs/Engine.md, "Checkpoints and the
    /// archive"); nil on a file system that is not the operating system's (SQLite works on
    /// real files only: checkpoints then hold the history inline), or when it cannot be used.
    ///
    /// - Parameter creating: the writer's call: creates the folder and the file when missing,
    ///   and sets aside an archive that does not open (damaged, another key, anything but a
    ///   regular file), starting an empty one; its checkpoints are then not used and the open
    ///   replays. Readers (audit, repair) open an existing archive only, and never change it.
    func openArchive(creating: Bool) -> CheckpointArchive? {
        guard creating else {
            guard fileSystem.isOperatingSystemFileSystem else { return nil }
            let files = CheckpointArchive.files(at: archivePath.string).map { FilePath($0) }
            guard fileSystem.fileExists(at: archivePath), files.allSatisfy(LedgerDirectory.isRegularFileOrAbsent) else { return nil }
            return try? CheckpointArchive(path: archivePath.string, key: ReadSide.pageKey(encryption))
        }
        return try? openArchiveForWriting()
    }

    /// The archive a writer uses, created when missing. A damaged or foreign archive is set
    /// aside (removed: it is only a cache) and a new one created; a failure that may pass (too
    /// many open files, a full disk) changes no file and is thrown.
    /// - Returns: nil on an injected file system (no SQLite there) or when something that cannot
    ///   be removed is in the archive's place (the ledger then keeps its history in memory).
    /// - Throws: ``LedgerError/readSide(_:)`` naming the file and what to do.
    func openArchiveForWriting() throws(LedgerError) -> CheckpointArchive? {
        guard fileSystem.isOperatingSystemFileSystem else { return nil }
        let path = archivePath
        let files = CheckpointArchive.files(at: path.string).map { FilePath($0) }
        let key = ReadSide.pageKey(encryption)
        do {
            try LedgerDirectory.makeDerivedFolder(directory, fileSystem: fileSystem)
            for file in files { try LedgerDirectory.clearDerivedFile(file, fileSystem: fileSystem) }
            if !fileSystem.fileExists(at: path) { _ = try fileSystem.createFile(at: path) }
        } catch {
            return nil  // something in the way that cannot be moved: no archive, nothing else changed
        }
        do throws(StoreError) {
            return try CheckpointArchive(path: path.string, key: key)
        } catch where !error.isDamage {
            throw .readSide("\(error); nothing was changed, open the ledger again")
        } catch {
            CheckpointArchive.remove(at: path.string)
            _ = try? fileSystem.createFile(at: path)
            return try? CheckpointArchive(path: path.string, key: key)
        }
    }
}
