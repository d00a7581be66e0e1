import HashTreeCollections
import TallyModel
import TallyProjections

/// The subscription queries (R1) over the templates of a validation state: the one place
/// `Ledger`'s queries and the CLI compute subscriptions, occurrences and totals.
package struct SubscriptionBook: Sendable {
    /// The most days ``upcoming(from:days:)`` covers.
    package static let upcomingDaysMax = 3660

    let state: LedgerState
    /// Whose subscriptions (G7): a member's own and the ones shared with them.
    let viewer: Viewer

    /// A book over `state`'s templates that `viewer` sees.
    package init(state: LedgerState, visibleTo viewer: Viewer) {
        self.state = state
        self.viewer = viewer
    }

    /// The templates `viewer` sees: as the transactions they post (`Viewer.sees`), a template
    /// shared by weights is its payer's and every weighted person's.
    private var templates: TreeDictionary<TemplateID, TemplateRecord> { state.templates.filter { viewer.sees($1) } }

    /// Template `id` when `viewer` sees it.
    private func template(_ id: TemplateID) -> TemplateRecord? { state.templates[id].flatMap { viewer.sees($0) ? $0 : nil } }

    /// Every template as of `date`, ordered by next occurrence (none last), then id.
    package func subscriptions(on date: LocalDate) -> [Subscription] {
        templates.map { id, template in summary(id, template, on: date) }.sorted { left, right in
            let (leftNext, rightNext) = (left.next?.date ?? .max, right.next?.date ?? .max)
            return leftNext != rightNext ? leftNext < rightNext : left.templateID < right.templateID
        }
    }

    /// One template as of `date`, `nil` when no template has `id`.
    package func subscription(_ id: TemplateID, on date: LocalDate) -> Subscription? {
        template(id).map { summary(id, $0, on: date) }
    }

    /// The billed occurrences dated `date` through `date + days`, by date then template id.
    package func upcoming(from date: LocalDate, days: Int) -> [SubscriptionOccurrence] {
        let end = (try? date.adding(days: Int64(max(0, min(days, Self.upcomingDaysMax))))) ?? .max
        return occurrences(from: date, through: end)
    }

    /// The billed occurrences in `month`, by date then template id: the renewal calendar.
    package func calendar(for month: YearMonth) -> [SubscriptionOccurrence] {
        occurrences(from: month.firstDay, through: month.lastDay)
    }

    /// The recorded occurrences of `id` by date, `nil` when no template has that id.
    package func history(of id: TemplateID) -> [BilledOccurrence]? {
        guard let template = template(id) else { return nil }
        return template.posted.compactMap { posted in
            // A posted occurrence edited to another member's personal transaction is theirs (G7).
            state.transactions[posted.transactionID].flatMap { viewer.sees($0.details) ? $0 : nil }.map {
                BilledOccurrence(
                    date: posted.date, transactionID: posted.transactionID, amount: $0.details.amount, isDeleted: $0.isDeleted,
                    status: template.billingStatus(on: posted.date))
            }
        }
    }

    /// The totals of the active expense subscriptions on `date` in the base currency (G2).
    /// - Throws: ``ProjectionError/overflow(rule:subject:)`` when a total does not fit.
    package func totals(on date: LocalDate, wallets: WalletProjection) throws(ProjectionError) -> SubscriptionTotals {
        let base = state.household?.baseCurrency ?? .chf
        var parts: [(units: Int128, currency: Currency)] = []
        for (_, template) in templates where template.details.kind == .expense && template.schedule.standing(on: date) == .active {
            let price = template.schedule.price(on: date)
            parts.append((Int128(price.minorUnits) * Int128(template.schedule.frequency(on: date).occurrencesPerYear), price.currency))
        }
        let monthly = try wallets.convertedTotal(parts, dividedBy: 12, into: base, on: date, rule: "R1")
        let annual = try wallets.convertedTotal(parts, dividedBy: 1, into: base, on: date, rule: "R1")
        return SubscriptionTotals(date: date, count: parts.count, monthly: monthly.total, annual: annual.total, missingRates: monthly.missingRates)
    }

    /// The price increases (a change to a higher price than the one before it, in the same
    /// currency) taking effect from `days` before `date` through `days` after it, by template id
    /// then date (R6, Swiff 4.2.1).
    package func priceIncreases(around date: LocalDate, days: Int64) -> [(templateID: TemplateID, effectiveFrom: LocalDate, previous: Money, price: Money)] {
        let start = (try? date.adding(days: -days)) ?? .min
        let end = (try? date.adding(days: days)) ?? .max
        var result: [(templateID: TemplateID, effectiveFrom: LocalDate, previous: Money, price: Money)] = []
        for (id, template) in templates.sorted(by: { $0.key < $1.key }) {
            var previous = template.schedule.basePrice
            for change in template.schedule.priceChanges {
                defer { previous = change.amount }
                guard (start...end).contains(change.effectiveFrom), change.amount.currency == previous.currency,
                      change.amount.minorUnits > previous.minorUnits else { continue }
                result.append((id, change.effectiveFrom, previous, change.amount))
            }
        }
        return result
    }

    private func occurrences(from start: LocalDate, through end: LocalDate) -> [SubscriptionOccurrence] {
        var result: [SubscriptionOccurrence] = []
        for (id, template) in templates.sorted(by: { $0.key < $1.key }) {
            for occurrence in template.schedule.occurrences(from: start, through: end) where occurrence.status == .billed {
                result.append(SubscriptionOccurrence(
                    templateID: id, note: template.details(on: occurrence.date).note?.description, date: occurrence.date, price: occurrence.price,
                    transactionID: template.posted.first { $0.date == occurrence.date }?.transactionID))
            }
        }
        return result.sorted { $0.date != $1.date ? $0.date < $1.date : $0.templateID < $1.templateID }
    }

    private func summary(_ id: TemplateID, _ template: TemplateRecord, on date: LocalDate) -> Subscription {
        let price = template.schedule.price(on: date)
        let frequency = template.schedule.frequency(on: date)
        let annual = Int128(price.minorUnits) * Int128(frequency.occurrencesPerYear)
        let details = template.latestDetails
        let dated = template.details(on: date)
        let split = (try? state.occurrenceSplit(of: template, dated, price: price)) ?? dated.split
        let sharers = Set(template.sharing?.weights.map(\.person) ?? [])
        return Subscription(
            templateID: id, kind: details.kind, note: details.note?.description, walletID: details.walletID,
            categoryID: details.categoryID, tags: details.tags, payer: details.payer, frequency: frequency,
            description: template.profile.description?.description, website: template.profile.website,
            paymentMethod: template.profile.paymentMethod?.description, icon: template.profile.icon, color: template.profile.color,
            schedule: template.schedule, sharing: template.sharing,
            costPerPerson: split?.shares ?? [PersonShare(person: dated.payer, amount: price)],
            acceptedBy: template.acceptedBy.filter(sharers.contains), standing: template.schedule.standing(on: date), price: price,
            next: template.schedule.nextBilled(onOrAfter: date),
            monthlyEquivalent: Money(minorUnits: Int64(clamping: annual.dividedRoundingHalfEven(by: 12)), currency: price.currency),
            annualAmount: Money(minorUnits: Int64(clamping: annual), currency: price.currency),
            postedCount: template.posted.count, cancelReason: template.cancelReason?.description)
    }
}
