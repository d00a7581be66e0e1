import GRDBSQLite

/// One open encrypted file (the database or its WAL): decrypts what SQLite reads and seals
/// what it writes, forwarding everything to the wrapped VFS's file.
///
/// Not thread-safe by itself: SQLite uses a file from one connection, one call at a time.
final class EncryptedFile {
    enum Kind: Equatable { case database, wal, rollbackJournal }

    let kind: Kind
    let path: String
    let databasePath: String
    let cipher: PageCipher
    let registry: KeyRegistry
    /// The wrapped VFS's file, inside the memory SQLite allocated for this one.
    let inner: UnsafeMutablePointer<sqlite3_file>
    /// Where pages are sealed before they are written (SQLite's buffer is its page cache).
    private var scratch: UnsafeMutableRawBufferPointer?
    /// The WAL header SQLite read last through this file, until it next writes: SQLite reads
    /// it when it rebuilds the WAL index from the frames that follow (Docs/Security.md
    /// "Errors"), and whole frames it reads after that, before any write, are that rebuild's.
    var walHeaderOfRebuild: [UInt8]?

    init(kind: Kind, path: String, databasePath: String, cipher: PageCipher, registry: KeyRegistry, inner: UnsafeMutablePointer<sqlite3_file>) {
        self.kind = kind
        self.path = path
        self.databasePath = databasePath
        self.cipher = cipher
        self.registry = registry
        self.inner = inner
    }

    deinit {
        scratch?.deallocate()
    }

    static func context(of file: UnsafeMutablePointer<sqlite3_file>?) -> EncryptedFile? {
        guard let file else { return nil }
        let opaque = (UnsafeMutableRawPointer(file) + EncryptingVFS.contextOffset).load(as: UnsafeMutableRawPointer?.self)
        guard let opaque else { return nil }
        return Unmanaged<EncryptedFile>.fromOpaque(opaque).takeUnretainedValue()
    }

    static func inner(of file: UnsafeMutablePointer<sqlite3_file>?) -> UnsafeMutablePointer<sqlite3_file>? {
        guard let file else { return nil }
        return (UnsafeMutableRawPointer(file) + EncryptingVFS.innerFileOffset).assumingMemoryBound(to: sqlite3_file.self)
    }

    /// Closes the wrapped file and releases this context (the retain taken in `xOpen`).
    static func close(_ file: UnsafeMutablePointer<sqlite3_file>?) -> Int32 {
        guard let file, let context = context(of: file) else { return SQLiteResultCode.ioError }
        let result = context.inner.pointee.pMethods?.pointee.xClose?(context.inner) ?? SQLITE_OK
        context.registry.closedFile(databasePath: context.databasePath)
        (UnsafeMutableRawPointer(file) + EncryptingVFS.contextOffset).storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
        Unmanaged.passUnretained(context).release()
        return result
    }

    // MARK: Reading and writing

    func read(_ buffer: UnsafeMutableRawPointer, count: Int, offset: Int64) -> Int32 {
        switch kind {
        case .database: readDatabase(buffer, count: count, offset: offset)
        case .wal: readWAL(buffer, count: count, offset: offset)
        case .rollbackJournal: SQLiteResultCode.ioErrorRead
        }
    }

    func write(_ buffer: UnsafeRawPointer, count: Int, offset: Int64) -> Int32 {
        switch kind {
        case .database: writeDatabase(buffer, count: count, offset: offset)
        case .wal: writeWAL(buffer, count: count, offset: offset)
        case .rollbackJournal: SQLiteResultCode.ioErrorWrite
        }
    }

    private func readDatabase(_ buffer: UnsafeMutableRawPointer, count: Int, offset: Int64) -> Int32 {
        if offset >= 0, offset + Int64(count) <= Int64(PageCipher.databaseHeaderBytes) {
            return innerRead(buffer, count: count, offset: offset)  // the clear database header
        }
        guard PageCipher.isPageSize(count), offset >= 0, offset % Int64(count) == 0,
              let pageNumber = UInt32(exactly: offset / Int64(count) + 1)
        else {
            return fail(.unsupportedAccess, offset: offset, result: SQLiteResultCode.ioErrorRead,
                        "SQLite read \(count) bytes at offset \(offset), which is not a whole page")
        }
        let result = innerRead(buffer, count: count, offset: offset)
        if result == SQLiteResultCode.ioErrorShortRead {
            // Zero-filled past the end of the file: fine for a page that does not exist yet,
            // damage for a page the file ends inside.
            guard fileSize() <= offset else {
                return fail(.truncatedPage, pageNumber: pageNumber, offset: offset, result: SQLiteResultCode.ioErrorRead,
                            "the database file ends inside page \(pageNumber); restore it from a backup")
            }
            return result
        }
        guard result == SQLITE_OK else { return result }
        return openPage(UnsafeMutableRawBufferPointer(start: buffer, count: count),
                        at: .init(fileKind: .database, pageNumber: pageNumber, frameIndex: 0), offset: offset)
    }

    private func writeDatabase(_ buffer: UnsafeRawPointer, count: Int, offset: Int64) -> Int32 {
        guard PageCipher.isPageSize(count), offset >= 0, offset % Int64(count) == 0,
              let pageNumber = UInt32(exactly: offset / Int64(count) + 1)
        else {
            return fail(.unsupportedAccess, offset: offset, result: SQLiteResultCode.ioErrorWrite,
                        "SQLite wrote \(count) bytes at offset \(offset), which is not a whole page")
        }
        let page = UnsafeRawBufferPointer(start: buffer, count: count)
        if pageNumber == 1, Int(page[20]) < PageCipher.trailerBytes {
            return fail(.reservedBytesMissing, pageNumber: 1, offset: offset, result: SQLiteResultCode.ioErrorWrite,
                        "page 1 reserves \(page[20]) bytes per page, fewer than the \(PageCipher.trailerBytes) the nonce and tag need; create the database with EncryptedSQLite")
        }
        return sealAndWrite(page, at: .init(fileKind: .database, pageNumber: pageNumber, frameIndex: 0), offset: offset)
    }

    // MARK: Shared steps

    /// Copies `page` to the scratch buffer, seals it there and writes it at `offset`.
    func sealAndWrite(_ page: UnsafeRawBufferPointer, at place: PageCipher.Place, offset: Int64) -> Int32 {
        let sealed = scratchBuffer(count: page.count)
        sealed.copyMemory(from: page)
        do {
            try cipher.seal(sealed, at: place)
        } catch {
            return fail(.unsupportedAccess, pageNumber: place.pageNumber, offset: offset, result: SQLiteResultCode.ioErrorWrite,
                        "the page could not be sealed")
        }
        guard let baseAddress = sealed.baseAddress else { return SQLiteResultCode.ioErrorWrite }
        return innerWrite(baseAddress, count: sealed.count, offset: offset)
    }

    /// Decrypts `page` in place; a failure is recorded and returned as `SQLITE_IOERR_AUTH`.
    func openPage(_ page: UnsafeMutableRawBufferPointer, at place: PageCipher.Place, offset: Int64) -> Int32 {
        do {
            try cipher.open(page, at: place)
            return SQLITE_OK
        } catch {
            let what = place.fileKind == .wal ? "page \(place.pageNumber) in WAL frame \(place.frameIndex)" : "page \(place.pageNumber)"
            return fail(.pageAuthenticationFailed, pageNumber: place.pageNumber, offset: offset,
                        result: SQLiteResultCode.ioErrorAuthentication,
                        "\(what) failed authentication: the key is wrong or the file was altered")
        }
    }

    func fail(_ code: EncryptedSQLiteError.Code, pageNumber: UInt32? = nil, offset: Int64?, result: Int32, _ message: String) -> Int32 {
        registry.record(
            EncryptedSQLiteError(code: code, path: path, pageNumber: pageNumber, offset: offset, message: message),
            databasePath: databasePath)
        return result
    }

    private func scratchBuffer(count: Int) -> UnsafeMutableRawBufferPointer {
        if let scratch, scratch.count == count { return scratch }
        scratch?.deallocate()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 16)
        scratch = buffer
        return buffer
    }

    // MARK: The wrapped file

    func innerRead(_ buffer: UnsafeMutableRawPointer, count: Int, offset: Int64) -> Int32 {
        guard let read = inner.pointee.pMethods?.pointee.xRead else { return SQLiteResultCode.ioErrorRead }
        return read(inner, buffer, Int32(count), offset)
    }

    func innerWrite(_ buffer: UnsafeRawPointer, count: Int, offset: Int64) -> Int32 {
        guard let write = inner.pointee.pMethods?.pointee.xWrite else { return SQLiteResultCode.ioErrorWrite }
        return write(inner, buffer, Int32(count), offset)
    }

    func fileSize() -> Int64 {
        var size: sqlite3_int64 = 0
        guard let fileSize = inner.pointee.pMethods?.pointee.xFileSize, fileSize(inner, &size) == SQLITE_OK else { return 0 }
        return size
    }
}
