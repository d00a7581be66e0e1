import SystemPackage

/// The state of a journal's end, found by scanning the last segment: where the valid frames
/// end, the next sequence number and the chain value to continue from.
struct JournalTail: Sendable {
    /// The segments that can be read: all of them, or those through a damaged sealed one.
    var segments: [SegmentFile]
    var lastSegmentHeader: SegmentHeader
    /// Offset after the last valid frame of the last segment.
    var validEnd: Int64
    /// Size of the last segment file when scanned.
    var fileSize: Int64
    var nextSequenceNumber: UInt64
    var chainValue: ChainValue
    /// Damage after `validEnd`; `isTornTail` tells whether anything valid follows it.
    var damage: JournalProblem?
    var isTornTail: Bool
    /// The last valid frame of the last segment and its offset, when there is one.
    var lastFrame: (header: FrameHeader, offset: Int64)?
    /// What each segment's index should hold (`SegmentIndex`), for the writer to bring up to
    /// date; the last segment's is last. Empty when damage ended the scan in a sealed segment.
    var indexPlans: [SegmentIndexPlan] = []

    /// Reads every segment header (64 bytes each), checks that each segment continues the one
    /// before it (`SegmentContinuity`), checks the sealed segments (`SegmentContinuity.walk`)
    /// and scans the last segment's frames: all of them, or only those after the newest hint of
    /// its index (`SegmentIndex`) that verifies against the frame it names.
    ///
    /// Nothing but a clean end is decided on a hint's word: when the frames after a hint end in
    /// anything else, the whole segment is scanned again from its first frame and the verdict
    /// is taken from that scan.
    ///
    /// Damage in a sealed segment ends the scan there: `segments` then ends with that segment,
    /// `damage` says where, and `isTornTail` is false. Damage at the end of the last segment is
    /// a torn tail only when `TornWrite` says an interrupted append explains it.
    ///
    /// - Parameters:
    ///   - entryIntervalBytes: how far apart the index entries in `indexPlans` are.
    ///   - usingIndex: false to read every frame whatever the indexes say (`JournalRepair`).
    /// - Throws: `JournalError.corruption` (`badSegmentHeader`, `sequenceGap`,
    ///   `segmentChainMismatch`) naming the segment, offset 0 and the sequence expected there.
    static func scan(
        directory: FilePath, segments: [SegmentFile], lastFile: any JournalFile, fileSystem: any FileSystem,
        entryIntervalBytes: Int64 = SegmentIndex.entryIntervalBytes(segmentBytesMax: JournalOptions().segmentBytesMax),
        usingIndex: Bool = true
    ) throws(JournalError) -> JournalTail {
        guard let last = segments.last else { preconditionFailure("scan needs at least one segment") }
        var continuity = SegmentContinuity.journalStart
        var plans: [SegmentIndexPlan] = []
        for (index, segment) in segments.enumerated() where segment != last {
            let header = try readHeader(of: segment, in: directory, fileSystem: fileSystem)
            try continuity.check(header, of: segment)
            let walk = try SegmentContinuity.walk(
                segment, header: header, in: directory, fileSystem: fileSystem, entryIntervalBytes: entryIntervalBytes,
                usingIndex: usingIndex)
            if let damage = walk.damage {
                return JournalTail(
                    segments: Array(segments[...index]), lastSegmentHeader: header, validEnd: walk.validEnd,
                    fileSize: walk.fileSize, nextSequenceNumber: walk.end.nextSequenceNumber,
                    chainValue: walk.end.chainValue, damage: damage, isTornTail: false, lastFrame: nil)
            }
            continuity = walk.end
            plans.append(walk.indexPlan)
        }
        let header = try readHeader(of: last, in: directory, fileSystem: fileSystem, file: lastFile)
        try continuity.check(header, of: last)
        let path = directory.appending(last.name)
        let fileSize = try withErrno("size", path) { () throws(Errno) in try lastFile.size() }
        var scanner = SegmentScanner(
            file: lastFile, path: path, startOffset: Int64(SegmentHeader.size), endOffset: fileSize)
        let index = usingIndex ? SegmentIndex.load(of: last, header: header, in: directory, fileSystem: fileSystem) : nil
        let (position, stop) = try SegmentPosition.walk(
            header, index: index, scanner: &scanner, entryIntervalBytes: entryIntervalBytes)
        plans.append(position.indexPlan(for: last, header: header, index: index))
        var tail = JournalTail(
            segments: segments, lastSegmentHeader: header, validEnd: position.offset, fileSize: fileSize,
            nextSequenceNumber: position.nextSequenceNumber, chainValue: position.chainValue, damage: nil,
            isTornTail: true, lastFrame: position.lastFrame, indexPlans: plans)
        if case .damaged(let kind, let detail, let offset) = stop {
            let location = JournalLocation(segment: last.name, offset: offset, sequenceNumber: position.nextSequenceNumber)
            (tail.damage, tail.isTornTail) = try classifyDamage(
                kind: kind, detail: detail, at: location, scanner: &scanner, expected: position.nextSequenceNumber,
                fileSize: fileSize)
        }
        return tail
    }

    /// What damage at `location` in the last segment is, and the problem that says so: a torn
    /// write (`TornWrite`: a short frame or unwritten zeros, also zeros before a later valid
    /// frame that writeback persisted first) that the writer cuts and readers do not serve, or
    /// damage, refused. The one classification the writer, readers and the verifier share.
    static func classifyDamage(
        kind: JournalProblem.Kind, detail: String, at location: JournalLocation, scanner: inout SegmentScanner,
        expected: UInt64, fileSize: Int64
    ) throws(JournalError) -> (JournalProblem, isTorn: Bool) {
        let offset = location.offset
        var laterValidFrame: (FrameHeader, Int64)?
        var searchFrom = offset
        while let found = try scanner.findNextValidFrame(after: searchFrom) {
            if found.0.firstSequenceNumber >= expected {
                laterValidFrame = found
                break
            }
            searchFrom = found.1
        }
        let gapEnd = laterValidFrame?.1 ?? fileSize
        // Zeros before a later valid frame are a torn group commit only if that frame was
        // written before the damaged records were durable (its header says how many records
        // before it were unsynced): an acknowledged frame was synced, and with it every byte
        // before it, so damage to it is never cut.
        // (The search above only returns frames starting at `expected` or later.)
        let laterFrameWasWrittenFirst = laterValidFrame.map { frame, _ in
            frame.firstSequenceNumber - expected <= UInt64(frame.unsyncedRecordsBefore)
        } ?? true
        var isTorn = false
        if laterFrameWasWrittenFirst {
            isTorn = try TornWrite.explains(
                scanner.file, path: scanner.path, from: offset, to: gapEnd, reachesEndOfFile: laterValidFrame == nil)
        }
        switch (isTorn, laterValidFrame) {
        case (true, nil):
            return (JournalProblem(
                kind: .tornTail, location: location,
                detail: "\(fileSize - offset) bytes after the last complete frame (\(detail)): an interrupted write (a short frame or unwritten zero blocks), never acknowledged"), true)
        case (true, let (frame, frameOffset)?):
            return (JournalProblem(
                kind: .tornTail, location: location,
                detail: "unwritten zero blocks (\(detail)) before a frame at offset \(frameOffset) (sequence \(frame.firstSequenceNumber)) that writeback persisted first: the \(fileSize - offset) bytes from here were one group commit's unsynced writes, never acknowledged"), true)
        case (false, let (frame, frameOffset)?):
            return (JournalProblem(
                kind: kind, location: location,
                detail: "\(detail); a valid frame (sequence \(frame.firstSequenceNumber)) follows at offset \(frameOffset), so this is corruption, not a torn write"), false)
        case (false, nil):
            return (JournalProblem(
                kind: kind, location: location,
                detail: "\(detail); the last frame is complete (or not a frame at all) and its bytes are not what an interrupted write leaves (a short frame or zero blocks): damage to an acknowledged frame, not a torn write. Restore the segment from a backup, or cut it explicitly with `tally repair`"), false)
        }
    }

    /// Checks that `encryption` opens the last frame when it is encrypted, so a missing or wrong
    /// key is a typed error at open, never garbage later.
    func checkEncryptionKey(
        _ encryption: JournalEncryption?, file: any JournalFile, path: FilePath
    ) throws(JournalError) {
        guard let (frame, offset) = lastFrame, frame.isEncrypted else { return }
        let location = JournalLocation(
            segment: segments[segments.count - 1].name, offset: offset, sequenceNumber: frame.firstSequenceNumber)
        let bytes = try withErrno("read", path) { () throws(Errno) in try file.readBytes(count: frame.frameBytes, at: offset) }
        switch bytes.withUnsafeBytes({ FrameDecoder.records(of: frame, frame: $0, encryption: encryption) }) {
        case .success: return
        case .failure(.keyMissing(let keyID)): throw .encryptionKeyMissing(keyID: keyID, location: location)
        case .failure(.decryptionFailed(let keyID)): throw .wrongEncryptionKey(keyID: keyID, location: location)
        case .failure(let defect):
            throw .corruption(JournalProblem(kind: defect.kind, location: location, detail: defect.detail))
        }
    }

    /// Refuses a last segment shorter than a segment header. Segments are created whole (the
    /// header is written to a temporary file, synced and renamed into place), so no crash
    /// leaves one: a short, empty or zero-length segment was truncated or replaced.
    static func requireCompleteHeader(
        _ segment: SegmentFile, in directory: FilePath, fileSystem: any FileSystem
    ) throws(JournalError) {
        let path = directory.appending(segment.name)
        let size = try withErrno("size", path) { () throws(Errno) in
            try fileSystem.openFile(at: path, writable: false).size()
        }
        guard size < Int64(SegmentHeader.size) else { return }
        throw .corruption(JournalProblem(
            kind: .badSegmentHeader,
            location: JournalLocation(segment: segment.name, offset: 0, sequenceNumber: segment.firstSequenceNumber),
            detail: "segment is \(size) bytes, shorter than its \(SegmentHeader.size)-byte header; segments are created whole, so it was truncated or replaced, not torn by a crash. Restore it from a backup, or remove it explicitly with `tally repair`"))
    }

    static func readHeader(
        of segment: SegmentFile, in directory: FilePath, fileSystem: any FileSystem, file: (any JournalFile)? = nil
    ) throws(JournalError) -> SegmentHeader {
        let path = directory.appending(segment.name)
        let bytes = try withErrno("read segment header", path) { () throws(Errno) in
            let handle: any JournalFile
            if let file { handle = file } else { handle = try fileSystem.openFile(at: path, writable: false) }
            return try handle.readBytes(count: SegmentHeader.size, at: 0)
        }
        let decoded = bytes.withUnsafeBytes { SegmentHeader.decode($0) }
        switch decoded {
        case .failure(let defect):
            throw .corruption(JournalProblem(
                kind: .badSegmentHeader,
                location: JournalLocation(segment: segment.name, offset: 0, sequenceNumber: segment.firstSequenceNumber),
                detail: "\(defect.description) (the file name says the segment starts at sequence \(segment.firstSequenceNumber))"))
        case .success(let header):
            guard header.firstSequenceNumber == segment.firstSequenceNumber else {
                throw .corruption(JournalProblem(
                    kind: .badSegmentHeader,
                    location: JournalLocation(segment: segment.name, offset: 0, sequenceNumber: segment.firstSequenceNumber),
                    detail: "header says first sequence \(header.firstSequenceNumber), the file name says \(segment.firstSequenceNumber)"))
            }
            return header
        }
    }
}
