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
    public func flows(in month: YearMonth) throws(LedgerError) -> MonthlyFlows {
        let result = read { models in Result { () throws(ProjectionError) in try models.netWorth.flows(in: month) } }
        do { return try result.get() } catch { throw .invalidQuery(error.description) }
    }

    /// The flows of each month from `first` through `last`, oldest first.
    /// - Throws: ``LedgerError/invalidQuery(_:)`` when `last` is before `first`, the range
    ///   holds more than `NetWorthProjection.flowMonthsMax` months, or a figure overflows (G1).
    public func flows(from first: YearMonth, through last: YearMonth) throws(LedgerError) -> [MonthlyFlows] {
        guard first <= last else { throw .invalidQuery("flows from \(first) through \(last): the range ends before it starts") }
        let count = (last.year - first.year) * 12 + last.month - first.month + 1
        guard count <= NetWorthProjection.flowMonthsMax else {
            throw .invalidQuery("flows cover at most \(NetWorthProjection.flowMonthsMax) months, not \(count)")
        }
        let result = read { models in Result { () throws(ProjectionError) in try models.netWorth.flows(from: first, through: last) } }
        do { return try result.get() } catch { throw .invalidQuery(error.description) }
    }
}
