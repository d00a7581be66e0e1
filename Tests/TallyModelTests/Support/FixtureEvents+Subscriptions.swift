import TallyModel

/// Issue 17 item 4, R1: `TemplateCreated` v3 (terms), `TemplatePaused` v2 and `TemplateResumed`
/// v2 (dates), and the new `TemplatePriceChanged` (420) and `TemplateCancelled` (421), for
/// `Tests/Fixtures/events-subscriptions.bin`.
extension FixtureEvents {
    static let subscriptionTemplate: TemplateID = id(4200)

    static let streaming = TransactionDetails(
        kind: .expense, amount: chf(2_999), walletID: bank, categoryID: groceries, date: date(2026, 1, 31),
        note: PersonalText("Streaming", owner: anna), tags: ["subscription"], payer: anna,
        split: TransactionSplit(
            ratios: [MemberRatio(person: anna, ratio: ratio(5000)), MemberRatio(person: ben, ratio: ratio(5000))], isOverride: true,
            shares: [PersonShare(person: anna, amount: chf(1_500)), PersonShare(person: ben, amount: chf(1_499))]))

    static let subscriptions: [Event] = [
        .templateCreated(TemplateCreated(
            templateID: subscriptionTemplate, frequency: .semiannual, details: streaming,
            terms: TemplateTerms(
                endDate: nil, occurrenceCount: 12, trialEndsOn: date(2026, 2, 28),
                sharing: TemplateSharing(kind: .equal, weights: [MemberWeight(person: anna, weight: 1), MemberWeight(person: ben, weight: 1)])))),
        .templatePaused(TemplatePaused(templateID: subscriptionTemplate, from: date(2026, 7, 1), resumesOn: date(2026, 9, 1))),
        .templateResumed(TemplateResumed(templateID: subscriptionTemplate, on: date(2026, 8, 1))),
        .templatePriceChanged(TemplatePriceChanged(templateID: subscriptionTemplate, amount: chf(3_499), effectiveFrom: date(2026, 7, 31))),
        .templateCancelled(TemplateCancelled(templateID: subscriptionTemplate, effectiveOn: date(2027, 1, 1))),
    ].enumerated().map { index, payload in
        Event(commandID: id(4200 + UInt64(index)), actor: anna,
              recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_400_000_000 + Int64(index) * 1000), payload: payload)
    }
}

extension FixtureEvents {
    /// `TemplateEdited` (422), `TemplateProfileSet` (423) and `OccurrenceBillingMarked` (424),
    /// version 1 (R1, Swiff 1.2.3, 1.3.3): an edit for all future occurrences with a new
    /// cycle, a profile, and a failed occurrence.
    static let subscriptionEditing: [Event] = [
        .templateEdited(TemplateEdited(
            templateID: subscriptionTemplate, effectiveFrom: date(2026, 9, 15), note: PersonalText("Streaming HD", owner: anna),
            categoryID: groceries, walletID: bank, tags: ["subscription", "hd"], cycle: .monthly, nextBilling: date(2026, 9, 20))),
        .templateProfileSet(TemplateProfileSet(templateID: subscriptionTemplate, profile: TemplateProfile(
            description: PersonalText("Family plan", owner: anna), website: "https://example.com",
            paymentMethod: PersonalText("Visa 4242", owner: anna), icon: "tv", color: "#E50914"))),
        .occurrenceBillingMarked(OccurrenceBillingMarked(templateID: subscriptionTemplate, date: date(2026, 7, 31), status: .failed)),
    ].enumerated().map { index, payload in
        Event(commandID: id(4220 + UInt64(index)), actor: anna,
              recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_700_000_000 + Int64(index) * 1000), payload: payload)
    }
}

extension FixtureEvents {
    /// `SettlementRecorded` version 2 (S6, Swiff 2.1.3): a settlement with a note and a payment
    /// method, and one with neither.
    static let settlementV2: [Event] = [
        .settlementRecorded(SettlementRecorded(
            settlementID: id(5011), from: ben, to: anna, amount: chf(2_500), date: date(2026, 3, 1), covers: nil, isAdvance: false,
            groupID: nil, note: PersonalText("March rent share", owner: anna), paymentMethod: "TWINT")),
        .settlementRecorded(SettlementRecorded(
            settlementID: id(5012), from: anna, to: ben, amount: chf(100), date: date(2026, 3, 2), covers: nil, isAdvance: true, groupID: nil)),
    ].enumerated().map { index, payload in
        Event(commandID: id(5010 + UInt64(index)), actor: anna,
              recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_900_000_000 + Int64(index) * 1000), payload: payload)
    }
}
