import SystemPackage
import TallyJournal
import TallyTestSupport

extension FuzzTargets {
    /// Journal target: the input is the bytes of one or more segment files (a new segment starts
    /// at every `TALLYSEG` after the first byte), laid out in an in-memory file system and read
    /// through the real code paths: `JournalReader` (open, read all, read from the middle),
    /// `JournalVerifier` and `Journal.open` (recovery, which may cut a torn tail). The same
    /// bytes run a second time with every CRC32C recomputed, so mutations reach LZ4, AES-GCM and
    /// record framing instead of stopping at the checksum: a CRC guards against accidents, not
    /// against someone who writes the file.
    ///
    /// Asserts: no trap; only `JournalError` is thrown; records come out with consecutive
    /// sequence numbers ending at the reader's last sequence number; reading from the middle
    /// gives the same records as reading all; a clean verification reads back completely; after
    /// a successful recovery a reader sees no damage and the same last sequence number.
    /// - Throws: ``FuzzFinding`` when a property fails.
    public static func journalFrames(_ data: UnsafeRawBufferPointer) throws(FuzzFinding) {
        let segments = JournalImage.segments(in: Array(data))
        try checkJournal(segments)
        try checkJournal(segments.map(JournalImage.repairingChecksums))
    }

    private static func checkJournal(_ segments: [[UInt8]]) throws(FuzzFinding) {
        let directory = FilePath("/journal")
        let fileSystem = try JournalImage.fileSystem(holding: segments, in: directory)
        let keyed = segments.last.map(JournalImage.isKeyedChain) ?? false
        let chainKey = keyed ? JournalImage.chainKey : nil
        let encryption: JournalEncryption
        do {
            encryption = try JournalEncryption(keyID: 1, key: JournalImage.encryptionKey)
        } catch {
            throw FuzzFinding("the fixed test key was refused: \(error)")
        }
        let read = try readAll(directory: directory, fileSystem: fileSystem, encryption: encryption)
        let report: VerificationReport?
        do {
            report = try JournalVerifier.verify(
                at: directory, chainKey: chainKey, encryption: encryption, fileSystem: fileSystem)
        } catch {
            report = nil
        }
        if let report, report.isClean {
            guard let read else {
                throw FuzzFinding("the verifier found no problem but the reader could not open or read the journal")
            }
            try require(read.records.count == report.recordCount,
                        "the verifier counted \(report.recordCount) records, the reader read \(read.records.count)")
            try require(read.lastSequenceNumber == report.lastSequenceNumber,
                        "the verifier ends at sequence \(report.lastSequenceNumber), the reader at \(read.lastSequenceNumber)")
        }
        try checkRecovery(directory: directory, fileSystem: fileSystem, chainKey: chainKey, encryption: encryption)
    }

    private struct ReadResult {
        var lastSequenceNumber: UInt64
        var records: [JournalRecord]
    }

    /// Opens a reader and reads every record; nil when the journal cannot be read (a typed error).
    private static func readAll(
        directory: FilePath, fileSystem: any FileSystem, encryption: JournalEncryption
    ) throws(FuzzFinding) -> ReadResult? {
        let reader: JournalReader
        do {
            reader = try JournalReader.open(at: directory, fileSystem: fileSystem, encryption: encryption)
        } catch {
            return nil
        }
        guard let records = try journalErrorsAsNil({ try reader.records() }) else { return nil }
        if let first = records.first, let last = records.last {
            for (previous, next) in zip(records, records.dropFirst()) where next.sequenceNumber != previous.sequenceNumber &+ 1 {
                throw FuzzFinding("the reader served sequence \(next.sequenceNumber) after \(previous.sequenceNumber) without an error")
            }
            try require(last.sequenceNumber == reader.lastSequenceNumber,
                        "the reader's last record is \(last.sequenceNumber), its lastSequenceNumber \(reader.lastSequenceNumber)")
            let middle = first.sequenceNumber + UInt64(records.count / 2)
            if let suffix = try journalErrorsAsNil({ try reader.records(from: middle) }) {
                try require(suffix == Array(records.drop { $0.sequenceNumber < middle }),
                            "reading from sequence \(middle) differs from reading everything")
            }
        }
        return ReadResult(lastSequenceNumber: reader.lastSequenceNumber, records: records)
    }

    private static func checkRecovery(
        directory: FilePath, fileSystem: any FileSystem, chainKey: [UInt8]?, encryption: JournalEncryption
    ) throws(FuzzFinding) {
        var options = JournalOptions()
        options.chainKey = chainKey
        options.encryption = encryption
        let lastSequenceNumber: UInt64
        do {
            let journal = try Journal.open(at: directory, options: options, fileSystem: fileSystem)
            lastSequenceNumber = journal.lastSequenceNumber
            try journal.close()
        } catch {
            return
        }
        do {
            let reader = try JournalReader.open(at: directory, fileSystem: fileSystem, encryption: encryption)
            try require(reader.recoveryReport.problems.isEmpty,
                        "after recovery a reader still finds \(reader.recoveryReport.problems)")
            try require(reader.lastSequenceNumber == lastSequenceNumber,
                        "recovery ends at sequence \(lastSequenceNumber), a reader after it at \(reader.lastSequenceNumber)")
        } catch let error as FuzzFinding {
            throw error
        } catch {
            throw FuzzFinding("a journal that recovery opened cannot be opened by a reader: \(error)")
        }
    }

    /// Runs `body`; a `JournalError` becomes nil, any other error is a finding (the reading API
    /// promises to throw only `JournalError` for bad bytes).
    private static func journalErrorsAsNil<T>(_ body: () throws -> T) throws(FuzzFinding) -> T? {
        do {
            return try body()
        } catch is JournalError {
            return nil
        } catch {
            throw FuzzFinding("reading threw \(type(of: error)) instead of JournalError: \(error)")
        }
    }
}
