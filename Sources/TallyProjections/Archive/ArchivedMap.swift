import HashTreeCollections
import TallyModel

/// The maps whose entries can live in the read-side store's `history` table, each with its own space there:
/// the one list of spaces, for the engine's state and the read models alike.
package enum ArchiveSpace: UInt8, Sendable, CaseIterable {
    /// The engine's command history entries (T5).
    case commandEntries = 1
    /// The engine's command history touches (T5): one row per (key, event).
    case touches = 2
    // 3 held the engine's own copy of the transactions, before the one book (state format v13).
    // 4 held the engine's own copy of the transfers, before the wallet book was its (state format v14).
    // 5 held the engine's own copy of the group expenses, before the debt book was its (state format v16).
    // 6 held the engine's own list of settlement ids, before the debt book was its (state format v15).
    // 7 held the transaction book's (category, transaction) index, before the book was the store's table (format 19).
    /// The one transaction book (``Projections``: T1-T3, W1, S1-S5, B2-B7), which the engine's
    /// validation state reads too. The store keeps it in its `transactions` table, which every
    /// commit writes (``isStoreTable``); its `history` rows are only the records a commit kept
    /// as of the last checkpoint, for a state restored from it.
    case transactions = 8
    /// ``WalletProjection``'s transfers (W6): the one book of them, which the engine's
    /// validation state reads too. The store keeps it in its `transfers` table, as the
    /// transaction book (``isStoreTable``).
    case walletTransfers = 9
    // 10 held the debt state's own copy of the transactions, before the one book (state format 10).
    /// ``DebtProjection``'s settlements (S6): the one book of them, which the engine's
    /// validation state reads too.
    case debtSettlements = 11
    /// ``DebtProjection``'s settled items (S6): which settlement covered each share, the one
    /// record of coverage, which the engine's validation state reads too.
    case debtSettledItems = 12
    /// ``DebtProjection``'s group expenses (S7): the one book of them, which the engine's
    /// validation state reads too.
    case debtGroupExpenses = 13
    // 14 held the budget state's own copy of the transactions, before the one book.
    // 15 held the budgets' (date, transaction) index, before the book was the store's table (format 19).
    /// ``Projections``' attachments (T6): the one book of them, keyed by item then digest, which
    /// the engine's validation state reads too.
    case attachments = 16

    /// Whether the store keeps this map in tables of its own that every commit writes, not in
    /// `history`: a checkpoint writes none of its entries, and a settled state reads them from
    /// those tables as of the checkpoint (`LedgerStore.bookRecord(_:key:asOf:)`, `StoreBook`).
    package var isStoreTable: Bool { self == .transactions || self == .walletTransfers }
}

/// Where an ``ArchivedMap`` reads the entries it does not hold: the `history` table of the
/// ledger's store, written by the checkpoint the map was settled against (`TallyStore`'s
/// `StoreHistory`).
package protocol ArchiveSource: AnyObject, Sendable {
    /// The value of `key` in `space`, or nil (absent, or the read failed: the source records it).
    func value(space: UInt8, key: [UInt8]) -> [UInt8]?
    /// The entries of `space` with keys in `lower...upper` (every entry when nil), in key order.
    func entries(space: UInt8, from lower: [UInt8]?, through upper: [UInt8]?) -> [(key: [UInt8], value: [UInt8])]
    /// Records bytes that could not be decoded: the engine then refuses to write.
    func failDecoding(_ reason: String)
    /// The entries of the transaction book (``ArchiveSpace/transactions``) that may match
    /// `filter` as the reading states' checkpoint saw them: at least every one that does (the
    /// caller filters: ``ArchivedMap/records(matching:where:)``).
    func bookEntries(matching filter: BookFilter) -> [(key: [UInt8], value: [UInt8])]
}

/// A range of the transaction book that the store answers with one of its `transactions`
/// indexes, not by reading every record.
package enum BookFilter: Sendable, Equatable {
    /// The transactions filed under a category, deleted ones included (C3).
    case category(CategoryID)
    /// The transactions with a business date in the range (a pay period: B1, B6).
    case dated(ClosedRange<LocalDate>)
    /// The transactions whose payee key (`TallyStore`'s `PayeeKey`) is this text, deleted ones
    /// included (category suggestions, Flow US-072).
    case payee(String)
}

/// One entry of an archived map: its map (`space`), its key and value in their binary forms.
public struct ArchiveRow: Sendable, Equatable {
    public var space: UInt8
    public var key: [UInt8]
    public var value: [UInt8]

    public init(space: UInt8, key: [UInt8], value: [UInt8]) {
        self.space = space
        self.key = key
        self.value = value
    }
}

/// A key or value stored in the store's `history` table, in its binary form.
/// Its requirements have names of their own: a type may also have the model's wire codec
/// (`write(to:)`, `init(from:)`, package access), and a module that sees both must not find
/// two candidates.
public protocol ArchiveCodable: Sendable {
    func writeArchive(to writer: inout BinaryWriter)
    init(archive reader: inout BinaryReader) throws(EventCodecError)
}

extension ArchiveCodable {
    package var archiveBytes: [UInt8] {
        var writer = BinaryWriter()
        writeArchive(to: &writer)
        return writer.bytes
    }

    /// Decodes archived bytes; a failure is recorded in `source` (the engine then refuses to
    /// write) and reads as absent.
    package static func decoded(_ bytes: [UInt8], reportingTo source: any ArchiveSource) -> Self? {
        var binary = BinaryReader(bytes)
        do {
            let value = try Self(archive: &binary)
            guard binary.remainingCount == 0 else { throw EventCodecError.invalidValue(field: "archive", reason: "trailing bytes", offset: binary.offset) }
            return value
        } catch {
            source.failDecoding("\(Self.self): \(error)")
            return nil
        }
    }
}

// In its wire encoding (the model's codec, which is package access: an archive key or
// value is public API, so the conformance forwards to it).
extension Identifier: ArchiveCodable {
    public func writeArchive(to writer: inout BinaryWriter) { writeWire(self, to: &writer) }
    public init(archive reader: inout BinaryReader) throws(EventCodecError) { self = try reader.read(Identifier.self) }
}


/// Writes `value` with the model's wire codec (a generic context picks the `WireValue` method).
package func writeWire<Value: WireValue>(_ value: Value, to writer: inout BinaryWriter) { value.write(to: &writer) }

/// A map whose entries live in the read-side store's `history` table (the "archive") once a
/// checkpoint wrote them (the transaction book's in the store's `transactions` table, which the
/// commits write: ``ArchiveSpace/isStoreTable``), and in memory (``resident``) until a
/// checkpoint settled them: memory holds what changed since the last checkpoint, not the
/// history. Without a store (a ledger on another file system, a replay) every entry is resident.
///
/// A value type like the state that holds it: copies share the resident entries' structure
/// (`TreeDictionary`). A stored row is a key's value as of the checkpoint that wrote it, and a
/// state settled against a checkpoint (`settle(written:reader:)`) holds every key changed since,
/// so the engine's own states read what they hold; a copy kept while the engine moves on would
/// read later values of what it does not hold, which is why the engine hands out detached
/// copies (`detached()`). Entries are never removed.
public struct ArchivedMap<Key: Hashable & ArchiveCodable, Value: Equatable & ArchiveCodable>: Sendable {
    package let space: ArchiveSpace
    /// Entries changed since the last checkpoint settled (all of them without an archive).
    package private(set) var resident: TreeDictionary<Key, Value> = [:]
    /// Where the other entries are.
    package private(set) var reader: (any ArchiveSource)?

    package init(space: ArchiveSpace) { self.space = space }

    /// A map of `entries`, all in memory.
    package init(space: ArchiveSpace, entries: TreeDictionary<Key, Value>) {
        self.space = space
        resident = entries
    }

    /// The entry of `key`: from memory, or read from the archive.
    public package(set) subscript(key: Key) -> Value? {
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

    /// Changes the entry of `key`, if there is one.
    package mutating func update(_ key: Key, _ change: (inout Value) -> Void) {
        guard var value = self[key] else { return }
        change(&value)
        resident[key] = value
    }

    /// The entry of `key` if it changed since the last checkpoint settled; the archive is not read.
    package func residentValue(forKey key: Key) -> Value? { resident[key] }

    /// The entries whose keys' bytes lie in `lower...upper` (everywhere when nil) and match
    /// `belongs` (a key range of the archive, such as every key with one prefix), archived and
    /// resident.
    package func entries(from lower: [UInt8]?, through upper: [UInt8]?, where belongs: (Key) -> Bool) -> TreeDictionary<Key, Value> {
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

    /// The rows a checkpoint of this map writes: its resident entries (none for a map the
    /// store's commits write, ``ArchiveSpace/isStoreTable``).
    package var archiveRows: some Sequence<ArchiveRow> {
        (space.isStoreTable ? [:] : resident).lazy.map { [space] entry in ArchiveRow(space: space.rawValue, key: entry.key.archiveBytes, value: entry.value.archiveBytes) }
    }

    /// After a checkpoint wrote `written` (a copy of this map as of then) to the archive that
    /// `reader` reads: drops the resident entries the archive now holds unchanged, and reads
    /// the others from `reader`.
    package mutating func settle(written: ArchivedMap, reader: any ArchiveSource) {
        for (key, value) in written.resident where resident[key] == value {
            resident[key] = nil
        }
        self.reader = reader
    }

    /// Reads the entries that are not resident from `reader` (a state restored from a checkpoint
    /// whose entries are all archived).
    package mutating func attach(_ reader: any ArchiveSource) { self.reader = reader }

    /// A copy with every entry in memory, which reads nothing from the archive.
    package func detached() -> ArchivedMap {
        var copy = ArchivedMap(space: space)
        copy.resident = allEntries
        return copy
    }

    /// Whether every entry is in memory (no archive behind it).
    package var isResident: Bool { reader == nil }
}

extension ArchivedMap: Equatable {
    /// Equal when they hold the same entries, wherever they are. Copies of one map (the book
    /// ``Projections`` lends its read models) compare in O(1): the same archive view and
    /// resident entries that share their storage (`TreeDictionary`'s `==` compares shared
    /// nodes by identity); only maps that differ there read the archive whole.
    public static func == (lhs: ArchivedMap, rhs: ArchivedMap) -> Bool {
        if lhs.reader == nil && rhs.reader == nil { return lhs.resident == rhs.resident }
        if let left = lhs.reader, let right = rhs.reader, left === right, lhs.resident == rhs.resident { return true }
        return lhs.allEntries == rhs.allEntries
    }
}

extension ArchivedMap: Hashable where Value: Hashable {
    /// Hashes the entries, wherever they are (consistent with `==`).
    public func hash(into hasher: inout Hasher) { hasher.combine(allEntries) }
}

extension ArchiveSource {
    /// Every entry of `space`, in key order.
    package func entries(space: UInt8) -> [(key: [UInt8], value: [UInt8])] { entries(space: space, from: nil, through: nil) }
}
