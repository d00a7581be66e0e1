import SystemPackage

extension JournalRepair {
    /// One piece of the journal a repair gives up (the bytes after the cut, or a whole segment
    /// set aside) and the records it held, as far as the files can tell: what `tally repair`
    /// prints as a `LOST:` line before anything is changed.
    public struct Loss: Sendable, Hashable, CustomStringConvertible {
        /// The segment file.
        public var segment: String
        /// Where in it the given-up bytes start: the cut, or 0 for the whole segment.
        public var offset: Int64
        /// The first record given up in it: after the kept prefix for the cut, else the one
        /// its file name announces.
        public var firstSequenceNumber: UInt64
        /// The last record it held: the record before the next piece's first, or for the
        /// last piece the end of its valid frames; nil when nothing tells (the header is cut
        /// or damaged, or damage hides where its frames end). Below ``firstSequenceNumber``
        /// when it held none.
        public var lastSequenceNumber: UInt64?
        /// For a segment shorter than its 64-byte header (cut inside it): the bytes left.
        public var headerBytes: Int?

        /// `00000000000000000051.segment is cut inside its 64-byte header (10 bytes are left):
        /// its file name announces records from 51; records 51... cannot be recovered`.
        public var description: String {
            let records: String
            switch lastSequenceNumber {
            case .some(let last) where last < firstSequenceNumber: records = "it held no records"
            case .some(let last): records = "records \(firstSequenceNumber)...\(last) cannot be recovered"
            case .none: records = "records \(firstSequenceNumber)... (as many as it held) cannot be recovered"
            }
            if let headerBytes {
                return "\(segment) is cut inside its \(SegmentHeader.size)-byte header (\(headerBytes) bytes are left): its file name announces records from \(firstSequenceNumber); \(records)"
            }
            if offset > 0 { return "\(segment) from offset \(offset): \(records)" }
            return "\(segment) (its file name announces records from \(firstSequenceNumber)) is set aside whole: \(records)"
        }
    }

    /// The pieces `plan` gives up, in journal order, with the records each held.
    static func losses(of plan: Plan, segments all: [SegmentFile], in directory: FilePath, fileSystem: any FileSystem) -> [Loss] {
        var pieces: [(segment: SegmentFile, offset: Int64, first: UInt64)] = []
        if let cut = plan.cutSegment, let segment = all.first(where: { $0.name == cut }) {
            pieces.append((segment, plan.cutOffset, plan.keptThrough + 1))
        }
        for segment in all where plan.setAsideSegments.contains(segment.name) {
            pieces.append((segment, 0, segment.firstSequenceNumber))
        }
        return pieces.indices.map { index in
            let piece = pieces[index]
            let path = directory.appending(piece.segment.name)
            let size = try? fileSystem.openFile(at: path, writable: false).size()
            let headerBytes = piece.offset == 0 ? size.flatMap { $0 < Int64(SegmentHeader.size) ? Int($0) : nil } : nil
            var last: UInt64?
            if index + 1 < pieces.count {
                last = pieces[index + 1].first - 1
            } else if piece.offset == 0, headerBytes == nil {
                last = lastRecord(in: piece.segment, directory: directory, fileSystem: fileSystem)
            }
            return Loss(
                segment: piece.segment.name, offset: piece.offset, firstSequenceNumber: piece.first,
                lastSequenceNumber: last, headerBytes: headerBytes)
        }
    }

    /// The last record of `segment`'s valid frames when its header reads and its frames end
    /// cleanly; nil otherwise.
    private static func lastRecord(in segment: SegmentFile, directory: FilePath, fileSystem: any FileSystem) -> UInt64? {
        guard let header = try? JournalTail.readHeader(of: segment, in: directory, fileSystem: fileSystem),
              let walk = try? SegmentContinuity.walk(
                segment, header: header, in: directory, fileSystem: fileSystem,
                entryIntervalBytes: SegmentIndex.entryIntervalBytes(segmentBytesMax: JournalOptions().segmentBytesMax),
                usingIndex: false),
              walk.damage == nil
        else { return nil }
        return walk.end.nextSequenceNumber - 1
    }

    /// Whether the journal's chain is keyed, as the first segment header that reads says (or
    /// the flags of a cut header whose magic is intact); nil when none says.
    static func keyedChain(of segments: [SegmentFile], in directory: FilePath, fileSystem: any FileSystem) -> Bool? {
        var partial: Bool?
        for segment in segments {
            if let header = try? JournalTail.readHeader(of: segment, in: directory, fileSystem: fileSystem) {
                return header.isKeyedChain
            }
            let path = directory.appending(segment.name)
            guard partial == nil, let bytes = try? fileSystem.openFile(at: path, writable: false).readBytes(count: 12, at: 0),
                  bytes.count == 12, bytes.prefix(8).elementsEqual(SegmentHeader.magic)
            else { continue }
            partial = bytes[10] & UInt8(SegmentHeader.keyedChainFlag) != 0
        }
        return partial
    }
}
