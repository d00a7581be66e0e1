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
    /// The files and folders of the ledger in `directory` (everything in it: the journal, its
    /// kept torn tails, checkpoints, the key store, what `tally repair` set aside) that group
    /// or others can access. Links are not followed; folders deeper than four levels are not
    /// Tally's and are not walked.
    static func problems(in directory: FilePath) -> [AuditProblem] {
        var problems: [AuditProblem] = []
        var pending: [(path: FilePath, depth: Int)] = [(directory, 0)]
        while let (path, depth) = pending.popLast() {
            var status = stat()
            guard lstat(path.string, &status) == 0 else { continue }
            if status.st_mode & 0o077 != 0 {
                let mode = String(status.st_mode & 0o777, radix: 8)
                let holdsKeys = path == LedgerDirectory(directory).personalKeys
                problems.append(AuditProblem(
                    code: JournalProblem.Kind.permissionsTooOpen.rawValue, location: nil,
                    message: "\(path) has mode \(mode): group or others can access it (personal data\(holdsKeys ? " and the keys that seal it" : "")); run `chmod go-rwx \(path)`"))
            }
            guard status.st_mode & S_IFMT == S_IFDIR, depth < 4 else { continue }
            let names = ((try? PosixFileSystem().contentsOfDirectory(at: path)) ?? []).sorted()
            pending += names.reversed().map { (path.appending($0), depth + 1) }
        }
        return problems
    }
}
