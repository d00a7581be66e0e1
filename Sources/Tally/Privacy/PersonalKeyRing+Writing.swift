import SystemPackage
import TallyJournal
import TallyModel

/// Writing the key file: new keys are appended as one record and synced; forgetting, lowering
/// the evidence and restoring rewrite it whole, atomically (see ``PersonalKeyRing``).
extension PersonalKeyRing {
    /// Writes a key file holding `keys` and `forgotten` into the ledger in `directory`
    /// (restoring a backup into an empty ledger).
    /// - Throws: ``LedgerError/personalKeys(_:)`` for a key that is not 32 bytes;
    ///   ``LedgerError/storage(_:)`` when the file cannot be written.
    package static func install(
        keys: [PersonID: [UInt8]], forgotten: Set<PersonID>, ledgerDirectory directory: FilePath,
        fileSystem: any FileSystem, encryption: JournalEncryption?
    ) throws(LedgerError) {
        guard keys.values.allSatisfy({ $0.count == AESGCMBox.keyBytes }) else {
            throw .personalKeys("a personal key must be 32 bytes (AES-256)")
        }
        let ring = PersonalKeyRing(
            contents: Contents(keys: keys, forgotten: forgotten), path: LedgerDirectory(directory).personalKeys,
            fileSystem: fileSystem, encryption: encryption, isReadOnly: false)
        _ = try ring.rewrite(PersonalKeyFile.Contents(keys: keys, forgotten: forgotten))
    }

    /// Makes the keys created since the last write durable, recording that every record
    /// through `acknowledgedThrough` was acknowledged: appended as one record (then
    /// `fdatasync`), or, when the file is missing, in an older layout or the last append
    /// failed, by rewriting the file whole (atomically). Nothing when no key was created.
    /// - Throws: ``LedgerError/storage(_:)`` when the file cannot be written; the keys stay
    ///   unwritten (the caller drops them, ``discardUnpersisted()``).
    func persist(acknowledgedThrough: UInt64) throws(LedgerError) {
        struct Pending {
            var people: Set<PersonID>
            /// The whole file, should it be rewritten (copy-on-write: nothing is copied here).
            var everything: PersonalKeyFile.Contents
            var keys: [(person: PersonID, key: [UInt8])]
            var offset: Int64?
        }
        let pending: Pending? = contents.withLock { contents in
            guard contents.isDirty else { return nil }
            var everything = contents.stored(includingUnpersisted: true)
            everything.acknowledgedThrough = max(contents.acknowledgedThrough, acknowledgedThrough)
            let keys = contents.appendOffset == nil ? [] : contents.unpersisted.sorted()
                .compactMap { person in contents.keys[person].map { (person: person, key: $0) } }
            return Pending(people: contents.unpersisted, everything: everything, keys: keys, offset: contents.appendOffset)
        }
        guard let pending else { return }
        var end: Int64?
        if let offset = pending.offset {
            let records = try PersonalKeyFile.records(
                appending: pending.keys, acknowledgedThrough: pending.everything.acknowledgedThrough, encryption: encryption)
            end = try append(records, at: offset)
        }
        let written: Int64
        if let end { written = end } else { written = try rewrite(pending.everything) }
        contents.withLock { contents in
            contents.unpersisted.subtract(pending.people)
            contents.acknowledgedThrough = max(contents.acknowledgedThrough, pending.everything.acknowledgedThrough)
            contents.appendOffset = written
        }
    }

    /// Lowers the evidence the file holds to `sequenceNumber` (an explicit repair that accepts
    /// the loss of later records), durably: the file is rewritten with every record stamped
    /// with the lower value.
    func lowerEvidence(to sequenceNumber: UInt64) throws(LedgerError) {
        var next = contents.withLock { $0.stored() }
        next.acknowledgedThrough = min(next.acknowledgedThrough, sequenceNumber)
        let end = try rewrite(next)
        contents.withLock { contents in
            contents.acknowledgedThrough = min(contents.acknowledgedThrough, sequenceNumber)
            contents.appendOffset = end
        }
    }

    /// Destroys the keys of `people` and records them as forgotten, durably (P3): the file is
    /// rewritten whole without their keys (a tombstone each), so no byte of a key stays in it.
    /// O(people), and rare. The ring in memory changes only once the file is written, so
    /// decoding never redacts a text whose key is still on disk (replay from the files would
    /// read it).
    func forget(_ people: some Sequence<PersonID>) throws(LedgerError) {
        let people = Array(people)
        func forgetting(_ contents: inout Contents) {
            for person in people {
                contents.setKey(nil, for: person)
                contents.unpersisted.remove(person)
                contents.forgotten.insert(person)
            }
        }
        let next = contents.withLock { contents in
            var next = contents
            forgetting(&next)
            return next.stored()
        }
        let end = try rewrite(next)
        contents.withLock { contents in
            forgetting(&contents)
            contents.appendOffset = end
        }
    }

    /// Appends `records` at `offset`, the end of the file as last read or written, and syncs
    /// the data. Returns the new end, or nil when the file has another length (changed behind
    /// the writer's back: the caller rewrites it whole). On failure the append is undone as far
    /// as possible and the next write rewrites the file, so no half-written record is ever
    /// followed by another.
    private func append(_ records: [UInt8], at offset: Int64) throws(LedgerError) -> Int64? {
        do throws(Errno) {
            let file = try fileSystem.openFile(at: path, writable: true)
            guard try file.size() == offset else { return nil }
            do throws(Errno) {
                try file.write(records, at: offset)
                try file.synchronizeData()
            } catch {
                try? file.truncate(to: offset)
                throw error
            }
        } catch {
            contents.withLock { $0.appendOffset = nil }
            throw .storage(JournalError(error, operation: "append personal keys", path: path))
        }
        return offset + Int64(records.count)
    }

    /// Replaces the file by one holding `stored` in the current layout (temporary file, fsync,
    /// rename, directory fsync). Returns its length. On failure the old file is untouched.
    func rewrite(_ stored: PersonalKeyFile.Contents) throws(LedgerError) -> Int64 {
        let bytes = try PersonalKeyFile.encode(stored, encryption: encryption)
        do {
            try fileSystem.replaceAtomically(path, with: bytes)
        } catch {
            throw .storage(JournalError(error, operation: "write personal keys", path: path))
        }
        return Int64(bytes.count)
    }
}
