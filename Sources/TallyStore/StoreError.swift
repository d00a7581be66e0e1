/// Why the read-side store could not be opened, read or written.
///
/// The store is rebuildable from the journal, so the engine treats every one of these as "the
/// store is not usable": it rebuilds it (open) or marks it stale (after a commit), and never
/// serves what it could not read.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// SQLite refused: the file is not a database, is damaged, or an I/O call failed.
    case database(path: String, message: String)
    /// The file is a store of a newer or unknown schema.
    case unsupportedSchema(path: String, version: Int)
    /// A row holds a value the model refuses (a damaged or foreign store).
    case invalidRow(path: String, table: String, reason: String)
    /// A query the store cannot answer as asked (a page size out of range, a cursor of
    /// another order); nothing was read.
    case invalidQuery(reason: String)

    public var description: String {
        switch self {
        case .database(let path, let message): "\(path): the read-side store cannot be used: \(message)"
        case .unsupportedSchema(let path, let version):
            "\(path): the read-side store has schema version \(version), which this version of Tally does not know; run `tally rebuild`"
        case .invalidRow(let path, let table, let reason): "\(path): table \(table) holds an invalid row: \(reason); run `tally rebuild`"
        case .invalidQuery(let reason): "invalid query: \(reason)"
        }
    }
}
