import SystemPackage
import TallyJournal

/// `--output FILE` for `export` and `replay`: written like every ledger file (temporary file,
/// fsync, rename, directory fsync; mode 0600, since a backup holds personal keys), so a full
/// disk leaves the old file or none, never half a file, and says `diskFull`.
enum OutputFile {
    static func write(_ bytes: [UInt8], to path: String) throws {
        do {
            try PosixFileSystem().replaceAtomically(FilePath(path), with: bytes)
        } catch {
            throw CLIError("\(path): cannot write the output file: \(JournalError(error, operation: "write", path: FilePath(path)).description)")
        }
    }
}
