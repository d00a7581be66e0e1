/// An exchange rate valid from a date on (N3).
///
/// Tag 700, schema version 1 (see ``EventTag/exchangeRateSet`` and `Docs/Events.md`).
@WireFields
public struct ExchangeRateSet: Hashable, Sendable {
    /// The rate: base, quote and the scaled value.
    public let rate: ExchangeRate
    /// The first date it applies to.
    public let asOf: LocalDate

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(rate: ExchangeRate, asOf: LocalDate) {
        self.rate = rate
        self.asOf = asOf
    }
}
