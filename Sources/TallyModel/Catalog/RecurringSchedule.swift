/// The occurrence rule of a recurring item (R1), folded from its template events: the one
/// function the engine (posting, validation) and the subscription queries use.
///
/// Occurrence `i` is computed from the anchor (``RecurrenceFrequency/occurrence(_:from:)``),
/// so the 31st falls to a shorter month's last day and returns to the 31st, and Feb 29 falls
/// to Feb 28 in other years. An occurrence exists while `i < occurrenceCount`, its date is on
/// or before `endDate` and before `cancelledOn`. It is billed at the price in effect on its
/// date, unless it falls in the free trial (before `trialEndsOn`) or in a pause.
@WireFields
public struct RecurringSchedule: Hashable, Sendable {
    /// How often it occurs.
    public var frequency: RecurrenceFrequency
    /// The first occurrence's date.
    public var anchor: LocalDate
    /// The price from the anchor until the first change.
    public var basePrice: Money
    /// The last date an occurrence may fall on.
    public var endDate: LocalDate?
    /// How many occurrences the schedule has.
    public var occurrenceCount: Int64?
    /// The first billed day: earlier occurrences are free (trial).
    public var trialEndsOn: LocalDate?
    /// Price changes by effective date, ascending (one per date: a later change on the same
    /// date replaces the earlier).
    public var priceChanges: [PriceChange]
    /// Pauses, in the order recorded.
    public var pauses: [PauseSpan]
    /// The first date without occurrences after a cancel.
    public var cancelledOn: LocalDate?
    /// Cycles started after the anchor, by date ascending (one per date; a change replaces
    /// every later one).
    public var cycleChanges: [CycleChange]

    /// A schedule from a template's creation.
    public init(frequency: RecurrenceFrequency, anchor: LocalDate, basePrice: Money, terms: TemplateTerms?) {
        self.frequency = frequency
        self.anchor = anchor
        self.basePrice = basePrice
        self.endDate = terms?.endDate
        self.occurrenceCount = terms?.occurrenceCount
        self.trialEndsOn = terms?.trialEndsOn
        self.priceChanges = []
        self.pauses = []
        self.cancelledOn = nil
        self.cycleChanges = []
    }
}

/// A new cycle from a date on (R1, Swiff 1.2.3 "a cycle change moves the next billing"): the
/// earlier cycle has no occurrence on or after `from`; the new one occurs on `anchor` (on or
/// after `from`) and every `frequency` after it.
@WireFields
public struct CycleChange: Hashable, Sendable {
    /// The first date of the new cycle.
    public var from: LocalDate
    /// The new cycle's first occurrence, the date its occurrences are computed from.
    public var anchor: LocalDate
    /// How often it occurs from there.
    public var frequency: RecurrenceFrequency

    /// Creates the change.
    public init(from: LocalDate, anchor: LocalDate, frequency: RecurrenceFrequency) {
        self.from = from
        self.anchor = anchor
        self.frequency = frequency
    }
}

/// A price from a date on (R1).
@WireFields
public struct PriceChange: Hashable, Sendable {
    /// The first date the price applies to.
    public var effectiveFrom: LocalDate
    /// The price per occurrence.
    public var amount: Money

    /// Creates the change.
    public init(effectiveFrom: LocalDate, amount: Money) {
        self.effectiveFrom = effectiveFrom
        self.amount = amount
    }
}

/// Dates a recurring item is paused (R1): from `from` (every date when `nil`) up to the day
/// before `until` (no end when `nil`).
@WireFields
public struct PauseSpan: Hashable, Sendable {
    /// The first paused date.
    public var from: LocalDate?
    /// The first date no longer paused.
    public var until: LocalDate?

    /// Creates the span.
    public init(from: LocalDate?, until: LocalDate?) {
        self.from = from
        self.until = until
    }

    /// Whether `date` is paused.
    public func contains(_ date: LocalDate) -> Bool {
        (from.map { $0 <= date } ?? true) && (until.map { date < $0 } ?? true)
    }
}

/// One occurrence of a recurring item (R1).
public struct ScheduledOccurrence: Hashable, Sendable {
    /// Whether an occurrence is charged.
    public enum Status: String, Hashable, Sendable {
        /// Charged at ``ScheduledOccurrence/price``: posted by `postDueOccurrences`.
        case billed
        /// In the free trial: not charged, never posted.
        case trial
        /// In a pause: not charged, never posted.
        case paused
    }

    /// Its index from the anchor (0 is the anchor).
    public let index: Int
    /// Its date.
    public let date: LocalDate
    /// The price in effect on its date.
    public let price: Money
    /// Whether it is charged.
    public let status: Status
}

extension RecurringSchedule {
    /// The most occurrences one walk visits: a bound on every loop over the schedule.
    public static let walkOccurrencesMax = 100_000

    /// The price in effect on `date`: the latest change effective on or before it, else the
    /// base price.
    public func price(on date: LocalDate) -> Money {
        priceChanges.last { $0.effectiveFrom <= date }?.amount ?? basePrice
    }

    /// Whether `date` falls in a pause.
    public func isPaused(on date: LocalDate) -> Bool { pauses.contains { $0.contains(date) } }

    /// Whether the last pause has no end: the item is paused until resumed.
    public var isPausedIndefinitely: Bool { pauses.last.map { $0.until == nil } ?? false }

    /// The occurrences dated `start...end` in date order (at most `limit`).
    public func occurrences(from start: LocalDate, through end: LocalDate, limit: Int = walkOccurrencesMax) -> [ScheduledOccurrence] {
        var result: [ScheduledOccurrence] = []
        let cycles = self.cycles
        var index = firstIndex(onOrAfter: start, in: cycles)
        var visited = 0
        while result.count < limit, visited < Self.walkOccurrencesMax, let occurrence = occurrence(index, in: cycles) {
            visited += 1
            index += 1
            if occurrence.date < start { continue }
            if occurrence.date > end { break }
            result.append(occurrence)
        }
        return result
    }

    /// The first billed occurrence on or after `date`, if the schedule has one.
    public func nextBilled(onOrAfter date: LocalDate) -> ScheduledOccurrence? {
        let cycles = self.cycles
        var index = firstIndex(onOrAfter: date, in: cycles)
        var visited = 0
        while visited < Self.walkOccurrencesMax, let occurrence = occurrence(index, in: cycles) {
            visited += 1
            index += 1
            if occurrence.date >= date, occurrence.status == .billed { return occurrence }
        }
        return nil
    }

    /// The occurrence on `date`, if `date` is one.
    public func occurrence(on date: LocalDate) -> ScheduledOccurrence? {
        occurrences(from: date, through: date, limit: 1).first
    }

    /// Occurrence `index`, or `nil` when the schedule has ended before it (count, end date,
    /// cancel) or its date leaves the calendar.
    public func occurrence(_ index: Int) -> ScheduledOccurrence? { occurrence(index, in: cycles) }

    /// Occurrence `index` over `cycles` (``cycles``, computed once per walk).
    private func occurrence(_ index: Int, in cycles: [Cycle]) -> ScheduledOccurrence? {
        if let occurrenceCount, Int64(index) >= occurrenceCount { return nil }
        guard let date = date(ofOccurrence: index, in: cycles) else { return nil }
        if let endDate, date > endDate { return nil }
        if let cancelledOn, date >= cancelledOn { return nil }
        let status: ScheduledOccurrence.Status =
            if let trialEndsOn, date < trialEndsOn { .trial } else if isPaused(on: date) { .paused } else { .billed }
        return ScheduledOccurrence(index: index, date: date, price: price(on: date), status: status)
    }

    /// The item's standing on `date` (R1): cancelled or ended when no occurrence is left from
    /// that date on, paused or in trial on that date, else active.
    public func standing(on date: LocalDate) -> Standing {
        if let cancelledOn, cancelledOn <= date { return .cancelled }
        if occurrences(from: date, through: .max, limit: 1).isEmpty { return .ended }
        if let trialEndsOn, date < trialEndsOn { return .trial }
        if isPaused(on: date) { return .paused }
        return .active
    }

    /// What a recurring item is on a date (R1).
    public enum Standing: String, Hashable, Sendable {
        /// Billed on its occurrences.
        case active
        /// In its free trial.
        case trial
        /// Paused on that date.
        case paused
        /// Cancelled on or before that date.
        case cancelled
        /// No occurrence left (end date or count reached).
        case ended
    }

    /// Applies a price change (R1): replaces a change with the same effective date.
    public mutating func changePrice(_ amount: Money, from date: LocalDate) {
        priceChanges.removeAll { $0.effectiveFrom == date }
        let position = priceChanges.firstIndex { $0.effectiveFrom > date } ?? priceChanges.endIndex
        priceChanges.insert(PriceChange(effectiveFrom: date, amount: amount), at: position)
    }

    /// Applies a cycle change (R1): from `date` on, occurrences are `anchor` and every
    /// `frequency` after it; a change dated on or after `date` is replaced ("this and all future").
    public mutating func changeCycle(_ frequency: RecurrenceFrequency, from date: LocalDate, anchor: LocalDate) {
        cycleChanges.removeAll { $0.from >= date }
        cycleChanges.append(CycleChange(from: date, anchor: anchor, frequency: frequency))
    }

    /// The frequency in effect on `date`: the latest cycle started on or before it.
    public func frequency(on date: LocalDate) -> RecurrenceFrequency {
        cycleChanges.last { $0.from <= date }?.frequency ?? frequency
    }

    /// Applies a pause (R1).
    public mutating func pause(from: LocalDate?, resumesOn: LocalDate?) {
        pauses.append(PauseSpan(from: from, until: resumesOn))
    }

    /// Applies a resume (R1): ends the last pause on `date`, or with `nil` removes it.
    public mutating func resume(on date: LocalDate?) {
        guard !pauses.isEmpty else { return }
        if let date {
            pauses[pauses.count - 1].until = date
        } else {
            pauses.removeLast()
        }
    }
}

extension RecurringSchedule {
    /// One cycle: its first date, anchor and frequency, the index of its first occurrence, and
    /// how many occurrences it has before the next cycle starts (`nil` for the last, open one).
    private struct Cycle {
        let start: LocalDate
        let anchor: LocalDate
        let frequency: RecurrenceFrequency
        let firstIndex: Int
        let count: Int?
    }

    /// The cycles in date order: the anchor's, then each change's. A cycle's count is exact,
    /// so the indexes go on across a change.
    private var cycles: [Cycle] {
        if cycleChanges.isEmpty { return [Cycle(start: anchor, anchor: anchor, frequency: frequency, firstIndex: 0, count: nil)] }
        var result: [Cycle] = []
        // A change dated on the anchor (nothing posted yet) replaces the first cycle.
        let first = cycleChanges.last { $0.from <= anchor }
        var starts = [CycleChange(from: anchor, anchor: first?.anchor ?? anchor, frequency: first?.frequency ?? frequency)]
        starts.append(contentsOf: cycleChanges.filter { $0.from > anchor })
        var firstIndex = 0
        for (position, cycle) in starts.enumerated() {
            let next = position + 1 < starts.count ? starts[position + 1].from : nil
            let count = next.map { Self.count(cycle.frequency, from: cycle.anchor, before: $0) }
            result.append(Cycle(start: cycle.from, anchor: cycle.anchor, frequency: cycle.frequency, firstIndex: firstIndex, count: count))
            firstIndex += count ?? 0
        }
        return result
    }

    /// How many occurrences of `frequency` counted from `start` fall before `end`.
    private static func count(_ frequency: RecurrenceFrequency, from start: LocalDate, before end: LocalDate) -> Int {
        var index = frequency.firstIndex(onOrAfter: end, anchor: start)
        while let date = try? frequency.occurrence(index, from: start), date < end { index += 1 }
        return index
    }

    /// The date of occurrence `index` across the cycles, `nil` when it leaves the calendar.
    private func date(ofOccurrence index: Int, in cycles: [Cycle]) -> LocalDate? {
        guard let cycle = cycles.first(where: { cycle in cycle.count.map { count in index < cycle.firstIndex + count } ?? true }) else { return nil }
        return try? cycle.frequency.occurrence(index - cycle.firstIndex, from: cycle.anchor)
    }

    /// The first occurrence index whose date can be on or after `date` (a lower bound).
    private func firstIndex(onOrAfter date: LocalDate, in cycles: [Cycle]) -> Int {
        guard let cycle = cycles.last(where: { $0.start <= date }) else { return 0 }
        return cycle.firstIndex + cycle.frequency.firstIndex(onOrAfter: date, anchor: cycle.anchor)
    }
}
