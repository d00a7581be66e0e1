import SystemPackage
import TallyJournal

/// Writes checkpoints atomically (temporary file, fsync, rename, directory fsync) and finds the
/// newest one that matches the journal. A missing or damaged checkpoint only costs time: the
/// engine falls back to a full replay and says why.
struct CheckpointStore: Sendable {
    let directory: FilePath
    let fileSystem: any FileSystem
    /// When set, checkpoint files are sealed with it (they hold the same personal data as the
    /// journal): magic `TALLYCKE` followed by `JournalEncryption.sealBlob` of the plain file.
    var encryption: JournalEncryption?
    /// How many checkpoint files to keep (older ones are removed after a new one is durable).
    var keep = 2

    static let sealedMagic: [UInt8] = Array("TALLYCKE".utf8)

    /// The suffix `FileSystem.replaceAtomically` gives the file it writes before the rename.
    static let temporarySuffix = LedgerDirectory.checkpointSuffix + LedgerDirectory.temporarySuffix

    /// The largest checkpoint file read (1 GiB); a larger one is rejected before it is read
    /// (STYLE 7) and the ledger opens by full replay. Checkpoints that would be larger are not
    /// written.
    static let fileBytesMax: Int64 = 1 << 30

    func write(_ checkpoint: Checkpoint) throws(JournalError) {
        let name = LedgerDirectory.checkpointFileName(sequenceNumber: checkpoint.sequenceNumber)
        let final = directory.appending(name)
        let fileSystem = self.fileSystem
        let bytes = try JournalError.catching("write checkpoint", final) { () throws(Errno) in try fileBytes(of: checkpoint) }
        guard Int64(bytes.count) <= Self.fileBytesMax else {
            throw .recordTooLarge(bytes: bytes.count, limit: Int(Self.fileBytesMax))
        }
        try JournalError.catching("write checkpoint", final) { () throws(Errno) in
            try fileSystem.replaceAtomically(final, with: bytes)
        }
        for old in try names().dropLast(keep) {
            let path = directory.appending(old)
            try? fileSystem.removeFile(at: path)
        }
    }

    /// Removes every checkpoint covering less than `sequenceNumber` (all of them by default)
    /// and any temporary file a crash left, durably: they hold texts of people forgotten since
    /// readable (P3).
    func removeAll(coveringLessThan sequenceNumber: UInt64 = .max) throws(JournalError) {
        try removeTemporaryFiles()
        let stale = try names().filter { name in
            LedgerDirectory.checkpointSequenceNumber(inName: name).map { $0 < sequenceNumber } ?? true
        }
        let fileSystem = self.fileSystem
        let directory = self.directory
        guard !stale.isEmpty else { return }
        for name in stale {
            try JournalError.catching("remove checkpoint", directory.appending(name)) { () throws(Errno) in
                try fileSystem.removeFile(at: directory.appending(name))
            }
        }
        try JournalError.catching("remove checkpoints", directory) { () throws(Errno) in
            try fileSystem.synchronizeDirectory(at: directory)
        }
    }

    /// Removes the temporary files (`*.checkpoint.tmp`) a crash during a write left behind;
    /// returns their names. Call it only while holding the writer lock.
    @discardableResult
    func removeTemporaryFiles() throws(JournalError) -> [String] {
        guard fileSystem.fileExists(at: directory) else { return [] }
        let fileSystem = self.fileSystem
        let directory = self.directory
        let leftovers = try listing().filter { $0.hasSuffix(Self.temporarySuffix) }.sorted()
        guard !leftovers.isEmpty else { return [] }
        for name in leftovers {
            try JournalError.catching("remove temporary checkpoint", directory.appending(name)) { () throws(Errno) in
                try fileSystem.removeFile(at: directory.appending(name))
            }
        }
        try JournalError.catching("remove temporary checkpoints", directory) { () throws(Errno) in
            try fileSystem.synchronizeDirectory(at: directory)
        }
        return leftovers
    }

    /// Checkpoint file names, oldest first; none when the folder is missing or a file stands in
    /// its place (the writer's open sets it aside: ``LedgerDirectory/makeDerivedFolder(_:fileSystem:)``).
    func names() throws(JournalError) -> [String] {
        guard fileSystem.fileExists(at: directory) else { return [] }
        return try listing().filter { $0.hasSuffix(LedgerDirectory.checkpointSuffix) }.sorted()
    }

    /// The folder's entries; none when a file stands in its place.
    private func listing() throws(JournalError) -> [String] {
        let fileSystem = self.fileSystem
        let directory = self.directory
        return try JournalError.catching("list checkpoints", directory) { () throws(Errno) in
            do throws(Errno) {
                return try fileSystem.contentsOfDirectory(at: directory)
            } catch .notDirectory {
                return []
            }
        }
    }

    /// Reads a checkpoint file.
    func read(_ name: String) throws(CheckpointDefect) -> Checkpoint {
        let path = directory.appending(name)
        let bytes: [UInt8]
        do {
            let file = try fileSystem.openFile(at: path, writable: false)
            let size = try file.size()
            guard size <= Self.fileBytesMax else { throw CheckpointDefect.tooLarge(bytes: size, limit: Self.fileBytesMax) }
            bytes = try file.readBytes(count: Int(size), at: 0)
        } catch let defect as CheckpointDefect {
            throw defect
        } catch let error as Errno {
            throw .stateUnreadable("\(name): \(JournalError(error, operation: "read checkpoint", path: path))")
        } catch {
            throw .stateUnreadable("\(name): \(error)")
        }
        guard bytes.starts(with: Self.sealedMagic) else { return try Checkpoint.decode(bytes) }
        guard let encryption else { throw .stateUnreadable("\(name) is encrypted and no key was given") }
        do {
            let plain = try encryption.openBlob(
                Array(bytes.dropFirst(Self.sealedMagic.count)), context: Self.sealedMagic,
                location: JournalLocation(segment: name, offset: 0))
            return try Checkpoint.decode(plain)
        } catch let defect as CheckpointDefect {
            throw defect
        } catch {
            throw .stateUnreadable("\(name): \(error)")
        }
    }

    private func fileBytes(of checkpoint: Checkpoint) throws(Errno) -> [UInt8] {
        let plain = checkpoint.encoded()
        guard let encryption else { return plain }
        guard let sealed = encryption.sealBlob(plain, context: Self.sealedMagic) else { throw .ioError }
        return Self.sealedMagic + sealed
    }
}
