import TallyModel
import TallyProjections

/// Amounts in another currency (N3, T7) as of the last acknowledged batch: what a charge abroad
/// comes to in a wallet's currency at the household's rates, for a host that has only the
/// original amount before `recordTransaction` (Docs/Queries.md "Amounts in another currency").
extension Ledger {
    /// `money` in `currency` at the latest rate on or before `date` (N3), rounded half to even
    /// once (G2); rates are household data, so every member reads the same.
    /// - Returns: the amount, or `nil` when no rate between the two currencies is known on
    ///   `date`: set one with `setExchangeRate` (never a silent 1.0).
    /// - Throws: ``LedgerError/invalidQuery(_:)`` when the result does not fit in 64-bit minor
    ///   units (G1).
    public func converted(_ money: Money, into currency: Currency, on date: LocalDate) throws(LedgerError) -> Money? {
        do { return try servedModels.wallets.converted(money, into: currency, on: date) } catch { throw .invalidQuery(error.description) }
    }
}
