import SystemPackage

/// Reads records from a journal: a snapshot of its segments taken when the reader was made.
/// Every frame's CRC32C is checked before its payload is decompressed; damage throws
/// `JournalError.corruption` with its location, never wrong data.
public struct JournalReader: Sendable {
    /// The journal's directory.
    public let directory: FilePath
    /// The last sequence number this reader serves (0 when empty).
    public let lastSequenceNumber: UInt64
    /// For `open(at:)`: the damage that ends the readable prefix, if any.
    public let recoveryReport: RecoveryReport
    let fileSystem: any FileSystem
    let segments: [SegmentFile]
    /// Reading of the last segment stops here (a torn or damaged tail is never served).
    let lastSegmentEnd: Int64
    let encryption: JournalEncryption?

    init(
        directory: FilePath, fileSystem: any FileSystem, segments: [SegmentFile], lastSegmentEnd: Int64,
        lastSequenceNumber: UInt64, encryption: JournalEncryption?, recoveryReport: RecoveryReport
    ) {
        self.directory = directory
        self.fileSystem = fileSystem
        self.segments = segments
        self.lastSegmentEnd = lastSegmentEnd
        self.lastSequenceNumber = lastSequenceNumber
        self.encryption = encryption
        self.recoveryReport = recoveryReport
    }

    /// Opens a journal read-only, without the writer lock: it may be read while a writer
    /// appends. A torn tail (an append in progress or interrupted, see `TornWrite`) is not
    /// served and is listed in `recoveryReport.problems`; damage anywhere else is refused.
    /// Only the frames after the newest verified hint of each segment's index are read (see
    /// `Journal.open`); the reader never writes an index.
    ///
    /// - Parameters:
    ///   - encryption: the keys of an encrypted journal.
    ///   - evidence: what other files prove was acknowledged; a shorter journal is refused.
    ///   - allowingDamage: serve the valid prefix before damage (a damaged frame, a damaged or
    ///     short segment, records missing against `evidence`) instead of refusing; every problem
    ///     is listed in `recoveryReport.problems`, so the caller can say what was dropped. A
    ///     segment whose header is cut or damaged, or that does not continue the one before it,
    ///     ends the prefix at the segment before it (no records when it is the first).
    /// - Throws: `JournalError.journalNotFound` (no segment files); `.corruption` naming segment, offset and
    ///   sequence for damage anywhere (a frame, a segment header, a segment that does not
    ///   continue the one before it) unless `allowingDamage`; `.journalShorterThanEvidence`;
    ///   `.encryptionKeyMissing` / `.wrongEncryptionKey`, `.notARegularFile`, `.ioFailure`.
    public static func open(
        at directory: FilePath, fileSystem: any FileSystem = PosixFileSystem(), encryption: JournalEncryption? = nil,
        evidence: JournalEvidence? = nil, allowingDamage: Bool = false
    ) throws(JournalError) -> JournalReader {
        try open(
            at: directory, fileSystem: fileSystem, encryption: encryption, evidence: evidence,
            allowingDamage: allowingDamage, usingIndex: true)
    }

    /// ``open(at:fileSystem:encryption:evidence:allowingDamage:)``, reading every frame of
    /// every segment when `usingIndex` is false (`JournalRepair` looks for damage anywhere).
    static func open(
        at directory: FilePath, fileSystem: any FileSystem, encryption: JournalEncryption?,
        evidence: JournalEvidence?, allowingDamage: Bool, usingIndex: Bool
    ) throws(JournalError) -> JournalReader {
        var segments = try SegmentFiles.list(in: directory, fileSystem: fileSystem)
        var report = RecoveryReport()
        var opened: (tail: JournalTail, file: any JournalFile, path: FilePath)?
        while opened == nil, let last = segments.last {
            do {
                try JournalTail.requireCompleteHeader(last, in: directory, fileSystem: fileSystem)
                let path = directory.appending(last.name)
                let file = try withErrno("open", path) { () throws(Errno) in try fileSystem.openFile(at: path, writable: false) }
                let tail = try JournalTail.scan(
                    directory: directory, segments: segments, lastFile: file, fileSystem: fileSystem, usingIndex: usingIndex)
                opened = (tail, file, path)
            } catch .corruption(let problem) where allowingDamage {
                // A segment whose header is cut, damaged or out of place ends the readable
                // prefix at the segment before it (none when it is the first).
                guard let unreadable = Self.unreadableSegment(problem, in: segments) else { throw .corruption(problem) }
                segments.removeSubrange(unreadable...)
                report.problems.insert(problem, at: 0)
            }
        }
        guard let opened else {
            guard allowingDamage, !report.problems.isEmpty else {
                if let evidence, !allowingDamage { try evidence.check(journalEndsAt: 0) }
                throw .journalNotFound(directory: directory.string)
            }
            return try emptyPrefix(
                directory: directory, fileSystem: fileSystem, encryption: encryption, evidence: evidence, report: report)
        }
        let (tail, file, path) = opened
        if let damage = tail.damage {
            if !tail.isTornTail && !allowingDamage { throw .corruption(damage) }
            report.problems.insert(damage, at: 0)
        }
        let lastSequenceNumber = tail.nextSequenceNumber - 1
        if let evidence {
            do {
                try evidence.check(journalEndsAt: lastSequenceNumber)
            } catch where allowingDamage {
                report.problems.append(JournalProblem(
                    kind: .missingRecords,
                    location: JournalLocation(segment: tail.segments[tail.segments.count - 1].name, offset: tail.validEnd, sequenceNumber: lastSequenceNumber + 1),
                    detail: "records \(lastSequenceNumber + 1)...\(evidence.lastSequenceNumber) are missing: \(evidence.source) proves them acknowledged"))
            }
        }
        if tail.segments.count == segments.count {
            try tail.checkEncryptionKey(encryption, file: file, path: path)
        }
        report.segmentCount = tail.segments.count
        report.lastSequenceNumber = lastSequenceNumber
        return JournalReader(
            directory: directory, fileSystem: fileSystem, segments: tail.segments, lastSegmentEnd: tail.validEnd,
            lastSequenceNumber: lastSequenceNumber, encryption: encryption, recoveryReport: report)
    }

    /// The index in `segments` of the segment `problem` says cannot be read at all (its header
    /// is cut or damaged, or it does not continue the segment before it: every such problem is
    /// located at offset 0); nil for damage inside a segment's frames.
    private static func unreadableSegment(_ problem: JournalProblem, in segments: [SegmentFile]) -> Int? {
        let kinds: Set<JournalProblem.Kind> = [.badSegmentHeader, .sequenceGap, .segmentChainMismatch]
        guard problem.location.offset == 0, kinds.contains(problem.kind) else { return nil }
        return segments.firstIndex { $0.name == problem.location.segment }
    }

    /// A reader of no records, for a journal whose first segment cannot be read when damage is
    /// allowed: `report` lists why, and the evidence's records are listed as missing.
    private static func emptyPrefix(
        directory: FilePath, fileSystem: any FileSystem, encryption: JournalEncryption?, evidence: JournalEvidence?,
        report: RecoveryReport
    ) throws(JournalError) -> JournalReader {
        var report = report
        if let evidence, evidence.lastSequenceNumber > 0 {
            report.problems.append(JournalProblem(
                kind: .missingRecords,
                location: JournalLocation(segment: report.problems.first?.location.segment ?? "", offset: 0, sequenceNumber: 1),
                detail: "records 1...\(evidence.lastSequenceNumber) are missing: \(evidence.source) proves them acknowledged"))
        }
        return JournalReader(
            directory: directory, fileSystem: fileSystem, segments: [], lastSegmentEnd: 0, lastSequenceNumber: 0,
            encryption: encryption, recoveryReport: report)
    }

    /// Calls `body` with every record from `start` through `end` (default: the last), in order.
    /// Seeks to `start` through segment names, the segment's index (`SegmentIndex`: a hint
    /// verified against its frame) and frame headers, without decoding payloads before it.
    /// Return `false` from `body` to stop early.
    public func forEachRecord(
        from start: UInt64 = 1, through end: UInt64? = nil, _ body: (JournalRecord) throws -> Bool
    ) throws {
        let last = min(end ?? lastSequenceNumber, lastSequenceNumber)
        guard start <= last else { return }
        try forEachFrame(from: start) { frame in
            for record in frame.records where record.sequenceNumber >= start {
                if record.sequenceNumber > last { return false }
                if try !body(record) { return false }
            }
            return frame.lastSequenceNumber < last
        }
    }

    /// All records from `start` through `end`, in order.
    public func records(from start: UInt64 = 1, through end: UInt64? = nil) throws -> [JournalRecord] {
        var records: [JournalRecord] = []
        try forEachRecord(from: start, through: end) { record in
            records.append(record)
            return true
        }
        return records
    }

    /// Calls `body` with every decoded frame starting with the one holding `start`.
    /// Return `false` from `body` to stop early.
    public func forEachFrame(from start: UInt64 = 1, _ body: (JournalFrame) throws -> Bool) throws {
        var cursor = frameCursor(from: start)
        while let frame = try cursor.next() {
            if try !body(frame) { return }
        }
    }

    /// A cursor over the decoded frames starting with the one holding `start` (none when
    /// `start` is past the last sequence number): one frame in memory at a time.
    public func frameCursor(from start: UInt64 = 1) -> JournalFrameCursor {
        JournalFrameCursor(reader: self, from: start)
    }

    /// Where the frame holding `sequenceNumber` starts, found through segment names, the
    /// segment's index (a hint verified against its frame) and frame headers only (its payload
    /// need not decode: this locates damage). The segment's first frame when the headers cannot
    /// be walked.
    public func location(of sequenceNumber: UInt64) -> JournalLocation {
        guard !segments.isEmpty else { return JournalLocation(segment: "", offset: 0, sequenceNumber: sequenceNumber) }
        let index = segmentIndex(holding: sequenceNumber)
        let segment = segments[index]
        var location = JournalLocation(segment: segment.name, offset: Int64(SegmentHeader.size), sequenceNumber: segment.firstSequenceNumber)
        let path = directory.appending(segment.name)
        guard let file = try? fileSystem.openFile(at: path, writable: false),
              let end = index == segments.count - 1 ? lastSegmentEnd : try? file.size()
        else { return location }
        var scanner = SegmentScanner(file: file, path: path, startOffset: Int64(SegmentHeader.size), endOffset: end)
        let hints = SegmentIndex.load(
            of: segment, firstSequenceNumber: segment.firstSequenceNumber, chainStart: nil, in: directory, fileSystem: fileSystem)
        do {
            _ = try scanner.seek(to: sequenceNumber, index: hints, segmentStart: segment.firstSequenceNumber)
        } catch {
            return location
        }
        guard let bytes = try? file.readBytes(count: FrameHeader.size, at: scanner.offset),
              case .success(let header) = bytes.withUnsafeBytes({ FrameHeader.decode($0) })
        else { return location }
        location.offset = scanner.offset
        location.sequenceNumber = header.firstSequenceNumber
        return location
    }

    /// The index of the last segment whose first sequence number is at most `sequenceNumber`.
    func segmentIndex(holding sequenceNumber: UInt64) -> Int {
        var low = 0
        var high = segments.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if segments[middle].firstSequenceNumber <= sequenceNumber { low = middle } else { high = middle - 1 }
        }
        return low
    }
}

/// One decoded frame: the records of one `append`, and where it is stored.
public struct JournalFrame: Sendable, Hashable {
    /// The segment file that holds it.
    public var segment: String
    /// Its byte offset in the segment.
    public var offset: Int64
    /// Its first record's sequence number.
    public var firstSequenceNumber: UInt64
    /// Payload bytes on disk (after compression).
    public var storedBytes: Int
    /// Payload bytes before compression.
    public var rawBytes: Int
    /// Whether the payload is LZ4-compressed.
    public var isCompressed: Bool
    /// The chain value after this frame.
    public var chainValue: ChainValue
    /// Its records, in order.
    public var records: [JournalRecord]

    /// Its last record's sequence number.
    public var lastSequenceNumber: UInt64 { firstSequenceNumber + UInt64(records.count) - 1 }
}
