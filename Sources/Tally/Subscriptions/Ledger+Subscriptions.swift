import TallyModel
import TallyProjections

/// Subscriptions and recurring items (R1): the list with next dates and monthly equivalents,
/// upcoming occurrences, the renewal calendar, totals and billing history
/// (Docs/Subscriptions.md). Posting due occurrences is the command
/// ``CommandAction/postDueOccurrences(through:)``.
extension Ledger {
    /// Every recurring item as of `date` (its standing, price, next billed occurrence and
    /// monthly equivalent), ordered by next occurrence, then id.
    public func subscriptions(on date: LocalDate) -> [Subscription] {
        SubscriptionBook(state: queryState).subscriptions(on: date)
    }

    /// The billed occurrences dated from `date` through `date + days` (at most 3660 days), by
    /// date then template id; posted ones carry their transaction.
    public func upcomingOccurrences(from date: LocalDate, days: Int) -> [SubscriptionOccurrence] {
        SubscriptionBook(state: queryState).upcoming(from: date, days: days)
    }

    /// The billed occurrences in `month`, by date then template id: the renewal calendar.
    public func renewalCalendar(for month: YearMonth) -> [SubscriptionOccurrence] {
        SubscriptionBook(state: queryState).calendar(for: month)
    }

    /// The monthly-equivalent and annual totals of the active expense subscriptions on `date`
    /// in the base currency, converted per G2 (exact, rounded once).
    /// - Throws: ``LedgerError/invalidQuery(_:)`` when a total overflows.
    public func subscriptionTotals(on date: LocalDate) throws(LedgerError) -> SubscriptionTotals {
        let book = SubscriptionBook(state: queryState)
        let totals = read { models in Result { () throws(ProjectionError) in try book.totals(on: date, wallets: models.wallets) } }
        do {
            return try totals.get()
        } catch {
            throw .invalidQuery("the subscription totals do not fit: \(error)")
        }
    }

    /// The recorded occurrences of template `id`, by date, with each transaction's amount now.
    /// - Throws: ``LedgerError/rejected(_:)`` `unknownTemplate` (T4) when no template has that id.
    public func billingHistory(of id: TemplateID) throws(LedgerError) -> [BilledOccurrence] {
        guard let history = SubscriptionBook(state: queryState).history(of: id) else {
            throw .violation(.unknownTemplate, "no template has id \(id)")
        }
        return history
    }
}
