/// Why the read-side store or the checkpoint archive could not be opened, read or written.
///
/// The store is rebuildable from the journal, so the engine treats every one of these as "the
/// store is not usable": it rebuilds it (open) or marks it stale (after a commit), and never
/// serves what it could not read.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// SQLite refused for a reason that may pass (an I/O call failed, a full disk, too many
    /// open files, a busy database): the file is left as it is.
    case database(path: String, message: String)
    /// The file is damaged or foreign: not a database, a page that fails its seal or SQLite's
    /// checks, another key. It is rebuilt into a new file, never served.
    case damaged(path: String, message: String)
    /// The file is a store of a newer or unknown schema.
    case unsupportedSchema(path: String, version: Int)
    /// A row holds a value the model refuses (a damaged or foreign store).
    case invalidRow(path: String, table: String, reason: String)
    /// A query the store cannot answer as asked (a page size out of range, a cursor of
    /// another order); nothing was read.
    case invalidQuery(reason: String)

    /// Whether the file itself is unusable (damaged, foreign, of another schema), rather than
    /// the attempt failing for a passing reason: only then is the store rebuilt into a new file.
    public var isDamage: Bool {
        switch self {
        case .damaged, .unsupportedSchema, .invalidRow: true
        case .database, .invalidQuery: false
        }
    }

    public var description: String {
        switch self {
        case .database(let path, let message): "\(path): \(Self.subject(path)) cannot be used: \(message)"
        case .damaged(let path, let message): "\(path): \(Self.subject(path)) is damaged: \(message); \(Self.remedy(path))"
        case .unsupportedSchema(let path, let version):
            "\(path): \(Self.subject(path)) has schema version \(version), which this version of Tally does not know; \(Self.remedy(path))"
        case .invalidRow(let path, let table, let reason): "\(path): table \(table) holds an invalid row: \(reason); \(Self.remedy(path))"
        case .invalidQuery(let reason): "invalid query: \(reason)"
        }
    }

    /// What the database at `path` is: the checkpoint archive or the read-side store.
    private static func subject(_ path: String) -> String {
        isCheckpointArchive(path) ? "the checkpoint archive" : "the read-side store"
    }

    /// How to get past a damaged database at `path`: both are derived from the journal.
    private static func remedy(_ path: String) -> String {
        isCheckpointArchive(path)
            ? "it only caches history: the next open that cannot read it replays the journal (remove the checkpoints folder to stop using it)"
            : "run `tally rebuild`"
    }

    private static func isCheckpointArchive(_ path: String) -> Bool {
        path.split(separator: "/").last.map(String.init) == CheckpointArchive.fileName
    }
}
