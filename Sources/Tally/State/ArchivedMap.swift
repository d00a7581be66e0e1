import HashTreeCollections
import TallyModel
import TallyStore

/// The maps whose entries can live in the checkpoint archive, each with its own space there.
enum ArchiveSpace: UInt8 {
    /// `CommandHistory.entries` (T5).
    case commandEntries = 1
    /// `CommandHistory.touches` (T5): one row per (key, event).
    case touches = 2
    /// `LedgerState.transactions` (T1-T3).
    case transactions = 3
    /// `LedgerState.transfers` (W6).
    case transfers = 4
    /// `LedgerState.groupExpenses` (S7).
    case groupExpenses = 5
    /// `LedgerState.settlements` (S6).
    case settlements = 6
    /// `LedgerState.categoryMembers` (C3): one row per (category, transaction).
    case categoryMembers = 7
}

/// A key or value stored in the checkpoint archive, in its binary form (the model's wire
/// encoding).
public protocol ArchiveCodable: Sendable {
    func write(to writer: inout BinaryWriter)
    init(from reader: inout BinaryReader) throws(EventCodecError)
}

extension ArchiveCodable {
    var archiveBytes: [UInt8] {
        var writer = BinaryWriter()
        write(to: &writer)
        return writer.bytes
    }

    /// Decodes archived bytes; a failure is recorded in `reader` (the engine then refuses to
    /// write) and reads as absent.
    static func decoded(_ bytes: [UInt8], reportingTo reader: ArchiveReader) -> Self? {
        var binary = BinaryReader(bytes)
        do {
            let value = try Self(from: &binary)
            guard binary.remainingCount == 0 else { throw EventCodecError.invalidValue(field: "archive", reason: "trailing bytes", offset: binary.offset) }
            return value
        } catch {
            reader.fail(StoreError.invalidRow(path: reader.archive.path, table: "entries", reason: "\(Self.self): \(error)"))
            return nil
        }
    }
}

extension Identifier: ArchiveCodable {
    public func write(to writer: inout BinaryWriter) { writer.write(self) }
    public init(from reader: inout BinaryReader) throws(EventCodecError) { self = try reader.read() }
}

extension Bool: ArchiveCodable {
    public func write(to writer: inout BinaryWriter) { writer.write(self) }
    public init(from reader: inout BinaryReader) throws(EventCodecError) { self = try reader.read() }
}

/// A map whose entries live in the checkpoint archive once a checkpoint wrote them, and in
/// memory (``resident``) until then: memory holds what changed since the last checkpoint, not
/// the history. Without an archive (a ledger on another file system, a replay) every entry is
/// resident.
///
/// A value type like the state that holds it: copies share the resident entries' structure
/// (`TreeDictionary`), and the archive is only ever read as of a checkpoint the state has
/// settled against (`settle(written:reader:)`), so every copy reads what it holds.
/// Entries are never removed.
public struct ArchivedMap<Key: Hashable & ArchiveCodable, Value: Equatable & ArchiveCodable>: Sendable {
    let space: ArchiveSpace
    /// Entries changed since the last checkpoint settled (all of them without an archive).
    private(set) var resident: TreeDictionary<Key, Value> = [:]
    /// Where the other entries are.
    private(set) var reader: ArchiveReader?
    /// Resident keys whose entry was read from the archive and changed: their older versions
    /// are what a checkpoint prunes (a new key has none).
    private var rewritten: TreeSet<Key> = []

    init(space: ArchiveSpace) { self.space = space }

    /// The entry of `key`: from memory, or read from the archive.
    public internal(set) subscript(key: Key) -> Value? {
        get {
            if let value = resident[key] { return value }
            guard let reader, let bytes = reader.value(space: space.rawValue, key: key.archiveBytes) else { return nil }
            return Value.decoded(bytes, reportingTo: reader)
        }
        set {
            guard let newValue else { return }  // entries are never removed
            resident[key] = newValue
        }
    }

    /// Every entry, archived and resident: O(entries), reading the whole space of the archive.
    /// For exports, tools and comparisons; validation reads single entries.
    public var allEntries: TreeDictionary<Key, Value> {
        guard reader != nil else { return resident }
        return entries(from: nil, through: nil, where: { _ in true })
    }

    /// Changes the entry of `key`, if there is one. Entries that exist are changed through
    /// here, so that a checkpoint knows which archived versions it replaces (``rewritten``).
    mutating func update(_ key: Key, _ change: (inout Value) -> Void) {
        let wasResident = resident[key] != nil
        guard var value = self[key] else { return }
        change(&value)
        resident[key] = value
        if !wasResident && reader != nil { rewritten.insert(key) }
    }

    /// The entry of `key` if it changed since the last checkpoint settled; the archive is not read.
    func residentValue(forKey key: Key) -> Value? { resident[key] }

    /// The entries whose keys' bytes lie in `lower...upper` (everywhere when nil) and match
    /// `belongs` (a key range of the archive, such as every key with one prefix), archived and
    /// resident.
    func entries(from lower: [UInt8]?, through upper: [UInt8]?, where belongs: (Key) -> Bool) -> TreeDictionary<Key, Value> {
        guard let reader else { return resident.filter { belongs($0.key) } }
        var found: TreeDictionary<Key, Value> = [:]
        for (keyBytes, valueBytes) in reader.entries(space: space.rawValue, from: lower, through: upper) {
            guard let key = Key.decoded(keyBytes, reportingTo: reader),
                  let value = Value.decoded(valueBytes, reportingTo: reader) else { continue }
            found[key] = value
        }
        for (key, value) in resident where belongs(key) { found[key] = value }
        return found
    }

    /// The rows a checkpoint of this map writes: its resident entries.
    var archiveRows: some Sequence<ArchiveRow> {
        resident.lazy.map { [space] entry in ArchiveRow(space: space.rawValue, key: entry.key.archiveBytes, value: entry.value.archiveBytes) }
    }

    /// The rows of the resident entries that replace an archived version (see ``rewritten``).
    var rewrittenRows: some Sequence<ArchiveRow> {
        rewritten.lazy.compactMap { [space, resident] key in
            resident[key].map { ArchiveRow(space: space.rawValue, key: key.archiveBytes, value: $0.archiveBytes) }
        }
    }

    /// After a checkpoint wrote `written` (a copy of this map as of then) to the archive that
    /// `reader` reads: drops the resident entries the archive now holds unchanged, and reads
    /// the others from `reader`.
    mutating func settle(written: ArchivedMap, reader: ArchiveReader) {
        for (key, value) in written.resident where resident[key] == value {
            resident[key] = nil
        }
        rewritten = rewritten.filter { resident[$0] != nil }
        self.reader = reader
    }

    /// Reads the entries that are not resident from `reader` (a state restored from a checkpoint
    /// whose entries are all archived).
    mutating func attach(_ reader: ArchiveReader) { self.reader = reader }

    /// A copy with every entry in memory, which reads nothing from the archive.
    func detached() -> ArchivedMap {
        var copy = ArchivedMap(space: space)
        copy.resident = allEntries
        return copy
    }

    /// Whether every entry is in memory (no archive behind it).
    var isResident: Bool { reader == nil }
}

extension ArchivedMap: Equatable {
    /// Equal when they hold the same entries, wherever they are.
    public static func == (lhs: ArchivedMap, rhs: ArchivedMap) -> Bool {
        if lhs.reader == nil && rhs.reader == nil { return lhs.resident == rhs.resident }
        return lhs.allEntries == rhs.allEntries
    }
}
