import TallyModel

/// A recurring item or subscription as of a date (R1): what `tally subscriptions` lists and a
/// subscriptions screen shows. Its name, wallet, category and tags are the latest fields (an
/// edit for all future occurrences shows at once); each occurrence is posted with the fields
/// in effect on its date.
public struct Subscription: Sendable, Hashable {
    /// The template.
    public let templateID: TemplateID
    /// Income or expense.
    public let kind: TransactionKind
    /// The template's note (its name), `[redacted]` when its key is gone.
    public let note: String?
    /// The payer wallet.
    public let walletID: WalletID
    /// The category.
    public let categoryID: CategoryID
    /// The tags.
    public let tags: [String]
    /// Who pays (or receives).
    public let payer: PersonID
    /// The cycle in effect on the date asked (a cycle change starts another).
    public let frequency: RecurrenceFrequency
    /// A longer description (`setTemplateProfile`), `[redacted]` when its key is gone.
    public let description: String?
    /// The provider's website.
    public let website: String?
    /// How it is paid, `[redacted]` when its key is gone.
    public let paymentMethod: String?
    /// An icon name or emoji.
    public let icon: String?
    /// A colour the app draws.
    public let color: String?
    /// The schedule: cycle, anchor, end, trial, price history, pauses, cancel.
    public let schedule: RecurringSchedule
    /// The split among people (members or contacts), if entered as equal, exact, percent or
    /// free (Swiff 1.1.2 SharedSubscription).
    public let sharing: TemplateSharing?
    /// Each person's part of ``price``, as an occurrence on the date asked is posted (its
    /// sharing, or its household split; people forgotten since take no part, P3): the cost per
    /// person (Swiff 1.1.2). One part, the payer's, for a personal item; zero parts for people
    /// it is shared with free.
    public let costPerPerson: [PersonShare]
    /// The people of ``sharing`` who accepted their part (`setSharingAcceptance`), by id.
    public let acceptedBy: [PersonID]
    /// Active, in trial, paused, cancelled or ended on the date asked.
    public let standing: RecurringSchedule.Standing
    /// The price in effect on the date asked.
    public let price: Money
    /// The next billed occurrence on or after the date asked, if any.
    public let next: ScheduledOccurrence?
    /// `price` as a monthly amount: price x occurrences per year / 12, rounded half to even
    /// once (R1, G2).
    public let monthlyEquivalent: Money
    /// `price` x occurrences per year (exact).
    public let annualAmount: Money
    /// How many occurrences were recorded as transactions.
    public let postedCount: Int
    /// Why it was cancelled, while it is (`cancelTemplate` `reason`, Swiff 1.3.3); `[redacted]`
    /// when its key is gone; `nil` when none was given or it is not cancelled.
    public let cancelReason: String?
}

/// One billed occurrence in the upcoming list or the renewal calendar (R1).
public struct SubscriptionOccurrence: Sendable, Hashable {
    /// The template.
    public let templateID: TemplateID
    /// The template's note (its name).
    public let note: String?
    /// The occurrence date.
    public let date: LocalDate
    /// The price in effect on that date.
    public let price: Money
    /// The transaction it was recorded as, once posted.
    public let transactionID: TransactionID?
}

/// One recorded occurrence of a subscription: its billing history (R1).
public struct BilledOccurrence: Sendable, Hashable {
    /// The occurrence date.
    public let date: LocalDate
    /// The transaction recorded for it.
    public let transactionID: TransactionID
    /// The transaction's amount now (an edit, T2, shows here).
    public let amount: Money
    /// Whether the transaction is deleted (T3): the occurrence stays posted.
    public let isDeleted: Bool
    /// Paid, pending or failed (`markOccurrenceBilling`); paid unless marked.
    public let status: BillingStatus
}

/// The monthly-equivalent and annual totals of the active expense subscriptions on a date,
/// in the base currency (R1, G2): each price times its occurrences per year, converted
/// exactly, summed, then divided by 12 and rounded once.
public struct SubscriptionTotals: Sendable, Hashable {
    /// The date the totals are for.
    public let date: LocalDate
    /// How many subscriptions count (active expenses: not in trial, paused, cancelled or ended).
    public let count: Int
    /// The monthly equivalent.
    public let monthly: Money
    /// The annual amount.
    public let annual: Money
    /// Currencies with no exchange rate to the base currency on that date: their items are
    /// left out of the totals (N3: a gap, never a silent 1.0).
    public let missingRates: [Currency]
}
