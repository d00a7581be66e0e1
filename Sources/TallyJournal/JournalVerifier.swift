import SystemPackage

/// The result of a full verification pass.
public struct VerificationReport: Sendable, Hashable {
    /// Segment files checked.
    public var segmentCount = 0
    /// Frames whose header and checksum were valid.
    public var frameCount = 0
    /// Records in those frames.
    public var recordCount = 0
    /// Bytes read.
    public var bytesVerified: Int64 = 0
    /// The last sequence number seen in a valid frame (0 when none).
    public var lastSequenceNumber: UInt64 = 0
    /// The chain value after the last valid frame.
    public var chainValue: ChainValue = .genesis
    /// Encrypted frames whose ciphertext was checked (CRC, chain) but not decrypted, because no
    /// key was given.
    public var encryptedFramesNotDecrypted = 0
    /// Every problem found, in journal order.
    public var problems: [JournalProblem] = []

    /// True when no problem was found.
    public var isClean: Bool { problems.isEmpty }
}

/// Full verification: every segment header, frame header, CRC32C, chain link, sequence
/// continuity, decompression and record framing. Unlike opening, it does not stop at the first
/// problem: after damage it searches for the next valid frame and goes on, so the report lists
/// every problem with its location.
public enum JournalVerifier {
    /// Verifies the journal in `directory`.
    ///
    /// - Parameters:
    ///   - chainKey: the HMAC key when the journal was written with one; without it a keyed
    ///     chain is reported as not verifiable.
    ///   - encryption: the keys of an encrypted journal; without them encrypted frames are checked
    ///     by CRC and chain only (`encryptedFramesNotDecrypted`), with them they are decrypted too.
    ///   - progress: called after each segment with bytes verified so far.
    /// - Throws: only when verification cannot run: `JournalError.journalNotFound`, `.ioFailure`.
    public static func verify(
        at directory: FilePath, chainKey: [UInt8]? = nil, encryption: JournalEncryption? = nil,
        fileSystem: any FileSystem = PosixFileSystem(), progress: ((Int64) -> Void)? = nil
    ) throws(JournalError) -> VerificationReport {
        let segments = try SegmentFiles.list(in: directory, fileSystem: fileSystem)
        guard !segments.isEmpty else { throw .journalNotFound(directory: directory.string) }
        var pass = VerificationPass(chain: HashChain(key: chainKey), encryption: encryption)
        for (index, segment) in segments.enumerated() {
            try pass.verify(segment, in: directory, fileSystem: fileSystem, isLast: index == segments.count - 1)
            progress?(pass.report.bytesVerified)
        }
        return pass.report
    }
}

private struct VerificationPass {
    let chain: HashChain
    let encryption: JournalEncryption?
    var report = VerificationReport()
    var expected: UInt64 = 1
    /// nil after damage: the next frame's link cannot be checked.
    var chainValue: ChainValue? = .genesis

    init(chain: HashChain, encryption: JournalEncryption?) {
        self.chain = chain
        self.encryption = encryption
    }

    mutating func verify(_ segment: SegmentFile, in directory: FilePath, fileSystem: any FileSystem, isLast: Bool) throws(JournalError) {
        report.segmentCount += 1
        let path = directory.appending(segment.name)
        let file = try withErrno("open", path) { () throws(Errno) in try fileSystem.openFile(at: path, writable: false) }
        let size = try withErrno("size", path) { () throws(Errno) in try file.size() }
        report.bytesVerified += size
        let header: SegmentHeader
        do {
            header = try JournalTail.readHeader(of: segment, in: directory, fileSystem: fileSystem, file: file)
        } catch {
            if case .corruption(let problem) = error { report.problems.append(problem) } else { throw error }
            chainValue = nil
            return
        }
        let start = JournalLocation(segment: segment.name, offset: 0, sequenceNumber: header.firstSequenceNumber)
        if header.firstSequenceNumber != expected {
            // Located at the sequence number expected there, as `Journal.open` reports it.
            var gap = start
            gap.sequenceNumber = expected
            add(.sequenceGap, gap, "segment starts at sequence \(header.firstSequenceNumber), expected \(expected): a segment is missing, misnumbered or out of place")
            expected = header.firstSequenceNumber
        }
        if header.isKeyedChain != chain.isKeyed {
            add(.chainMismatch, start, header.isKeyedChain
                ? "segment has a keyed (HMAC) chain; pass the chain key to verify it"
                : "segment has an unkeyed chain but a chain key was given")
        }
        if let chainValue, chainValue != header.chainStart {
            add(.segmentChainMismatch, start, "segment starts its chain from \(header.chainStart), the previous frame ended at \(chainValue)")
        }
        chainValue = header.chainStart
        let checkChain = header.isKeyedChain == chain.isKeyed
        var scanner = SegmentScanner(file: file, path: path, startOffset: Int64(SegmentHeader.size), endOffset: size)
        while true {
            switch try scanner.next() {
            case .end:
                return
            case .frame(let frame, let offset):
                verifyFrame(frame, at: offset, in: segment, scanner: scanner, checkChain: checkChain)
            case .damaged(let defect, let offset):
                let location = JournalLocation(segment: segment.name, offset: offset, sequenceNumber: expected)
                chainValue = nil
                var classified: (problem: JournalProblem, isTorn: Bool)?
                if isLast {
                    var probe = scanner
                    classified = try JournalTail.classifyDamage(
                        kind: defect.kind, detail: defect.detail, at: location, scanner: &probe, expected: expected, fileSize: size)
                    if let classified, classified.isTorn {
                        add(.tornTail, location, classified.problem.detail + "; opening for writing cuts them off")
                        return
                    }
                }
                guard let (_, next) = try scanner.findNextValidFrame(after: offset) else {
                    add(defect.kind, location, classified?.problem.detail ?? "\(defect.detail); nothing valid follows in this sealed segment")
                    return
                }
                add(defect.kind, location, defect.detail)
                add(.unreadableRange, location, "bytes \(offset)..<\(next) skipped up to the next valid frame")
                scanner.move(to: next)
            }
        }
    }

    private mutating func verifyFrame(
        _ frame: FrameHeader, at offset: Int64, in segment: SegmentFile, scanner: SegmentScanner, checkChain: Bool
    ) {
        let location = JournalLocation(segment: segment.name, offset: offset, sequenceNumber: frame.firstSequenceNumber)
        if frame.firstSequenceNumber != expected {
            add(.sequenceGap, location, "frame starts at sequence \(frame.firstSequenceNumber), expected \(expected)")
        }
        let (computed, records) = scanner.withFrameBytes(at: offset, frame) { bytes in
            (chainValue.map { FrameDecoder.chainValue(of: frame, frame: bytes, after: $0, chain: chain) },
             frame.isEncrypted && encryption == nil ? nil : FrameDecoder.records(of: frame, frame: bytes, encryption: encryption))
        }
        if records == nil { report.encryptedFramesNotDecrypted += 1 }
        if checkChain, let computed, computed != frame.chainValue {
            add(.chainMismatch, location, "stored chain value \(frame.chainValue) differs from the recomputed \(computed): the frame or one before it was altered")
        }
        if case .failure(let defect)? = records { add(defect.kind, location, defect.detail) }
        chainValue = frame.chainValue
        expected = frame.lastSequenceNumber + 1
        report.frameCount += 1
        report.recordCount += frame.recordCount
        report.lastSequenceNumber = frame.lastSequenceNumber
        report.chainValue = frame.chainValue
    }

    private mutating func add(_ kind: JournalProblem.Kind, _ location: JournalLocation, _ detail: String) {
        report.problems.append(JournalProblem(kind: kind, location: location, detail: detail))
    }
}
