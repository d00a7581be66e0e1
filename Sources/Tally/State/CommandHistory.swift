import HashTreeCollections
import TallyModel
import TallyProjections
import TallyStore

/// What every command did, for undo and redo (T5). Folded from events like the rest of the
/// state, so it survives restarts; history keeps everything (nothing is ever removed). What
/// changed since the last checkpoint is in memory; the rest is in the store's history
/// (``ArchivedMap``), read when an undo, a redo or a duplicate command id needs it.
package struct CommandHistory: Sendable {
    /// One command's effect.
    package struct Entry: Sendable, Equatable {
        /// The sequence number of its first event.
        package var firstSequenceNumber: UInt64
        /// For an undo or redo command: the command it acted on.
        package var target: CommandID?
        /// The keys its own events own (automatic `PeriodClosed` events excluded).
        package var owned: Set<EntityKey> = []
        /// The compensating events of each of its events, in event order; undo appends them in
        /// reverse. For an undo command these are what a redo appends.
        package var compensation: [[EventPayload]] = []
        /// The first of its events that has no compensating event, if any.
        package var irreversibleTag: EventTag?
        /// Whether it is currently undone.
        package var isUndone = false
        /// The undo command that last undid it.
        package var lastUndo: CommandID?
        /// How many events it produced besides automatic period closes.
        package var effectCount = 0
    }

    /// One event touching a key.
    package struct Touch: Sendable, Equatable {
        /// The event's sequence number.
        package var sequenceNumber: UInt64
        /// The event's type.
        package var tag: EventTag
        /// The command whose effect it is part of: its own command, or for the events of an
        /// undo or redo, the command undone or redone.
        package var chain: CommandID
    }

    /// Entries by command id (resident since the last checkpoint, archived before).
    private(set) var entries = ArchivedMap<CommandID, Entry>(space: .commandEntries)
    /// Events touching each key since the last checkpoint; older ones are in the archive, one
    /// row per key and checkpoint (``TouchRow``).
    private(set) var recentTouches: TreeDictionary<EntityKey, TreeDictionary<UInt64, Touch>> = [:]

    /// Creates an empty history.
    package init() {}

    /// The entry of `command`, if it was executed.
    package func entry(for command: CommandID) -> Entry? { entries[command] }

    /// Sets the entry of `command`.
    mutating func setEntry(_ entry: Entry, for command: CommandID) { entries[command] = entry }

    /// Changes the entry of `command`, if it exists.
    mutating func updateEntry(for command: CommandID, _ change: (inout Entry) -> Void) {
        entries.update(command, change)
    }

    /// The entry of `command` if its events are being applied right now (its earlier events
    /// were applied since the last checkpoint: a command's events are contiguous and a
    /// checkpoint falls between frames), without reading the archive.
    func entryBeingApplied(for command: CommandID) -> Entry? { entries.residentValue(forKey: command) }

    /// The events touching `key`, in sequence order.
    package func touches(of key: EntityKey) -> [Touch] {
        var all: [UInt64: Touch] = [:]
        if let reader = entries.reader {
            let prefix = TouchRow.prefix(of: key)
            for (bytes, value) in reader.entries(space: ArchiveSpace.touches.rawValue, from: TouchRow.lowerBound(prefix), through: TouchRow.upperBound(prefix)) {
                for touch in TouchRow.touches(key: bytes, value: value, reportingTo: reader) { all[touch.sequenceNumber] = touch }
            }
        }
        for (sequenceNumber, touch) in recentTouches[key] ?? [:] { all[sequenceNumber] = touch }
        return all.values.sorted { $0.sequenceNumber < $1.sequenceNumber }
    }

    /// The first still-effective event of another command, after `entry`'s first event, that
    /// touches a key `entry` owns: the event that blocks undoing or redoing `command`.
    func blockingTouch(for command: CommandID, entry: Entry) -> Touch? {
        var blocking: Touch?
        // Whether each chain is undone: an entry may be in the archive, so each is read once.
        var undone: [CommandID: Bool] = [:]
        for key in entry.owned {
            // In sequence order: the first effective touch of a key is its earliest; later ones
            // (and any at or after the earliest found so far) cannot be earlier.
            for touch in touches(of: key) where touch.sequenceNumber > entry.firstSequenceNumber {
                if let found = blocking, touch.sequenceNumber >= found.sequenceNumber { break }
                guard touch.chain != command else { continue }
                let isUndone: Bool
                if let known = undone[touch.chain] {
                    isUndone = known
                } else {
                    isUndone = entries[touch.chain]?.isUndone == true
                    undone[touch.chain] = isUndone
                }
                guard !isUndone else { continue }
                blocking = touch
                break
            }
        }
        return blocking
    }

    /// Notes that the event `touch` names touches `key`.
    mutating func add(_ touch: Touch, to key: EntityKey) {
        recentTouches[key, default: [:]][touch.sequenceNumber] = touch
    }

    /// What a checkpoint writes to the archive: the entries and touches since the last one,
    /// encoded as they are read (one row per key for its touches, ``TouchRow``).
    var archiveRows: some Sequence<ArchiveRow> {
        let touchRows = recentTouches.lazy.compactMap { key, list in TouchRow.row(key: key, touches: list.values) }
        return [AnySequence(entries.archiveRows), AnySequence(touchRows)].joined()
    }

    /// After a checkpoint wrote `written` (this history as of then) to the archive `reader`
    /// reads: keeps in memory only what changed since.
    mutating func settle(written: CommandHistory, reader: StoreHistory) {
        entries.settle(written: written.entries, reader: reader)
        for (key, list) in written.recentTouches {
            guard var mine = recentTouches[key] else { continue }
            for sequenceNumber in list.keys { mine[sequenceNumber] = nil }
            recentTouches[key] = mine.isEmpty ? nil : mine
        }
    }

    /// Reads what is not in memory from `reader`.
    mutating func attach(_ reader: StoreHistory) { entries.attach(reader) }

    /// Every entry and touch, archived or not (for comparisons: reads the whole archive).
    var allEntries: TreeDictionary<CommandID, Entry> { entries.allEntries }

    /// Every touch by key, archived or not (for comparisons and inline checkpoints).
    var allTouches: [EntityKey: [Touch]] {
        var all: [EntityKey: [UInt64: Touch]] = [:]
        if let reader = entries.reader {
            for (bytes, value) in reader.entries(space: ArchiveSpace.touches.rawValue) {
                guard let key = TouchRow.entityKey(bytes, reportingTo: reader) else { continue }
                for touch in TouchRow.touches(key: bytes, value: value, reportingTo: reader) { all[key, default: [:]][touch.sequenceNumber] = touch }
            }
        }
        for (key, list) in recentTouches {
            for (sequenceNumber, touch) in list { all[key, default: [:]][sequenceNumber] = touch }
        }
        return all.mapValues { $0.values.sorted { $0.sequenceNumber < $1.sequenceNumber } }
    }

    /// How many entries and touches are in memory (the rest is in the archive).
    var residentCounts: (entries: Int, touches: Int) {
        (entries.resident.count, recentTouches.values.reduce(0) { $0 + $1.count })
    }

    /// Whether every entry is in memory (no archive behind it).
    var isResident: Bool { entries.reader == nil }

    /// A copy holding every entry and touch in memory, which reads nothing from the archive.
    func detached() -> CommandHistory {
        guard !isResident else { return self }
        var copy = CommandHistory()
        for (command, entry) in allEntries { copy.setEntry(entry, for: command) }
        for (key, list) in allTouches {
            for touch in list { copy.add(touch, to: key) }
        }
        return copy
    }

    /// The archive the entries not in memory are read from.
    var archiveReader: StoreHistory? { entries.reader as? StoreHistory }
}

extension CommandHistory: Equatable {
    /// Equal when they hold the same entries and touches, wherever they are.
    package static func == (lhs: CommandHistory, rhs: CommandHistory) -> Bool {
        if lhs.isResident && rhs.isResident {
            return lhs.entries == rhs.entries && lhs.recentTouches == rhs.recentTouches
        }
        return lhs.allEntries == rhs.allEntries && lhs.allTouches == rhs.allTouches
    }
}

/// The touches of one key that one checkpoint wrote, as one archive row: the key is the entity
/// key's bytes behind their length (4 bytes, big-endian), then the sequence number of the first
/// touch (8 bytes, big-endian), so that the touches of one entity are one key range, in sequence
/// order; the value is their count, then each touch as the distance of its sequence number from
/// the one before (varints), its event type and its chain. A key that thousands of events touch
/// (a wallet, a category, the base currency) costs a row per checkpoint, not a row per event.
enum TouchRow {
    static func prefix(of key: EntityKey) -> [UInt8] {
        var writer = BinaryWriter()
        key.write(to: &writer)
        let length = UInt32(clamping: writer.bytes.count)
        return withUnsafeBytes(of: length.bigEndian, Array.init) + writer.bytes
    }

    static func lowerBound(_ prefix: [UInt8]) -> [UInt8] { prefix + [UInt8](repeating: 0, count: 8) }
    static func upperBound(_ prefix: [UInt8]) -> [UInt8] { prefix + [UInt8](repeating: 0xFF, count: 8) }

    /// The row of `touches` (of `key`), nil when there are none.
    static func row(key: EntityKey, touches: some Sequence<CommandHistory.Touch>) -> ArchiveRow? {
        let sorted = touches.sorted { $0.sequenceNumber < $1.sequenceNumber }
        guard let first = sorted.first else { return nil }
        var value = BinaryWriter()
        value.writeVarUInt(UInt64(sorted.count))
        var previous = first.sequenceNumber
        for touch in sorted {
            value.writeVarUInt(touch.sequenceNumber - previous)
            previous = touch.sequenceNumber
            writeTypeAndChain(of: touch, to: &value)
        }
        return ArchiveRow(
            space: ArchiveSpace.touches.rawValue, key: prefix(of: key) + withUnsafeBytes(of: first.sequenceNumber.bigEndian, Array.init),
            value: value.bytes)
    }

    static func entityKey(_ bytes: [UInt8], reportingTo reader: any ArchiveSource) -> EntityKey? {
        guard bytes.count >= 12 else { return invalid("a key of \(bytes.count) bytes", reader) }
        let length = bytes.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        guard length == bytes.count - 12 else { return invalid("a key length that disagrees", reader) }
        var binary = BinaryReader(Array(bytes[4..<(4 + length)]))
        do {
            let key = try EntityKey(from: &binary)
            guard binary.remainingCount == 0 else { return invalid("trailing key bytes", reader) }
            return key
        } catch {
            return invalid("\(error)", reader)
        }
    }

    /// The touches of one row, in sequence order; none when it does not decode (recorded in
    /// `reader`: the engine then refuses to write).
    static func touches(key bytes: [UInt8], value: [UInt8], reportingTo reader: any ArchiveSource) -> [CommandHistory.Touch] {
        do {
            return try decode(key: bytes, value: value)
        } catch {
            return invalid(error.reason, reader) ?? []
        }
    }

    /// A row as one entry per touch, each keyed as a row of that touch alone would be (the
    /// entity's prefix, its sequence number), its value the event type and the chain; a row
    /// that does not decode stays as it is. How rows group touches depends on when checkpoints
    /// fell; what the audit compares is the touches.
    static func expanded(_ row: (key: [UInt8], value: [UInt8])) -> [(key: [UInt8], value: [UInt8])] {
        guard let touches = try? decode(key: row.key, value: row.value) else { return [row] }
        let prefix = Array(row.key.dropLast(8))
        return touches.map { touch in
            var value = BinaryWriter()
            writeTypeAndChain(of: touch, to: &value)
            return (prefix + withUnsafeBytes(of: touch.sequenceNumber.bigEndian, Array.init), value.bytes)
        }
    }

    /// A touch's event type and chain, as a row lists them after its distance.
    private static func writeTypeAndChain(of touch: CommandHistory.Touch, to writer: inout BinaryWriter) {
        writer.writeVarUInt(UInt64(touch.tag.rawValue))
        writer.write(touch.chain)
    }

    /// Why a row does not decode.
    struct Defect: Error {
        let reason: String
    }

    private static func decode(key bytes: [UInt8], value: [UInt8]) throws(Defect) -> [CommandHistory.Touch] {
        guard bytes.count >= 12 else { throw Defect(reason: "a key of \(bytes.count) bytes") }
        var sequenceNumber = bytes.suffix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        var binary = BinaryReader(value)
        do {
            let count = try binary.readVarUInt()
            // Each touch takes at least 18 bytes (two varints and a 16-byte chain).
            guard count > 0, count <= UInt64(binary.remainingCount / 18) else { throw Defect(reason: "a count of \(count)") }
            var touches: [CommandHistory.Touch] = []
            touches.reserveCapacity(Int(count))
            for index in 0..<count {
                let distance = try binary.readVarUInt()
                guard index == 0 ? distance == 0 : distance > 0 else { throw Defect(reason: "touches out of order") }
                let (next, overflow) = sequenceNumber.addingReportingOverflow(distance)
                guard !overflow else { throw Defect(reason: "a sequence number past the largest") }
                sequenceNumber = next
                touches.append(CommandHistory.Touch(sequenceNumber: sequenceNumber, tag: try EventTag.read(from: &binary), chain: try binary.read()))
            }
            guard binary.remainingCount == 0 else { throw Defect(reason: "trailing value bytes") }
            return touches
        } catch let defect as Defect {
            throw defect
        } catch {
            throw Defect(reason: "\(error)")
        }
    }

    private static func invalid<T>(_ reason: String, _ reader: any ArchiveSource) -> T? {
        reader.failDecoding("touch: \(reason)")
        return nil
    }
}
