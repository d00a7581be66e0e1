/// Where a ``SpillMap`` finds the entries it does not hold in memory: a table on disk (the
/// engine's read-side store), read when a command needs one entry.
public protocol SpillSource<Key, Value>: Sendable {
    associatedtype Key: Hashable & Sendable
    associatedtype Value: Sendable
    /// The stored value for `key`, `nil` when none is stored.
    func value(for key: Key) -> Value?
    /// Every stored entry, in no particular order (rare whole scans: a category merge, audit).
    func forEach(_ body: (Key, Value) -> Void)
}

/// A map whose entries that grow with history can live on disk (issue 14: memory bounded by
/// what is live, not by history).
///
/// Without a source it is a dictionary. With one, it holds in memory only the entries written
/// since the last ``takePending()`` and reads every other entry from the source. It stays a
/// value type: a copy shares the source and copies only the pending entries, so validating a
/// batch on a copy (G6) costs what the batch changes. The owner writes the pending entries to
/// the source's storage and takes them out in one step, so the source plus the pending entries
/// always show the same map.
public struct SpillMap<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// Entries written since the last ``takePending()``; `nil` marks a removal.
    public private(set) var pending: [Key: Value?] = [:]
    /// Where the other entries are; `nil` while everything is in memory.
    public private(set) var source: (any SpillSource<Key, Value>)?

    /// An empty map in memory.
    public init() {}

    /// The entry for `key`: the pending one, else the source's.
    public subscript(key: Key) -> Value? {
        get {
            if let entry = pending[key] { return entry }
            return source?.value(for: key)
        }
        set {
            pending[key] = .some(newValue)
        }
    }

    /// The entry for `key`, or `defaultValue` (for in-place updates: `map[key, default: x].y = z`).
    public subscript(key: Key, default defaultValue: @autoclosure () -> Value) -> Value {
        get { self[key] ?? defaultValue() }
        set { self[key] = newValue }
    }

    /// Every entry (pending ones over the source's): O(all entries), for rare whole scans.
    public func forEach(_ body: (Key, Value) -> Void) {
        source?.forEach { key, value in
            if pending[key] == nil { body(key, value) }
        }
        for (key, entry) in pending {
            if let value = entry { body(key, value) }
        }
    }

    /// Every entry as a dictionary: O(all entries), for rare whole scans and tests.
    public var dictionary: [Key: Value] {
        var result: [Key: Value] = [:]
        forEach { key, value in result[key] = value }
        return result
    }

    /// The entries for which `isIncluded` holds: O(all entries).
    public func filter(_ isIncluded: (Key, Value) -> Bool) -> [(key: Key, value: Value)] {
        var result: [(key: Key, value: Value)] = []
        forEach { key, value in if isIncluded(key, value) { result.append((key, value)) } }
        return result
    }

    /// Hands the pending entries to the owner (to write them where the source reads) and
    /// makes `source` the place of every entry from now on.
    public mutating func takePending(reading source: any SpillSource<Key, Value>) -> [Key: Value?] {
        defer {
            pending = [:]
            self.source = source
        }
        return pending
    }
}

extension SpillMap: Equatable where Value: Equatable {
    /// Equal entries, wherever they are held.
    public static func == (lhs: SpillMap, rhs: SpillMap) -> Bool {
        if lhs.source == nil, rhs.source == nil {
            return lhs.pending.compactMapValues { $0 } == rhs.pending.compactMapValues { $0 }
        }
        return lhs.dictionary == rhs.dictionary
    }
}

extension SpillMap: Hashable where Value: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(dictionary)
    }
}
