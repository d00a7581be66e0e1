import TallyModel
import TallyProjections

/// Subscriptions and recurring items (R1): the list with next dates and monthly equivalents,
/// upcoming occurrences, the renewal calendar, totals and billing history
/// (Docs/Subscriptions.md). Posting due occurrences is the command
/// ``CommandAction/postDueOccurrences(through:)``.
extension Ledger {
    /// Every recurring item as of `date` (its standing, price, next billed occurrence and
    /// monthly equivalent), ordered by next occurrence, then id.
    /// A member `viewer` sees their own and the ones shared with them (G7).
    public func subscriptions(on date: LocalDate, visibleTo viewer: Viewer) -> [Subscription] {
        SubscriptionBook(state: queryState, visibleTo: viewer).subscriptions(on: date)
    }

    /// The billed occurrences dated from `date` through `date + days` (at most 3660 days), by
    /// date then template id; posted ones carry their transaction.
    public func upcomingOccurrences(from date: LocalDate, days: Int, visibleTo viewer: Viewer) -> [SubscriptionOccurrence] {
        SubscriptionBook(state: queryState, visibleTo: viewer).upcoming(from: date, days: days)
    }

    /// The billed occurrences in `month`, by date then template id: the renewal calendar.
    public func renewalCalendar(for month: YearMonth, visibleTo viewer: Viewer) -> [SubscriptionOccurrence] {
        SubscriptionBook(state: queryState, visibleTo: viewer).calendar(for: month)
    }

    /// The monthly-equivalent and annual totals of the active expense subscriptions on `date`
    /// in the base currency, converted per G2 (exact, rounded once).
    /// - Throws: ``LedgerError/invalidQuery(_:)`` when a total overflows.
    public func subscriptionTotals(on date: LocalDate, visibleTo viewer: Viewer) throws(LedgerError) -> SubscriptionTotals {
        do {
            return try SubscriptionBook(state: queryState, visibleTo: viewer).totals(on: date, wallets: servedModels.wallets)
        } catch {
            throw .invalidQuery("the subscription totals do not fit: \(error)")
        }
    }

    /// The recorded occurrences of template `id`, by date, with each transaction's amount now.
    /// - Throws: ``LedgerError/rejected(_:)`` `unknownTemplate` (T4) when no template `viewer`
    ///   sees has that id.
    public func billingHistory(of id: TemplateID, visibleTo viewer: Viewer) throws(LedgerError) -> [BilledOccurrence] {
        guard let history = SubscriptionBook(state: queryState, visibleTo: viewer).history(of: id) else {
            throw .violation(.unknownTemplate, "no template \(viewer) sees has id \(id)")
        }
        return history
    }
}
