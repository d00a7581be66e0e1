#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage
import TallyJournal

/// The check `tally audit` makes of who may read a ledger, as ssh does for private keys: the
/// ledger folder, the journal and the personal-key store (keys in clear when the ledger is not
/// encrypted at rest) must be readable by their owner only. Tally creates folders `0700` and
/// files `0600` (`PosixFileSystem`); anything wider was changed by hand or copied in.
enum LedgerPermissions {
    /// The files and folders of the ledger in `directory` that group or others can access.
    static func problems(in directory: FilePath) -> [AuditProblem] {
        var paths = [directory, directory.appending(Ledger.journalDirectoryName),
                     directory.appending(PersonalKeyRing.fileName), directory.appending(Ledger.checkpointDirectoryName)]
        for folder in [Ledger.journalDirectoryName, Ledger.checkpointDirectoryName] {
            let path = directory.appending(folder)
            paths += ((try? PosixFileSystem().contentsOfDirectory(at: path)) ?? []).sorted().map { path.appending($0) }
        }
        return paths.compactMap { path in
            var status = stat()
            guard lstat(path.string, &status) == 0 else { return nil }
            let open = status.st_mode & 0o077
            guard open != 0 else { return nil }
            let mode = String(status.st_mode & 0o777, radix: 8)
            return AuditProblem(
                code: JournalProblem.Kind.permissionsTooOpen.rawValue, location: nil,
                message: "\(path) has mode \(mode): group or others can access it (personal data\(path.lastComponent?.string == PersonalKeyRing.fileName ? " and the keys that seal it" : "")); run `chmod go-rwx \(path)`")
        }
    }
}
