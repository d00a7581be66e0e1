import HashTreeCollections
import TallyModel

/// What every command did, for undo and redo (T5). Folded from events like the rest of the
/// state, so it survives restarts; history keeps everything (nothing is ever removed).
public struct CommandHistory: Sendable, Equatable {
    /// One command's effect.
    public struct Entry: Sendable, Equatable {
        /// The sequence number of its first event.
        public var firstSequenceNumber: UInt64
        /// For an undo or redo command: the command it acted on.
        public var target: CommandID?
        /// The keys its own events own (automatic `PeriodClosed` events excluded).
        public var owned: Set<EntityKey> = []
        /// The compensating events of each of its events, in event order; undo appends them in
        /// reverse. For an undo command these are what a redo appends.
        public var compensation: [[EventPayload]] = []
        /// The first of its events that has no compensating event, if any.
        public var irreversibleTag: EventTag?
        /// Whether it is currently undone.
        public var isUndone = false
        /// The undo command that last undid it.
        public var lastUndo: CommandID?
        /// How many events it produced besides automatic period closes.
        public var effectCount = 0
    }

    /// One event touching a key.
    public struct Touch: Sendable, Equatable {
        /// The event's sequence number.
        public var sequenceNumber: UInt64
        /// The event's type.
        public var tag: EventTag
        /// The command whose effect it is part of: its own command, or for the events of an
        /// undo or redo, the command undone or redone.
        public var chain: CommandID
    }

    /// Entries by command id.
    public internal(set) var entries: TreeDictionary<CommandID, Entry> = [:]
    /// The events touching one key, by sequence number.
    public typealias TouchList = TreeDictionary<UInt64, Touch>

    /// Events touching each key.
    public internal(set) var touches: TreeDictionary<EntityKey, TouchList> = [:]

    /// Creates an empty history.
    public init() {}

    /// The first still-effective event of another command, after `entry`'s first event, that
    /// touches a key `entry` owns: the event that blocks undoing or redoing `command`.
    func blockingTouch(for command: CommandID, entry: Entry) -> Touch? {
        var blocking: Touch?
        for key in entry.owned {
            for touch in touches[key]?.values ?? TouchList().values where touch.sequenceNumber > entry.firstSequenceNumber {
                guard touch.chain != command, entries[touch.chain]?.isUndone != true else { continue }
                if blocking.map({ touch.sequenceNumber < $0.sequenceNumber }) ?? true { blocking = touch }
            }
        }
        return blocking
    }

    /// Notes that the event `touch` names touches `key`.
    mutating func add(_ touch: Touch, to key: EntityKey) {
        touches[key, default: [:]][touch.sequenceNumber] = touch
    }
}
