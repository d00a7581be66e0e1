import Foundation
import Tally
import TallyInterchange
import TallyModel
import TallyProjections

/// The text and JSON forms of `tally subscriptions`.
struct SubscriptionsText {
    let history: LedgerHistory
    let json: Bool

    static func cycle(_ frequency: RecurrenceFrequency) -> String {
        switch frequency {
        case .daily: "daily"
        case .weekly: "weekly"
        case .biweekly: "biweekly"
        case .monthly: "monthly"
        case .quarterly: "quarterly"
        case .semiannual: "semiannual"
        case .yearly: "annual"
        }
    }

    func name(_ note: String?, _ id: TemplateID) -> String { note ?? id.description }

    func list(_ subscriptions: [Subscription], totals: SubscriptionTotals) -> String {
        if json {
            return CanonicalJSON.object([
                "date": CanonicalJSON(totals.date),
                "subscriptions": .array(subscriptions.map(Self.json)),
                "totals": .object([
                    "count": .integer(Int64(totals.count)), "monthly": CanonicalJSON(totals.monthly), "annual": CanonicalJSON(totals.annual),
                    "missingRates": .array(totals.missingRates.map { .string($0.code) }),
                ]),
            ]).text
        }
        var table = TextTable([("ID", .left), ("Name", .left), ("Cycle", .left), ("Price", .right), ("Next", .left),
                               ("Monthly", .right), ("Status", .left), ("Category", .left)])
        for item in subscriptions {
            table.add([
                item.templateID.description, name(item.note, item.templateID), Self.cycle(item.frequency), item.price.formatted(),
                item.next?.date.isoString ?? "-", item.monthlyEquivalent.formatted(), item.standing.rawValue, history.categoryName(item.categoryID),
            ])
        }
        var lines = [subscriptions.isEmpty ? "no subscriptions" : table.render()]
        for item in subscriptions {
            guard let sharing = item.sharing else { continue }
            let parts = item.costPerPerson.map { share in
                "\(history.personName(share.person)) \(share.amount.formatted())" + (item.acceptedBy.contains(share.person) ? " (accepted)" : "")
            }
            lines.append("\(name(item.note, item.templateID)) shared \(Self.sharingKind(sharing.kind)): \(parts.joined(separator: ", "))")
        }
        lines.append("Total of \(totals.count) active on \(totals.date): monthly \(totals.monthly.formatted()), annual \(totals.annual.formatted())")
        if !totals.missingRates.isEmpty {
            lines.append("  left out, no exchange rate to the base currency: \(totals.missingRates.map(\.code).joined(separator: ", "))")
        }
        return lines.joined(separator: "\n")
    }

    func occurrences(_ occurrences: [SubscriptionOccurrence], title: String, dayTotals: Bool = false) -> String {
        if json {
            return CanonicalJSON.object(["occurrences": .array(occurrences.map { occurrence in
                .object([
                    "templateID": CanonicalJSON(occurrence.templateID), "name": CanonicalJSON(occurrence.note),
                    "date": CanonicalJSON(occurrence.date), "price": CanonicalJSON(occurrence.price),
                    "transactionID": CanonicalJSON(occurrence.transactionID),
                ])
            })]).text
        }
        var table = TextTable([("Date", .left), ("Name", .left), ("Price", .right), ("Posted", .left)])
        for occurrence in occurrences {
            table.add([occurrence.date.isoString, name(occurrence.note, occurrence.templateID), occurrence.price.formatted(),
                       occurrence.transactionID == nil ? "-" : "yes"])
        }
        var lines = [title, occurrences.isEmpty ? "  none" : table.render()]
        if dayTotals, !occurrences.isEmpty {
            var days = TextTable([("Day", .left), ("Total", .right)])
            for (date, sameDay) in Dictionary(grouping: occurrences, by: \.date).sorted(by: { $0.key < $1.key }) {
                let byCurrency = Dictionary(grouping: sameDay, by: \.price.currency).sorted { $0.key < $1.key }.map { currency, items in
                    Money(minorUnits: items.reduce(0) { $0 + $1.price.minorUnits }, currency: currency).formatted()
                }
                days.add([date.isoString, byCurrency.joined(separator: ", ")])
            }
            lines.append(days.render())
        }
        return lines.joined(separator: "\n")
    }

    func history(_ billed: [BilledOccurrence], of id: TemplateID) -> String {
        if json {
            return CanonicalJSON.object(["templateID": CanonicalJSON(id), "occurrences": .array(billed.map { item in
                .object([
                    "date": CanonicalJSON(item.date), "transactionID": CanonicalJSON(item.transactionID),
                    "amount": CanonicalJSON(item.amount), "isDeleted": .bool(item.isDeleted), "status": .string("\(item.status)"),
                ])
            })]).text
        }
        var table = TextTable([("Date", .left), ("Transaction", .left), ("Amount", .right), ("Status", .left), ("Deleted", .left)])
        for item in billed {
            table.add([item.date.isoString, item.transactionID.description, item.amount.formatted(), "\(item.status)", item.isDeleted ? "yes" : "-"])
        }
        return ["Billing history of \(id)", billed.isEmpty ? "  none" : table.render()].joined(separator: "\n")
    }

    static func json(_ item: Subscription) -> CanonicalJSON {
        let schedule = item.schedule
        var prices: [CanonicalJSON] = [.object(["effectiveFrom": CanonicalJSON(schedule.anchor), "amount": CanonicalJSON(schedule.basePrice)])]
        prices += schedule.priceChanges.map { .object(["effectiveFrom": CanonicalJSON($0.effectiveFrom), "amount": CanonicalJSON($0.amount)]) }
        return .object([
            "templateID": CanonicalJSON(item.templateID), "name": CanonicalJSON(item.note), "kind": .string(item.kind == .income ? "income" : "expense"),
            "cycle": .string(cycle(item.frequency)), "anchor": CanonicalJSON(schedule.anchor), "price": CanonicalJSON(item.price),
            "priceHistory": .array(prices), "standing": .string(item.standing.rawValue),
            "next": item.next.map { .object(["date": CanonicalJSON($0.date), "price": CanonicalJSON($0.price)]) } ?? .null,
            "monthlyEquivalent": CanonicalJSON(item.monthlyEquivalent), "annualAmount": CanonicalJSON(item.annualAmount),
            "endDate": CanonicalJSON(schedule.endDate), "occurrenceCount": schedule.occurrenceCount.map(CanonicalJSON.integer) ?? .null,
            "trialEndsOn": CanonicalJSON(schedule.trialEndsOn), "cancelledOn": CanonicalJSON(schedule.cancelledOn),
            "cancelReason": CanonicalJSON(item.cancelReason),
            "pauses": .array(schedule.pauses.map { .object(["from": CanonicalJSON($0.from), "until": CanonicalJSON($0.until)]) }),
            "cycleChanges": .array(schedule.cycleChanges.map { .object(["from": CanonicalJSON($0.from), "cycle": .string(cycle($0.frequency))]) }),
            "tags": .array(item.tags.map(CanonicalJSON.string)), "description": CanonicalJSON(item.description),
            "website": CanonicalJSON(item.website), "paymentMethod": CanonicalJSON(item.paymentMethod), "icon": CanonicalJSON(item.icon),
            "color": CanonicalJSON(item.color),
            "walletID": CanonicalJSON(item.walletID), "categoryID": CanonicalJSON(item.categoryID), "payer": CanonicalJSON(item.payer),
            "posted": .integer(Int64(item.postedCount)),
            "sharing": item.sharing.map { sharing in
                .object(["kind": .string(sharingKind(sharing.kind)), "people": .array(sharing.weights.map { .string($0.person.description) })])
            } ?? .null,
            "costPerPerson": .array(item.costPerPerson.map { share in
                .object(["personID": CanonicalJSON(share.person), "amount": CanonicalJSON(share.amount), "accepted": .bool(item.acceptedBy.contains(share.person))])
            }),
        ])
    }

    /// A sharing kind as `createTemplate`'s `sharing.kind` names it.
    static func sharingKind(_ kind: TemplateSharingKind) -> String {
        switch kind {
        case .equal: "equal"
        case .exact: "exact"
        case .percent: "percentage"
        case .free: "free"
        }
    }
}
