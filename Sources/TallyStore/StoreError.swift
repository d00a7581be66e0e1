/// Why the read-side store (its read tables or its checkpoint) could not be opened, read or written.
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
        case .database(let path, let message): "\(path): the read-side store cannot be used: \(message)"
        case .damaged(let path, let message): "\(path): the read-side store is damaged: \(message); run `tally rebuild`"
        case .unsupportedSchema(let path, let version):
            "\(path): the read-side store has schema version \(version), which this version of Tally does not know; run `tally rebuild`"
        case .invalidRow(let path, let table, let reason): "\(path): table \(table) holds an invalid row: \(reason); run `tally rebuild`"
        case .invalidQuery(let reason): "invalid query: \(reason)"
        }
    }
}
