/// A posted occurrence of a recurring item was marked paid, pending or failed (Swiff 1.3.3
/// billing history). The mark is the item's billing record; the occurrence's transaction
/// stays as it is (a failed payment the household did not make is deleted as any other, T3).
///
/// Tag 424, schema version 1 (see ``EventTag/occurrenceBillingMarked`` and `Docs/Events.md`).
@WireFields
public struct OccurrenceBillingMarked: Hashable, Sendable {
    /// The template.
    public let templateID: TemplateID
    /// The posted occurrence's date.
    public let date: LocalDate
    /// Its billing status.
    public let status: BillingStatus

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(templateID: TemplateID, date: LocalDate, status: BillingStatus) {
        self.templateID = templateID
        self.date = date
        self.status = status
    }
}

/// Whether a billed occurrence was paid (Swiff 1.3.3). A posted occurrence never marked is paid.
///
/// The raw values are stored in events: never change or reuse one.
public enum BillingStatus: UInt8, CaseIterable, Hashable, Sendable {
    /// Charged.
    case paid = 0
    /// Charged but not cleared yet.
    case pending = 1
    /// The charge failed.
    case failed = 2
}
