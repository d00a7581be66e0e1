import TallyModel
import TallyProjections

/// Monthly flows (N5, Tim's inflow/outflow widget) as of the last acknowledged batch, computed
/// from the wallet read model: per month, the net change of every wallet counted by its
/// designation (`setWalletDesignation`), in the base currency (Docs/Projections.md "Monthly
/// flows").
extension Ledger {
    /// The flows of `month`.
    /// - Throws: ``LedgerError/invalidQuery(_:)`` when a figure overflows the 64-bit minor-unit
    ///   range (G1).
    /// For a member `viewer`, only the household's wallets and their own count (G7).
    public func flows(in month: YearMonth, visibleTo viewer: Viewer) throws(LedgerError) -> MonthlyFlows {
        do { return try servedModels.netWorth.flows(in: month, visibleTo: viewer) } catch { throw .invalidQuery(error.description) }
    }

    /// The flows of each month from `first` through `last`, oldest first.
    /// - Throws: ``LedgerError/invalidQuery(_:)`` when `last` is before `first`, the range
    ///   holds more than `NetWorthProjection.flowMonthsMax` months, or a figure overflows (G1).
    public func flows(from first: YearMonth, through last: YearMonth, visibleTo viewer: Viewer) throws(LedgerError) -> [MonthlyFlows] {
        guard first <= last else { throw .invalidQuery("flows from \(first) through \(last): the range ends before it starts") }
        let count = (last.year - first.year) * 12 + last.month - first.month + 1
        guard count <= NetWorthProjection.flowMonthsMax else {
            throw .invalidQuery("flows cover at most \(NetWorthProjection.flowMonthsMax) months, not \(count)")
        }
        do { return try servedModels.netWorth.flows(from: first, through: last, visibleTo: viewer) } catch { throw .invalidQuery(error.description) }
    }
}
