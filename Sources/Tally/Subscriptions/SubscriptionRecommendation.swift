import TallyModel

/// A suggestion about the recurring items a viewer pays (Swiff 4.2.3), derived when asked from
/// the subscriptions on a date (R1), never stored; the same items give the same suggestions
/// with the same ``id`` (Docs/Subscriptions.md "Recommendations").
public struct SubscriptionRecommendation: Sendable, Hashable {
    /// What is suggested.
    public enum Kind: Sendable, Hashable {
        /// Live expense items (active or in trial) that look like one paid more than once: the
        /// same name (note, case and spacing ignored), or the same category, cycle and price.
        /// The ids ascending.
        case duplicates(templateIDs: [TemplateID])
        /// A live expense item billed more often than yearly costs `annualAmount` a year; an
        /// annual plan at ``SubscriptionRecommendation/annualPlanMonthsPaid`` months' price would
        /// save `saving` a year (in the item's currency).
        case annualPlan(templateID: TemplateID, annualAmount: Money, saving: Money)
    }

    /// What is suggested.
    public let kind: Kind

    /// The months' price an annual plan is assumed to cost: 10 (two months free, the common
    /// offer of yearly billing; about 16.7% saved). A documented estimate, not a quote.
    public static let annualPlanMonthsPaid: Int64 = 10

    /// The stable identity: `duplicates/<every id, sorted, joined by +>` or `annual/<template>`.
    public var id: String {
        switch kind {
        case .duplicates(let ids): "duplicates/" + ids.map(\.description).joined(separator: "+")
        case .annualPlan(let template, _, _): "annual/\(template)"
        }
    }
}

extension SubscriptionBook {
    /// The recommendations on `date` (Swiff 4.2.3): duplicate groups first (by their ids, in
    /// order), then annual plans, largest saving first (then by id). Each duplicate group is
    /// reported once, even when it matches by name and by price.
    package func recommendations(on date: LocalDate) -> [SubscriptionRecommendation] {
        let live = subscriptions(on: date).filter { $0.kind == .expense && ($0.standing == .active || $0.standing == .trial) }
        struct PriceKey: Hashable { let category: CategoryID; let frequency: RecurrenceFrequency; let price: Money }
        var byName: [String: [TemplateID]] = [:]
        var byPrice: [PriceKey: [TemplateID]] = [:]
        for item in live {
            if let note = item.note {
                let name = note.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
                if !name.isEmpty { byName[name, default: []].append(item.templateID) }
            }
            byPrice[PriceKey(category: item.categoryID, frequency: item.frequency, price: item.price), default: []].append(item.templateID)
        }
        var groups: [[TemplateID]] = []
        for ids in Array(byName.values) + Array(byPrice.values) where ids.count > 1 {
            let sorted = ids.sorted()
            if !groups.contains(sorted) { groups.append(sorted) }
        }
        // By every id in order: deterministic whatever order the dictionaries gave them in.
        groups.sort { $0.lexicographicallyPrecedes($1) }
        var plans: [(id: TemplateID, annual: Money, saving: Money)] = []
        for item in live where item.frequency != .yearly {
            let annual = Int128(item.annualAmount.minorUnits)
            let saving = (annual * Int128(12 - SubscriptionRecommendation.annualPlanMonthsPaid)).dividedRoundingHalfEven(by: 12)
            guard saving > 0, let amount = Int64(exactly: saving) else { continue }
            plans.append((item.templateID, item.annualAmount, Money(minorUnits: amount, currency: item.annualAmount.currency)))
        }
        plans.sort { ($1.saving.minorUnits, $0.id) < ($0.saving.minorUnits, $1.id) }
        return groups.map { SubscriptionRecommendation(kind: .duplicates(templateIDs: $0)) }
            + plans.map { SubscriptionRecommendation(kind: .annualPlan(templateID: $0.id, annualAmount: $0.annual, saving: $0.saving)) }
    }
}

extension Ledger {
    /// Subscription recommendations on `date` for `viewer` (Swiff 4.2.3, G7: over the recurring
    /// items they see): possible duplicates and the saving of an annual plan
    /// (``SubscriptionRecommendation``).
    public func subscriptionRecommendations(on date: LocalDate, visibleTo viewer: Viewer) -> [SubscriptionRecommendation] {
        SubscriptionBook(state: queryState, visibleTo: viewer).recommendations(on: date)
    }
}
