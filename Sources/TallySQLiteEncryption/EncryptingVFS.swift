import Foundation
import GRDBSQLite

/// The process-wide encrypting VFS: registered once, as SQLite's default, wrapping the VFS
/// that was the default before (unix).
///
/// A file opens encrypted only when its database was registered with a key in
/// ``KeyRegistry``; every other file, temporary files included, is opened by the wrapped VFS
/// directly into the same memory and never touches this code again, so other databases in
/// the process behave exactly as without it.
///
/// Memory of an encrypted file (SQLite allocates `szOsFile` bytes):
///
///     [0 ..< 8)    sqlite3_file (pMethods = EncryptedFile methods)
///     [8 ..< 16)   retained EncryptedFile
///     [16 ...)     the wrapped VFS's file
final class EncryptingVFS: @unchecked Sendable {
    // @unchecked Sendable: the pointers are written once in `install()` before the VFS is
    // registered and only read afterwards; SQLite serialises its own access to them.
    static let name = "tally-encrypting"
    static let contextOffset = MemoryLayout<sqlite3_file>.stride
    static let innerFileOffset = contextOffset + MemoryLayout<UnsafeRawPointer>.stride

    /// The installation, made on first use (SQLite's VFS list is process-wide state).
    static let shared: Result<EncryptingVFS, EncryptedSQLiteError> = install()

    let vfs: UnsafeMutablePointer<sqlite3_vfs>
    let wrapped: UnsafeMutablePointer<sqlite3_vfs>
    let ioMethods: UnsafePointer<sqlite3_io_methods>
    let registry = KeyRegistry()

    private init(vfs: UnsafeMutablePointer<sqlite3_vfs>, wrapped: UnsafeMutablePointer<sqlite3_vfs>) {
        self.vfs = vfs
        self.wrapped = wrapped
        self.ioMethods = EncryptedFile.makeIOMethods()
    }

    private static func install() -> Result<EncryptingVFS, EncryptedSQLiteError> {
        let unavailable = { (why: String) in
            EncryptedSQLiteError(code: .vfsUnavailable, path: "", message: why)
        }
        guard sqlite3_initialize() == SQLITE_OK, let wrapped = sqlite3_vfs_find(nil) else {
            return .failure(unavailable("SQLite has no default VFS to wrap"))
        }
        let vfs = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
        // A copy of the wrapped VFS: every method but xOpen is the wrapped one, called with a
        // struct identical in every field it reads (pAppData, mxPathname).
        vfs.initialize(to: wrapped.pointee)
        vfs.pointee.szOsFile = Int32(innerFileOffset) + wrapped.pointee.szOsFile
        vfs.pointee.pNext = nil
        vfs.pointee.zName = UnsafePointer(strdup(name))
        vfs.pointee.xOpen = { vfs, name, file, flags, outFlags in
            guard case .success(let installation) = EncryptingVFS.shared, let file else {
                return SQLiteResultCode.cantOpen
            }
            return installation.open(name: name, file: file, flags: flags, outFlags: outFlags)
        }
        let installation = EncryptingVFS(vfs: vfs, wrapped: wrapped)
        guard sqlite3_vfs_register(vfs, 1) == SQLITE_OK else {
            return .failure(unavailable("sqlite3_vfs_register failed"))
        }
        return .success(installation)
    }

    /// The full path SQLite will give `xOpen` for `path`: the key of ``KeyRegistry``.
    func fullPath(_ path: String) -> String {
        let capacity = Int(wrapped.pointee.mxPathname) + 1
        var buffer = [CChar](repeating: 0, count: capacity)
        guard let fullPathname = wrapped.pointee.xFullPathname,
              fullPathname(wrapped, path, Int32(capacity), &buffer) == SQLITE_OK
        else { return path }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func open(
        name: sqlite3_filename?, file: UnsafeMutablePointer<sqlite3_file>, flags: Int32,
        outFlags: UnsafeMutablePointer<Int32>?
    ) -> Int32 {
        guard let wrappedOpen = wrapped.pointee.xOpen else { return SQLiteResultCode.cantOpen }
        let kind: EncryptedFile.Kind
        if flags & SQLITE_OPEN_MAIN_DB != 0 {
            kind = .database
        } else if flags & SQLITE_OPEN_WAL != 0 {
            kind = .wal
        } else if flags & SQLITE_OPEN_MAIN_JOURNAL != 0 {
            kind = .rollbackJournal
        } else {
            // Temporary files have no name and no key; with temp_store=MEMORY (set by
            // EncryptedSQLite) an encrypted connection never opens one.
            return wrappedOpen(wrapped, name, file, flags, outFlags)
        }
        guard let name else { return wrappedOpen(wrapped, name, file, flags, outFlags) }
        let filePath = String(cString: name)
        let databasePath: String
        if kind == .database {
            databasePath = filePath
        } else if let database = sqlite3_filename_database(name) {
            databasePath = String(cString: database)
        } else {
            return wrappedOpen(wrapped, name, file, flags, outFlags)
        }

        switch registry.openingFile(databasePath: databasePath, isRollbackJournal: kind == .rollbackJournal, filePath: filePath) {
        case .passThrough:
            return wrappedOpen(wrapped, name, file, flags, outFlags)
        case .refuse:
            file.pointee.pMethods = nil
            return SQLiteResultCode.cantOpen
        case .encrypt(let cipher):
            let innerFile = (UnsafeMutableRawPointer(file) + Self.innerFileOffset).assumingMemoryBound(to: sqlite3_file.self)
            let result = wrappedOpen(wrapped, name, innerFile, flags, outFlags)
            guard result == SQLITE_OK else {
                registry.closedFile(databasePath: databasePath)
                file.pointee.pMethods = nil
                return result
            }
            let context = EncryptedFile(
                kind: kind, path: filePath, databasePath: databasePath, cipher: cipher,
                registry: registry, inner: innerFile)
            (UnsafeMutableRawPointer(file) + Self.contextOffset)
                .storeBytes(of: Unmanaged.passRetained(context).toOpaque(), as: UnsafeMutableRawPointer.self)
            file.pointee.pMethods = ioMethods
            return SQLITE_OK
        }
    }
}
