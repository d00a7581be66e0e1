/// A failure of the encrypted SQLite layer, naming the file (and page) it concerns.
///
/// Thrown by ``EncryptedSQLite/openPool(atPath:key:configuration:)`` and returned by
/// ``EncryptedSQLite/typedError(for:databasePath:)`` for an error a pool threw later.
public struct EncryptedSQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Stable codes; the raw values never change meaning.
    public enum Code: String, Sendable {
        /// The key is not 16, 24 or 32 bytes.
        case invalidKey
        /// The database is open in this process with another key.
        case keyConflict
        /// A page or WAL frame failed authentication: the key is wrong or the bytes were altered.
        case pageAuthenticationFailed
        /// A WAL frame is damaged (its page fails authentication, or its salts or checksum do
        /// not continue the log) while committed transactions follow it: SQLite would end the
        /// log there and drop them, so the WAL is refused instead.
        case walFrameDamaged
        /// A page ends before its size: the file was cut inside a page.
        case truncatedPage
        /// SQLite asked for an access the encrypted format cannot serve (a partial page).
        case unsupportedAccess
        /// Page 1 reserves fewer than 28 bytes per page: the database was not created
        /// encrypted, so there is no room for the nonce and the tag.
        case reservedBytesMissing
        /// SQLite tried to create a rollback journal; only WAL mode is encrypted.
        case rollbackJournalRefused
        /// The database was opened encrypted earlier in this process and is being opened
        /// again without a key.
        case keyMissing
        /// The encrypting VFS could not be registered with SQLite.
        case vfsUnavailable
    }

    /// What went wrong.
    public let code: Code
    /// The file concerned: the database, its `-wal` or its `-journal`.
    public let path: String
    /// The database page concerned (1-based), when there is one.
    public let pageNumber: UInt32?
    /// The byte offset in `path` of the page or frame concerned, when there is one.
    public let offset: Int64?
    /// What happened and what to do, for a person.
    public let message: String

    /// Creates an error; `message` should say what to do.
    public init(code: Code, path: String, pageNumber: UInt32? = nil, offset: Int64? = nil, message: String) {
        self.code = code
        self.path = path
        self.pageNumber = pageNumber
        self.offset = offset
        self.message = message
    }

    public var description: String {
        var location = "file \(path)"
        if let pageNumber { location += ", page \(pageNumber)" }
        if let offset { location += ", offset \(offset)" }
        return "\(code.rawValue): \(message) (\(location))"
    }
}
