import TallyModel

/// A derived fact an app shows as an alert (R6): computed from the ledger as of a date, never
/// stored. Each alert has a stable ``id`` naming what crossed: the same crossing keeps its id
/// from one query (or observed value) to the next, so an app reports it once however often it
/// asks (Docs/Planning.md "Alerts").
public struct LedgerAlert: Hashable, Sendable {
    /// What the alert is about.
    public enum Kind: Hashable, Sendable {
        /// A category's spending in the pay period reached `thresholdPercent` of its allocation.
        case budget(categoryID: CategoryID, period: PayPeriod, thresholdPercent: Int64, spent: Money, allocated: Money)
        /// A recurring item bills on `date`, within the settings' `upcomingDays`.
        case upcoming(templateID: TemplateID, date: LocalDate, amount: Money)
        /// A transaction in the pay period of at least the settings' `largeTransaction` amount.
        case largeTransaction(transactionID: TransactionID, date: LocalDate, amount: Money)
        /// A value-observed wallet's latest balance point is `days` old, at least the settings'
        /// `staleBalanceDays`.
        case staleBalance(walletID: WalletID, lastPointOn: LocalDate, days: Int64)
        /// A recurring item's price goes up from `previous` to `price` on `effectiveFrom`, within
        /// the settings' `priceIncreaseDays` of the date asked (Swiff 1.2.3, 4.2.1).
        case priceIncrease(templateID: TemplateID, effectiveFrom: LocalDate, previous: Money, price: Money)
        /// `other` owes `person` `amount` (negative: `person` owes `other`) across the household
        /// and groups, at least the settings' `settleUpThreshold` (Swiff 4.1.3).
        case settleUp(person: PersonID, other: PersonID, amount: Money)
        /// A category's expenses in `month` through the date asked, `spent`, reached the
        /// settings' `spikePercent` of its monthly average over the three whole months before,
        /// `trailingAverage`, in one currency (Swiff 4.3.1).
        case spendingSpike(categoryID: CategoryID, month: YearMonth, spent: Money, trailingAverage: Money)
        /// A wallet's balance at the end of the date asked, `balance`, is below its balance
        /// alert's `threshold` (`setBalanceAlert` `below`; Tim post-MVP alerts).
        case balanceBelow(walletID: WalletID, balance: Money, threshold: Money)
        /// A wallet's balance at the end of the date asked is above its alert's `threshold`.
        case balanceAbove(walletID: WalletID, balance: Money, threshold: Money)
    }

    /// What the alert is about.
    public let kind: Kind

    /// The stable identity of the crossing, e.g. `budget/<category>/2026-11-25/80`.
    public var id: String {
        switch kind {
        case .budget(let category, let period, let threshold, _, _): "budget/\(category)/\(period.start)/\(threshold)"
        case .upcoming(let template, let date, _): "upcoming/\(template)/\(date)"
        case .largeTransaction(let transaction, _, _): "large/\(transaction)"
        case .staleBalance(let wallet, let lastPointOn, _): "stale/\(wallet)/\(lastPointOn)"
        case .priceIncrease(let template, let effectiveFrom, _, _): "price/\(template)/\(effectiveFrom)"
        case .settleUp(let person, let other, let amount): "settle/\(person)/\(other)/\(amount.currency)"
        case .spendingSpike(let category, let month, let spent, _): "spike/\(category)/\(month)/\(spent.currency)"
        case .balanceBelow(let wallet, _, let threshold): "balance/below/\(wallet)/\(threshold.minorUnits)"
        case .balanceAbove(let wallet, _, let threshold): "balance/above/\(wallet)/\(threshold.minorUnits)"
        }
    }
}
