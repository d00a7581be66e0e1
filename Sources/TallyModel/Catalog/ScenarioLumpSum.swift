/// A one-off amount a scenario adds on a date (R3): positive money coming in (a bonus, a sale),
/// negative money going out (a purchase).
@WireFields
public struct ScenarioLumpSum: Hashable, Sendable {
    /// The day it happens; it counts from the end of that day's month on.
    public let date: LocalDate
    /// The amount in the household's base currency, signed.
    public let amount: Money

    /// Creates a lump sum.
    public init(date: LocalDate, amount: Money) {
        self.date = date
        self.amount = amount
    }
}
