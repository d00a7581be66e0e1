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
        guard fileSystem.isOperatingSystemFileSystem else { return nil }
        let path = archivePath
        let files = CheckpointArchive.files(at: path.string).map { FilePath($0) }
        let key = ReadSide.pageKey(encryption)
        guard creating else {
            guard fileSystem.fileExists(at: path), files.allSatisfy(ReadSide.isRegularFileOrAbsent) else { return nil }
            return try? CheckpointArchive(path: path.string, key: key)
        }
        do {
            if !fileSystem.fileExists(at: directory) { try fileSystem.createDirectory(at: directory) }
            for file in files where !ReadSide.isRegularFileOrAbsent(file) { try fileSystem.removeFile(at: file) }
            if !fileSystem.fileExists(at: path) { _ = try fileSystem.createFile(at: path) }
        } catch {
            return nil
        }
        if let archive = try? CheckpointArchive(path: path.string, key: key) { return archive }
        CheckpointArchive.remove(at: path.string)
        _ = try? fileSystem.createFile(at: path)
        return try? CheckpointArchive(path: path.string, key: key)
    }
}
