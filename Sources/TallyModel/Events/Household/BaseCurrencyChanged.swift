/// The base currency changed (only before the first transaction) (H2).
///
/// Tag 101, schema version 1 (see ``EventTag/baseCurrencyChanged`` and `Docs/Events.md`).
@WireFields
public struct BaseCurrencyChanged: Hashable, Sendable {
    /// The new base currency.
    public let baseCurrency: Currency

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(baseCurrency: Currency) {
        self.baseCurrency = baseCurrency
    }
}
