/// A recurring item's price changed from a date on (R1): occurrences on or after
/// `effectiveFrom` use `amount` until a later change; earlier ones keep the price they had.
///
/// Tag 420, schema version 1 (see ``EventTag/templatePriceChanged`` and `Docs/Events.md`).
@WireFields
public struct TemplatePriceChanged: Hashable, Sendable {
    /// The template.
    public let templateID: TemplateID
    /// The new price per occurrence, positive, in the template's currency.
    public let amount: Money
    /// The first occurrence date the price applies to.
    public let effectiveFrom: LocalDate

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(templateID: TemplateID, amount: Money, effectiveFrom: LocalDate) {
        self.templateID = templateID
        self.amount = amount
        self.effectiveFrom = effectiveFrom
    }
}
