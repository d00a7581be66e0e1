import TallyModel

/// A deterministic synthetic history of one household: `count` valid `TallyModel.Event`s.
///
/// The history opens like a real ledger (household, presets, a second member, split ratio,
/// wallets in CHF and EUR, a card and a property, payday, first rates and budgets) and then
/// runs day by day: mostly expenses and incomes, shared expenses with resolved S3 shares,
/// settlements, transfers, edits, deletes and restores of earlier transactions, balance
/// points, exchange rates, budget allocations, salaries on payday and a `PeriodClosed` at
/// every period end. Every id refers to an entity created earlier (Docs/Domain.md).
///
/// It is a lazy `Sequence`: iterating holds a few kilobytes of state whatever `count` is, so
/// 10,000,000 events stream without being held in memory. The same `seed` and `count` always
/// give the same events.
public struct HouseholdHistory: Sequence, Sendable {
    /// The number of events the sequence yields.
    public let count: Int
    /// The seed of all choices and ids.
    public let seed: UInt64

    /// A history of `count` events (at least 0) generated from `seed`.
    public init(count: Int, seed: UInt64 = 0x7A11_2026) {
        precondition(count >= 0, "count must not be negative")
        self.count = count
        self.seed = seed
    }

    /// A fresh generator positioned at the first event.
    public func makeIterator() -> HistoryGenerator {
        HistoryGenerator(count: count, seed: seed)
    }

    /// The events in consecutive arrays of `size` (the last may be shorter), generated lazily.
    public func batches(of size: Int) -> EventBatches {
        EventBatches(generator: makeIterator(), size: size)
    }
}

/// Consecutive arrays of events of a ``HouseholdHistory``, one generated per step.
public struct EventBatches: Sequence, IteratorProtocol, Sendable {
    var generator: HistoryGenerator
    let size: Int

    init(generator: HistoryGenerator, size: Int) {
        precondition(size > 0, "batch size must be positive")
        self.generator = generator
        self.size = size
    }

    /// The next batch, or `nil` after the last event.
    public mutating func next() -> [Event]? {
        var batch: [Event] = []
        batch.reserveCapacity(size)
        while batch.count < size, let event = generator.next() { batch.append(event) }
        return batch.isEmpty ? nil : batch
    }
}
