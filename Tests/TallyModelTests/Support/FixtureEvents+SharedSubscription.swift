import TallyModel

/// Swiff 1.1.2 SharedSubscription, R1: a `TemplateCreated` shared free (`TemplateSharingKind.free`,
/// raw value 3) with a contact, and `TemplateSharingAccepted` (427) accepting and taking it back,
/// for `Tests/Fixtures/events-shared-subscription.bin`. Recorded once; never edited.
extension FixtureEvents {
    static let freeSharedTemplate: TemplateID = id(4800)

    static let sharedSubscription: [Event] = [
        .templateCreated(TemplateCreated(
            templateID: freeSharedTemplate, frequency: .monthly,
            details: TransactionDetails(
                kind: .expense, amount: chf(1_990), walletID: bank, categoryID: groceries, date: date(2026, 3, 1),
                note: PersonalText("Music family plan", owner: anna), tags: [], payer: anna,
                split: TransactionSplit(
                    ratios: [MemberRatio(person: anna, ratio: ratio(10_000)), MemberRatio(person: carla, ratio: ratio(0))], isOverride: true,
                    shares: [PersonShare(person: anna, amount: chf(1_990)), PersonShare(person: carla, amount: chf(0))])),
            terms: TemplateTerms(sharing: TemplateSharing(kind: .free, weights: [MemberWeight(person: carla, weight: 0)])))),
        .templateSharingAccepted(TemplateSharingAccepted(templateID: freeSharedTemplate, person: carla, accepted: true)),
        .templateSharingAccepted(TemplateSharingAccepted(templateID: freeSharedTemplate, person: carla, accepted: false)),
    ].enumerated().map { index, payload in
        Event(commandID: id(4800 + UInt64(index)), actor: anna,
              recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_800_000_000 + Int64(index) * 1000), payload: payload)
    }
}
