import GRDBSQLite

/// The SQLite result codes the VFS returns, spelled out once (extended codes are macros Swift
/// does not always import).
enum SQLiteResultCode {
    static let ok: Int32 = SQLITE_OK
    static let cantOpen: Int32 = SQLITE_CANTOPEN
    static let ioError: Int32 = SQLITE_IOERR
    static let ioErrorRead: Int32 = SQLITE_IOERR | (1 << 8)
    static let ioErrorShortRead: Int32 = SQLITE_IOERR | (2 << 8)
    static let ioErrorWrite: Int32 = SQLITE_IOERR | (3 << 8)
    /// `SQLITE_IOERR_AUTH`, reserved by SQLite for extensions: a page failed authentication.
    static let ioErrorAuthentication: Int32 = SQLITE_IOERR | (28 << 8)
}
