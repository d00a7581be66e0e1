import TallyModel

/// The household as validation sees it (H1, H2, H5).
@WireFields
package struct HouseholdRecord: Sendable, Equatable {
    /// The household's id.
    package var id: HouseholdID
    /// Its name.
    package var name: String
    /// The base currency (H2).
    package var baseCurrency: Currency
    /// The admin (H5).
    package var admin: PersonID
}

/// A member or contact (H3).
@WireFields
package struct PersonRecord: Sendable, Equatable {
    /// The display name (personal text of the person, P1).
    package var name: PersonalText
    /// Whether the person is (or was) a household member rather than a contact.
    package var isMember: Bool
    /// Whether the member was removed (H4).
    package var isRemoved = false
    /// Whether the person was archived (H3).
    package var isArchived = false
    /// The sequence number of the person's `PersonForgotten` event: their key is destroyed,
    /// their texts redacted (P3); `nil` while they are not forgotten.
    package var forgottenAt: UInt64?
    /// The e-mail address (personal text of the person, P1), if given (`PersonUpdated`).
    package var email: PersonalText?
    /// The phone number (personal text of the person, P1), if given (`PersonUpdated`).
    package var phone: PersonalText?
    /// The avatar, if set (`PersonAvatarSet`; dropped when the person is forgotten, P3).
    package var avatar: PersonAvatar?
    /// Whether the person was forgotten (P3).
    package var isForgotten: Bool { forgottenAt != nil }
}

/// An invitation to join the household (H6, Flow US-005): as the admin sent it, and how it
/// ended. It is pending while it has no outcome and its `expiresAt` has not passed; the fold
/// has no clock, so expiry is judged against the time of the command or query that asks.
@WireFields
package struct InvitationRecord: Sendable, Equatable {
    /// The invitation as sent (its texts redacted once the invitee is forgotten, P3).
    package var invitation: MemberInvited
    /// How it ended, `nil` while it has not (it may still have expired).
    package var outcome: InvitationOutcome?

    /// Whether it can still be accepted or cancelled at `time`: no outcome, not expired.
    package func isPending(at time: Timestamp) -> Bool { outcome == nil && time < invitation.expiresAt }
}

extension MemberInvited {
    /// The invitation with the invitee's texts redacted (P3: the invitee was forgotten).
    func redacted() -> MemberInvited {
        MemberInvited(
            invitationID: invitationID, personID: personID, name: .redacted(owner: personID),
            email: email.map { _ in .redacted(owner: personID) }, expiresAt: expiresAt)
    }
}

/// How an invitation ended before it expired (H6).
package enum InvitationOutcome: UInt8, Sendable, Equatable, WireEnum {
    /// The admin cancelled it.
    case cancelled = 1
    /// The invitee accepted it and became a member.
    case accepted = 2
}

/// What a category holds, which its deletion checks (C3): kept by the validation state beside
/// the budget read model's category book.
@WireFields
package struct CategoryCounts: Sendable, Equatable {
    /// Transactions (live or deleted) and templates in it.
    package var entries = 0
    /// Group expenses (live or deleted) filed under it (Docs/Editing.md "Group expenses").
    package var groupExpenses = 0
}

/// A recurring template (T4, R1).
@WireFields
package struct TemplateRecord: Sendable, Equatable {
    /// Its transaction fields; `details.date` is the anchor, `details.amount` the base price.
    package var details: TransactionDetails
    /// When it occurs, at what price, paused, trial, ended or cancelled (R1).
    package var schedule: RecurringSchedule
    /// The split among people, if it was entered as equal, exact or percent (R1).
    package var sharing: TemplateSharing?
    /// The occurrences recorded as transactions, by date ascending: the idempotency key of
    /// posting is (template, date) (R1).
    package var posted: [PostedOccurrence] = []
    /// Field changes from a date on ("this and all future"), by date ascending; an edit
    /// replaces every later one.
    package var edits: [TemplateEdited] = []
    /// The descriptive fields (`TemplateProfileSet`).
    package var profile = TemplateProfile()
    /// The billing marks of posted occurrences, by date ascending; unmarked ones are paid.
    package var billingMarks: [OccurrenceBillingMarked] = []
    /// Why it was cancelled, while it is (`TemplateCancelled` v2, Swiff 1.3.3; personal text
    /// of who cancelled, P1); `nil` when no reason was given or it is not cancelled.
    package var cancelReason: PersonalText?
    /// The people of its sharing who accepted their part (`TemplateSharingAccepted`, Swiff 1.1.2
    /// SharedSubscription), by id.
    package var acceptedBy: [PersonID] = []

    /// How often it occurs at first (a cycle change starts another, ``RecurringSchedule``).
    package var frequency: RecurrenceFrequency { schedule.frequency }

    /// The fields an occurrence on `date` is posted with: the creation's, with the latest edit
    /// effective on or before `date` applied (`details.date` stays the anchor).
    package func details(on date: LocalDate) -> TransactionDetails {
        edits.last { $0.effectiveFrom <= date }.map { $0.applied(to: details) } ?? details
    }

    /// The latest fields: what a subscription screen shows.
    package var latestDetails: TransactionDetails { details(on: .max) }

    /// Every category the item's fields use, from its creation on (C3 counts each once).
    package var categories: Set<CategoryID> { Set([details.categoryID] + edits.map(\.categoryID)) }

    /// The billing status of the posted occurrence on `date` (paid unless marked).
    package func billingStatus(on date: LocalDate) -> BillingStatus {
        billingMarks.last { $0.date == date }?.status ?? .paid
    }

    /// Applies an edit: it replaces every edit from its date on; a cycle starts a new cycle.
    mutating func apply(_ edit: TemplateEdited) {
        edits.removeAll { $0.effectiveFrom >= edit.effectiveFrom }
        edits.append(edit)
        if let cycle = edit.cycle { schedule.changeCycle(cycle, from: edit.effectiveFrom, anchor: edit.nextBilling ?? edit.effectiveFrom) }
    }

    /// Applies a billing mark, one per date.
    mutating func mark(_ marked: OccurrenceBillingMarked) {
        billingMarks.removeAll { $0.date == marked.date }
        let position = billingMarks.firstIndex { $0.date > marked.date } ?? billingMarks.endIndex
        billingMarks.insert(marked, at: position)
    }
}

extension TemplateEdited {
    /// An edit from `date` setting the fields an edit carries (name, category, wallet, tags)
    /// to those of `fields`: the one place an edit is built from fields (the undo of an edit, a
    /// category reassignment).
    init(_ templateID: TemplateID, from date: LocalDate, fields: TransactionDetails, cycle: RecurrenceFrequency? = nil, nextBilling: LocalDate? = nil) {
        self.init(
            templateID: templateID, effectiveFrom: date, note: fields.note, categoryID: fields.categoryID, walletID: fields.walletID,
            tags: fields.tags, cycle: cycle, nextBilling: nextBilling)
    }

    /// `base` with this edit's fields in place of its own.
    func applied(to base: TransactionDetails) -> TransactionDetails {
        var result = base
        (result.note, result.categoryID, result.walletID, result.tags) = (note, categoryID, walletID, tags)
        return result
    }
}

/// An occurrence of a template recorded as a transaction (R1).
@WireFields
package struct PostedOccurrence: Sendable, Equatable {
    /// The occurrence date.
    package var date: LocalDate
    /// The transaction recorded for it.
    package var transactionID: TransactionID
}

extension LedgerState {
    /// Whether `person` is an invitee who never joined and was forgotten (P3, H6): their id is
    /// never used again.
    package func isForgottenInvitee(_ person: PersonID) -> Bool {
        invitations.values.contains { $0.invitation.personID == person && $0.invitation.name.isRedacted }
    }

    /// The split an occurrence of `template` dated like `details` is posted with at `price`
    /// (R1): its sharing's (``TemplateSharing/split(_:payer:)``) without the people forgotten
    /// since (P3: they take no new part; with nobody weighted left the payer bears the price);
    /// else the entry's household split, re-resolved when the price is not the base price; `nil`
    /// for a personal item. The one rule posting and the subscription's cost per person use.
    /// - Throws: ``ModelError`` when the split cannot be resolved.
    package func occurrenceSplit(of template: TemplateRecord, _ details: TransactionDetails, price: Money) throws(ModelError) -> TransactionSplit? {
        if var sharing = template.sharing {
            sharing.weights.removeAll { people[$0.person]?.isForgotten == true }
            return try sharing.split(price, payer: details.payer)
        }
        guard let split = details.split, price != template.details.amount else { return details.split }
        return TransactionSplit(
            ratios: split.ratios, isOverride: split.isOverride, shares: try Allocation.split(price, ratios: split.ratios, payer: details.payer))
    }
}

extension Viewer {
    /// Whether the viewer sees a recurring template (G7): as the transactions it posts
    /// (`Viewer/sees(_:)`), and a template shared by weights is every weighted person's too.
    package func sees(_ template: TemplateRecord) -> Bool {
        sees(template.details) || (template.sharing?.weights.contains { sees(anyOf: $0.person) } ?? false)
    }
}
