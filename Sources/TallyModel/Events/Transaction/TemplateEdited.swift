/// A recurring item's fields changed from a date on ("this and all future", Swiff 1.2.3,
/// 1.2.4): occurrences on or after `effectiveFrom` are posted with these fields; earlier ones
/// keep what they had. The event carries every field after the change (like
/// ``TransactionEdited``). With `cycle`, the old cycle's occurrences end before
/// `effectiveFrom` and a new one starts on `nextBilling` (on or after `effectiveFrom`; `nil`:
/// on `effectiveFrom`), repeating every `cycle` from there (``CycleChange``).
///
/// Tag 422, schema version 1 (see ``EventTag/templateEdited`` and `Docs/Events.md`).
@WireFields
public struct TemplateEdited: Hashable, Sendable {
    /// The template.
    public let templateID: TemplateID
    /// The first occurrence date the fields apply to.
    public let effectiveFrom: LocalDate
    /// The item's name (the posted transactions' note), personal text of its author (P1).
    public let note: PersonalText?
    /// The category.
    public let categoryID: CategoryID
    /// The wallet the occurrences are paid from (or into).
    public let walletID: WalletID
    /// Tags, in the order entered.
    public let tags: [String]
    /// The new cycle from `effectiveFrom` on; `nil` keeps the dates.
    public let cycle: RecurrenceFrequency?
    /// The new cycle's first occurrence; `nil` is `effectiveFrom`.
    public let nextBilling: LocalDate?

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(
        templateID: TemplateID, effectiveFrom: LocalDate, note: PersonalText?, categoryID: CategoryID, walletID: WalletID,
        tags: [String], cycle: RecurrenceFrequency?, nextBilling: LocalDate? = nil
    ) {
        self.templateID = templateID
        self.effectiveFrom = effectiveFrom
        self.note = note
        self.categoryID = categoryID
        self.walletID = walletID
        self.tags = tags
        self.cycle = cycle
        self.nextBilling = nextBilling
    }
}
