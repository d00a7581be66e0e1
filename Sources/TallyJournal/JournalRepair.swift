import SystemPackage

/// The explicit repair of a damaged journal (`tally repair`): never done by opening, only when
/// a person asks for it after reading what it will drop.
///
/// It keeps the valid prefix, records `1...keptThrough`, and sets everything after it aside,
/// never deleting it: the bytes of the damaged segment from the damage on and every later
/// segment are moved into `setAsideDirectory`, where they can be examined or restored by hand.
public enum JournalRepair {
    /// What a repair would keep and set aside.
    public struct Plan: Sendable, Hashable {
        /// The last sequence number kept (0 when nothing valid remains).
        public var keptThrough: UInt64
        /// The segment cut at ``cutOffset`` (nil when whole segments are set aside only).
        public var cutSegment: String?
        /// Where the cut is made in ``cutSegment``.
        public var cutOffset: Int64
        /// Whole segment files set aside (after the cut, or shorter than a header).
        public var setAsideSegments: [String]
        /// Every problem that made the repair necessary, in journal order.
        public var problems: [JournalProblem]
        /// What is given up, one entry per piece set aside (the cut and each whole segment), in
        /// journal order: the segment and the records it held, as far as they can be told.
        public var losses: [Loss] = []
        /// When no segment is kept (the first one's header is cut or damaged): the empty first
        /// segment written in their place, so the journal opens as a new one does; nil otherwise.
        public var emptyFirstSegment: EmptyFirstSegment?

        /// True when the journal needs no repair.
        public var isEmpty: Bool { cutSegment == nil && setAsideSegments.isEmpty }

        /// A plan that keeps the journal as it is, through `keptThrough`.
        public static func keeping(through keptThrough: UInt64) -> Plan {
            Plan(keptThrough: keptThrough, cutSegment: nil, cutOffset: 0, setAsideSegments: [], problems: [])
        }
    }

    /// The first segment a repair writes when it keeps no segment: a header only, starting at
    /// sequence 1 from the genesis chain value, as `Journal.open` creates a new journal's.
    public struct EmptyFirstSegment: Sendable, Hashable {
        /// Whether its hash chain is keyed (HMAC), as the journal's was.
        public var isKeyedChain: Bool
    }

    /// Finds the valid prefix of the journal in `directory` and what lies after it. A torn tail
    /// is no damage (the writer's next open cuts it, keeping its bytes) unless asked for. Every
    /// cut or damaged byte of the journal is a case planned here: a segment whose header is cut
    /// (shorter than its 64 bytes), damaged or out of place ends the kept prefix at the segment
    /// before it and is set aside with every later one; when that is the first segment, nothing
    /// is kept and an empty first segment takes its place (``Plan/emptyFirstSegment``).
    /// - Throws: `JournalError.journalNotFound` (no segment files at all), `.ioFailure`,
    ///   `.notARegularFile` (a special file where a segment belongs).
    /// - Parameters:
    ///   - includingTornTail: cut a torn tail too (the ledger's evidence says records there
    ///     were acknowledged, so it is set aside here rather than cut by the next open).
    ///   - undecodable: damage the frame checks cannot see (a frame whose checksum was
    ///     recomputed but whose records do not decode or decrypt), found by the caller's
    ///     replay: the cut is made at the frame holding its sequence number.
    ///   - keyedChain: whether the journal's chain is keyed, for an empty first segment the
    ///     repair writes; nil to take what the journal's readable segment headers say
    ///     (unkeyed when none says).
    public static func plan(
        at directory: FilePath, encryption: JournalEncryption? = nil, fileSystem: any FileSystem = PosixFileSystem(),
        includingTornTail: Bool = false, undecodable: JournalProblem? = nil, keyedChain: Bool? = nil
    ) throws(JournalError) -> Plan {
        var plan = try prefixPlan(
            at: directory, encryption: encryption, fileSystem: fileSystem, includingTornTail: includingTornTail,
            undecodable: undecodable)
        guard !plan.isEmpty else { return plan }
        let all = try SegmentFiles.list(in: directory, fileSystem: fileSystem)
        plan.losses = losses(of: plan, segments: all, in: directory, fileSystem: fileSystem)
        if plan.cutSegment == nil, plan.setAsideSegments.count == all.count {
            plan.emptyFirstSegment = EmptyFirstSegment(
                isKeyedChain: keyedChain ?? Self.keyedChain(of: all, in: directory, fileSystem: fileSystem) ?? false)
        }
        return plan
    }

    /// The kept prefix, the cut and the segments set aside (``plan(at:encryption:fileSystem:includingTornTail:undecodable:keyedChain:)``
    /// without the losses).
    private static func prefixPlan(
        at directory: FilePath, encryption: JournalEncryption?, fileSystem: any FileSystem,
        includingTornTail: Bool, undecodable: JournalProblem?
    ) throws(JournalError) -> Plan {
        let all = try SegmentFiles.list(in: directory, fileSystem: fileSystem)
        // Every frame is read: damage before an index hint, which opening does not look for,
        // is what a repair is asked to find.
        let reader = try JournalReader.open(
            at: directory, fileSystem: fileSystem, encryption: encryption, evidence: nil, allowingDamage: true,
            usingIndex: false)
        // A torn tail is no damage (the writer's next open cuts it); missing records are the
        // ledger's concern (its evidence), not the journal's.
        let problems = reader.recoveryReport.problems.filter {
            $0.kind != .missingRecords && (includingTornTail || $0.kind != .tornTail)
        }
        guard let damage = problems.first else {
            guard let undecodable, let sequenceNumber = undecodable.location.sequenceNumber,
                  sequenceNumber <= reader.lastSequenceNumber
            else {
                return .keeping(through: reader.lastSequenceNumber)
            }
            let frame = reader.location(of: sequenceNumber)
            let keptSegments = all.prefix { $0.name <= frame.segment }.map(\.name)
            return Plan(
                keptThrough: (frame.sequenceNumber ?? sequenceNumber) - 1, cutSegment: frame.segment, cutOffset: frame.offset,
                setAsideSegments: all.map(\.name).filter { !keptSegments.contains($0) }, problems: [undecodable])
        }
        let kept = reader.segments.map(\.name)
        var plan = Plan(
            keptThrough: reader.lastSequenceNumber, cutSegment: nil, cutOffset: 0,
            setAsideSegments: all.map(\.name).filter { !kept.contains($0) }, problems: problems)
        if let last = kept.last, damage.location.segment == last {
            plan.cutSegment = last
            plan.cutOffset = reader.lastSegmentEnd
        }
        return plan
    }

    /// Carries out `plan`; the caller holds the writer lock (``Journal/lockWriter(at:fileSystem:)``).
    /// The cut bytes are copied into `setAsideDirectory` (synced) before the segment is
    /// truncated, whole segments are moved there, and both directories are synced.
    /// - Throws: I/O errors (`diskFull`, `ioFailure`).
    public static func apply(
        _ plan: Plan, at directory: FilePath, setAsideDirectory: FilePath, fileSystem: any FileSystem = PosixFileSystem()
    ) throws(JournalError) {
        guard !plan.isEmpty else { return }
        try withErrno("create directory", setAsideDirectory) { () throws(Errno) in
            if !fileSystem.fileExists(at: setAsideDirectory) { try fileSystem.createDirectory(at: setAsideDirectory) }
        }
        if let name = plan.cutSegment {
            let path = directory.appending(name)
            let file = try withErrno("open", path) { () throws(Errno) in try fileSystem.openFile(at: path, writable: true) }
            let size = try withErrno("size", path) { () throws(Errno) in try file.size() }
            guard size >= plan.cutOffset else {
                throw .ioFailure(operation: "repair (the segment is shorter than when the plan was made)", path: path.string, errno: Errno.ioError.rawValue)
            }
            let saved = setAsideDirectory.appending("\(name).from-\(plan.cutOffset)")
            try withErrno("save cut bytes", saved) { () throws(Errno) in
                try fileSystem.copyAtomically(file, from: plan.cutOffset, count: size - plan.cutOffset, to: saved)
            }
            try withErrno("truncate", path) { () throws(Errno) in
                try file.truncate(to: plan.cutOffset)
                try file.synchronize()
            }
        }
        for name in plan.setAsideSegments {
            let destination = setAsideDirectory.appending(name)
            try withErrno("set aside", directory.appending(name)) { () throws(Errno) in
                try fileSystem.rename(from: directory.appending(name), to: destination)
            }
            // Its index goes with it (a hint: the next writer would remove it otherwise).
            if let first = SegmentFiles.firstSequenceNumber(inName: name) {
                let index = SegmentIndex.fileName(of: SegmentFile(name: name, firstSequenceNumber: first))
                if fileSystem.fileExists(at: directory.appending(index)) {
                    try? fileSystem.rename(from: directory.appending(index), to: setAsideDirectory.appending(index))
                }
            }
        }
        if let empty = plan.emptyFirstSegment {
            // Nothing was kept: the journal starts again as a new one does (written whole,
            // synced and renamed into place), so the ledger opens and readers find a journal.
            try Journal.createSegment(
                SegmentHeader(firstSequenceNumber: 1, chainStart: .genesis, isKeyedChain: empty.isKeyedChain),
                in: directory, fileSystem: fileSystem)
        }
        try withErrno("sync", directory) { () throws(Errno) in
            try fileSystem.synchronizeDirectory(at: setAsideDirectory)
            try fileSystem.synchronizeDirectory(at: directory)
        }
    }
}
