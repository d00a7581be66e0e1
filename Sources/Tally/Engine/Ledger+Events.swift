import TallyJournal

extension Ledger {
    /// A cursor over the acknowledged events from `start` through `end` (default: the last
    /// acknowledged one), decoded frame by frame from the journal: bounded memory for any range.
    /// - Throws: ``LedgerError/storage(_:)``; reading throws as ``LedgerEventCursor/next()``.
    public func eventCursor(from start: UInt64 = 1, through end: UInt64? = nil) throws(LedgerError) -> LedgerEventCursor {
        let last = min(end ?? lastSequenceNumber, lastSequenceNumber)
        return LedgerEventCursor(reader: try Ledger.reader(of: journal), from: start, through: last, personalTexts: personalKeys)
    }

    /// The acknowledged events from `start` through `end` (default: the last) as an array,
    /// collected from ``eventCursor(from:through:)``: memory grows with the range. Not API
    /// (hosts stream with the cursor); for tests and tools inside the package.
    /// - Throws: ``LedgerError/storage(_:)``, ``LedgerError/codec(_:sequenceNumber:)``.
    package func events(from start: UInt64 = 1, through end: UInt64? = nil) throws(LedgerError) -> [CommittedEvent] {
        var cursor = try eventCursor(from: start, through: end)
        var events: [CommittedEvent] = []
        while let committed = try cursor.next() { events.append(committed) }
        return events
    }
}
