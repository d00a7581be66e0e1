import GRDBSQLite

/// The `sqlite3_io_methods` of an encrypted file: reads and writes go through
/// ``EncryptedFile``, everything else (size, sync, locks, the WAL index in shared memory) is
/// forwarded to the wrapped file.
///
/// Version 2: no `xFetch`/`xUnfetch`, so SQLite never memory-maps the file and every page
/// goes through `xRead` to be decrypted.
extension EncryptedFile {
    static func makeIOMethods() -> UnsafePointer<sqlite3_io_methods> {
        let methods = UnsafeMutablePointer<sqlite3_io_methods>.allocate(capacity: 1)
        methods.initialize(to: sqlite3_io_methods())
        methods.pointee.iVersion = 2
        methods.pointee.xClose = { file in EncryptedFile.close(file) }
        methods.pointee.xRead = { file, buffer, count, offset in
            guard let context = EncryptedFile.context(of: file), let buffer, count >= 0 else { return SQLiteResultCode.ioErrorRead }
            return context.read(buffer, count: Int(count), offset: offset)
        }
        methods.pointee.xWrite = { file, buffer, count, offset in
            guard let context = EncryptedFile.context(of: file), let buffer, count >= 0 else { return SQLiteResultCode.ioErrorWrite }
            return context.write(buffer, count: Int(count), offset: offset)
        }
        methods.pointee.xTruncate = { file, size in
            guard let inner = EncryptedFile.inner(of: file), let forward = inner.pointee.pMethods?.pointee.xTruncate else { return SQLiteResultCode.ioError }
            return forward(inner, size)
        }
        methods.pointee.xSync = { file, flags in
            guard let inner = EncryptedFile.inner(of: file), let forward = inner.pointee.pMethods?.pointee.xSync else { return SQLiteResultCode.ioError }
            return forward(inner, flags)
        }
        methods.pointee.xFileSize = { file, size in
            guard let inner = EncryptedFile.inner(of: file), let forward = inner.pointee.pMethods?.pointee.xFileSize else { return SQLiteResultCode.ioError }
            return forward(inner, size)
        }
        methods.pointee.xLock = { file, level in
            guard let inner = EncryptedFile.inner(of: file), let forward = inner.pointee.pMethods?.pointee.xLock else { return SQLiteResultCode.ioError }
            return forward(inner, level)
        }
        methods.pointee.xUnlock = { file, level in
            guard let inner = EncryptedFile.inner(of: file), let forward = inner.pointee.pMethods?.pointee.xUnlock else { return SQLiteResultCode.ioError }
            return forward(inner, level)
        }
        methods.pointee.xCheckReservedLock = { file, result in
            guard let inner = EncryptedFile.inner(of: file), let forward = inner.pointee.pMethods?.pointee.xCheckReservedLock else { return SQLiteResultCode.ioError }
            return forward(inner, result)
        }
        methods.pointee.xFileControl = { file, operation, argument in
            guard let inner = EncryptedFile.inner(of: file), let forward = inner.pointee.pMethods?.pointee.xFileControl else { return SQLITE_NOTFOUND }
            return forward(inner, operation, argument)
        }
        methods.pointee.xSectorSize = { file in
            guard let inner = EncryptedFile.inner(of: file), let forward = inner.pointee.pMethods?.pointee.xSectorSize else { return 4096 }
            return forward(inner)
        }
        methods.pointee.xDeviceCharacteristics = { file in
            guard let inner = EncryptedFile.inner(of: file), let forward = inner.pointee.pMethods?.pointee.xDeviceCharacteristics else { return 0 }
            return forward(inner)
        }
        methods.pointee.xShmMap = { file, region, regionBytes, extend, address in
            guard let inner = EncryptedFile.inner(of: file), let forward = inner.pointee.pMethods?.pointee.xShmMap else { return SQLiteResultCode.ioError }
            return forward(inner, region, regionBytes, extend, address)
        }
        methods.pointee.xShmLock = { file, offset, count, flags in
            guard let inner = EncryptedFile.inner(of: file), let forward = inner.pointee.pMethods?.pointee.xShmLock else { return SQLiteResultCode.ioError }
            return forward(inner, offset, count, flags)
        }
        methods.pointee.xShmBarrier = { file in
            guard let inner = EncryptedFile.inner(of: file), let forward = inner.pointee.pMethods?.pointee.xShmBarrier else { return }
            forward(inner)
        }
        methods.pointee.xShmUnmap = { file, deleteFlag in
            guard let inner = EncryptedFile.inner(of: file), let forward = inner.pointee.pMethods?.pointee.xShmUnmap else { return SQLiteResultCode.ioError }
            return forward(inner, deleteFlag)
        }
        return UnsafePointer(methods)
    }
}
