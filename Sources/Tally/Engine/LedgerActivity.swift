import TallyModel

/// Which page of an activity feed to list: the household's commands, newest first (issue 15).
public struct ActivityQuery: Sendable, Hashable {
    /// The most entries one page holds.
    public static let limitMax = 1_000

    /// Entries per page, 1...``limitMax``.
    public var limit = 50
    /// Where the page starts: the ``ActivityPage/next`` of the page before.
    public var before: ActivityCursor?
    /// Who the feed is for (G7): a member sees their own commands and another person's that
    /// touched nothing that is not theirs to see (a personal transaction, recurring item or
    /// own wallet of someone else, a transfer between two such wallets, a settlement or a group
    /// they are not part of); `Viewer.audit` every command.
    public var viewer: Viewer

    /// The newest 50 commands `viewer` sees.
    public init(visibleTo viewer: Viewer) { self.viewer = viewer }
}

/// Where the next page of an activity feed starts: before the first event of the last entry
/// listed. Printable for a CLI (`before.<sequence>`).
public struct ActivityCursor: Sendable, Hashable, LosslessStringConvertible {
    /// The first sequence number not listed again.
    let sequenceNumber: UInt64

    /// `before.<sequence>`.
    public var description: String { "before.\(sequenceNumber)" }

    /// Reads a cursor printed by ``description``; `nil` for anything else.
    public init?(_ description: String) {
        guard description.hasPrefix("before."), let number = UInt64(description.dropFirst("before.".count)), number > 0 else { return nil }
        sequenceNumber = number
    }

    init(sequenceNumber: UInt64) { self.sequenceNumber = sequenceNumber }
}

/// One page of an activity feed.
public struct ActivityPage: Sendable, Hashable {
    /// The entries, newest first.
    public let entries: [ActivityEntry]
    /// Where the next (older) page starts; `nil` after the first command of the ledger.
    public let next: ActivityCursor?
}

/// One command as an activity feed shows it: who, what, when, and whether it can be undone.
public struct ActivityEntry: Sendable, Hashable {
    /// What an undo or redo of the command would do if executed now (T5).
    public enum Undo: Sendable, Hashable {
        /// `undo` would be accepted.
        case undoable
        /// The command is undone and `redo` would be accepted.
        case redoable
        /// Neither: the reason, as the rejection would state it (an irreversible event, a
        /// later event depending on it, an undo or redo itself...).
        case unavailable(reason: String)
    }

    /// The command.
    public let commandID: CommandID
    /// Who issued it (G7).
    public let actor: PersonID
    /// Their display name (redacted for a forgotten person, P3).
    public let actorName: String?
    /// When the host recorded it (G3).
    public let recordedAt: Timestamp
    /// The sequence numbers of its events.
    public let sequenceNumbers: ClosedRange<UInt64>
    /// Its events' types, in order (automatic `PeriodClosed` events included).
    public let events: [EventTag]
    /// The entities it created or changed (R5), as `kind/id` (`wallet/<id>`,
    /// `transaction/<id>`, `household`...), sorted; empty for an undo or redo (its target's
    /// entry lists them).
    public let entities: [String]
    /// For an undo or redo: the command it acted on.
    public let target: CommandID?
    /// Whether it is currently undone.
    public let isUndone: Bool
    /// Whether an undo or redo would be accepted now.
    public let undo: Undo
    /// Whether the command waits in a synced device's outbox (Docs/Sync.md, "Pending on top"):
    /// its ``sequenceNumbers`` are provisional until the server accepts it, and it leaves the
    /// feed if the server rejects it.
    public let isPending: Bool
}

extension Ledger {
    /// One page of the household's commands, newest first: read backwards from the journal's
    /// end in windows that double until the page is complete, so a page costs its own events
    /// (plus one seek), not the history. The undo marks are checked as an `undo` or `redo`
    /// executed now would be (T5). On a synced device the commands waiting in its outbox come
    /// first, marked ``ActivityEntry/isPending``, their undo marks as the outbox would accept
    /// an undo (Docs/Sync.md, "Pending on top").
    /// - Throws: ``LedgerError/invalidQuery(_:)`` for a page size outside
    ///   1...``ActivityQuery/limitMax``; ``LedgerError/storage(_:)`` and
    ///   ``LedgerError/codec(_:sequenceNumber:)`` when the journal cannot be read.
    public func activity(_ query: ActivityQuery) throws(LedgerError) -> ActivityPage {
        let reader = try Ledger.reader(of: journal)
        let confirmed = lastSequenceNumber
        let pending = pendingCommands.isEmpty ? nil : pendingShown()
        let pendingEvents = pending?.events ?? []
        return try ActivityPage.read(
            query, state: pending?.state ?? validationHead, through: confirmed + UInt64(pendingEvents.count), confirmedThrough: confirmed
        ) { start, end throws(LedgerError) in
            var events: [CommittedEvent] = []
            if start <= confirmed {
                var cursor = LedgerEventCursor(reader: reader, from: start, through: min(end, confirmed), personalTexts: nil)
                events = try cursor.drain()
            }
            if end > confirmed {
                events += pendingEvents[Int(max(start, confirmed + 1) - confirmed - 1)..<Int(end - confirmed)]
            }
            return events
        }
    }
}

extension ActivityPage {
    /// One page of `query` over the events 1 through `last`, marked as `state` (the validation
    /// state after them) would accept an undo or redo: what ``Ledger/activity(_:)`` and a
    /// reader without the writer lock (`LedgerHistory`) both answer. `events(start, end)`
    /// reads the events of that range; those after `confirmed` wait in a synced device's
    /// outbox (``ActivityEntry/isPending``).
    package static func read(
        _ query: ActivityQuery, state head: LedgerState, through last: UInt64, confirmedThrough confirmed: UInt64,
        events: (UInt64, UInt64) throws(LedgerError) -> [CommittedEvent]
    ) throws(LedgerError) -> ActivityPage {
        guard (1...ActivityQuery.limitMax).contains(query.limit) else {
            throw .invalidQuery("an activity page holds 1...\(ActivityQuery.limitMax) entries, not \(query.limit)")
        }
        let end = min(query.before.map { $0.sequenceNumber - 1 } ?? last, last)
        guard end > 0 else { return ActivityPage(entries: [], next: nil) }
        // Commands newest first; the oldest one read may be cut by the window's start.
        var commands: [[CommittedEvent]] = []
        var window = UInt64(query.limit) * 4
        var start = end
        while true {
            start = end >= window ? end - window + 1 : 1
            commands = []
            for committed in try events(start, end) {
                if let last = commands.last?.last, last.event.commandID == committed.event.commandID {
                    commands[commands.count - 1].append(committed)
                } else {
                    commands.append([committed])
                }
            }
            commands.reverse()
            // The oldest command may be cut by the window's start; the rest are whole.
            if start > 1, !commands.isEmpty { commands.removeLast() }
            commands.removeAll { events in events.first.map { !sees($0.event, query.viewer, in: head) } ?? true }
            // Complete when the window starts at the first event, or holds one command more
            // than the page.
            if start == 1 || commands.count > query.limit { break }
            window = window > UInt64.max / 2 ? .max : window * 2
        }
        let page = commands.prefix(query.limit)
        let entries = page.compactMap { events -> ActivityEntry? in
            guard let first = events.first, let last = events.last else { return nil }
            let event = first.event
            let history = head.history.entry(for: event.commandID)
            return ActivityEntry(
                commandID: event.commandID, actor: event.actor, actorName: head.people[event.actor]?.name.description, recordedAt: event.recordedAt,
                sequenceNumbers: first.sequenceNumber...last.sequenceNumber, events: events.map(\.event.payload.tag),
                entities: (history?.owned ?? []).compactMap(\.activityName).sorted(),
                target: history?.target, isUndone: history?.isUndone ?? false, undo: Self.undo(of: event.commandID, in: head),
                isPending: first.sequenceNumber > confirmed)
        }
        let next = commands.count > query.limit ? entries.last.map { ActivityCursor(sequenceNumber: $0.sequenceNumbers.lowerBound) } : nil
        return ActivityPage(entries: entries, next: next)
    }

    /// Whether `viewer` sees the entry of the command `event` starts (G7): their own; another
    /// person's when nothing it created or changed (for an undo or redo, its target's) is
    /// another person's alone: a personal transaction or recurring item, an own wallet, a
    /// transfer between two wallets of someone else, a settlement between two others, a group
    /// (or its expense) the viewer is not in. What a command touched is judged as it is now.
    private static func sees(_ event: Event, _ viewer: Viewer, in state: LedgerState) -> Bool {
        guard let person = viewer.person, person != event.actor else { return true }
        let entry = state.history.entry(for: event.commandID)
        let owned = entry?.target.flatMap { state.history.entry(for: $0)?.owned } ?? entry?.owned ?? []
        return owned.allSatisfy { key in
            switch key {
            case .transaction(let id): state.transactions[id].map { viewer.sees($0.details) } ?? true
            case .template(let id): state.templates[id].map { viewer.sees($0) } ?? true
            case .wallet(let id), .balancePoints(let id), .walletDesignation(let id), .balanceAlert(let id): viewer.sees(walletOwnedBy: state.wallets[id]?.owner)
            case .transfer(let id):
                // A transfer is in the statement of each of its wallets: seen with either.
                state.transfers[id].map { record in
                    [record.transfer.fromWalletID, record.transfer.toWalletID].contains { viewer.sees(walletOwnedBy: state.wallets[$0]?.owner) }
                } ?? true
            case .settlement(let id): state.debts.settlements[id].map { viewer.sees(anyOf: $0.from, $0.to) } ?? true
            // Only its owner changes a view: another member sees the entry of a shared one only.
            case .view(let id): state.views[id]?.shared ?? false
            case .group(let id): state.debts.group(id).map { viewer.sees(groupWithMembers: $0.members) } ?? true
            case .groupExpense(let id):
                state.groupExpenses[id].flatMap { state.debts.group($0.expense.groupID) }.map { viewer.sees(groupWithMembers: $0.members) } ?? true
            // An attachment is seen with its item (T6).
            case .attachment(let item, _): state.readModels.standing(of: item, seenBy: viewer) != .unknown
            // The household's own settings and vocabulary: every member's. Listed, not defaulted,
            // so that a new kind of key has to say who sees it.
            case .household, .baseCurrency, .admin, .person, .walletName, .category, .categoryName, .splitRatio, .periods,
                 .budget, .incomeSettings, .exchangeRate, .categoryOrder, .goal, .goalAmounts, .scenario, .activeScenario,
                 .alertSettings, .importMapping, .invitation, .firstWeekday, .categoryTaxClass:
                true
            }
        }
    }

    /// Whether an undo (or for an undone command, a redo) of `command` would be accepted by
    /// `state` now: the executor's own check, so the mark never disagrees with `execute`.
    private static func undo(of command: CommandID, in state: LedgerState) -> ActivityEntry.Undo {
        let executor = CommandExecutor(state: state)
        let isUndone = state.history.entry(for: command)?.isUndone ?? false
        do {
            if isUndone {
                _ = try executor.redo(command)
                return .redoable
            }
            _ = try executor.undo(command)
            return .undoable
        } catch {
            return .unavailable(reason: error.message)
        }
    }
}
