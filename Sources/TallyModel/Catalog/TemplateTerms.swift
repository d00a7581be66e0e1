/// What R1 adds to a recurring template: when it ends, a free trial and how it is shared
/// among people. Every field is optional; `nil` terms are a template as T4 had it.
@WireFields
public struct TemplateTerms: Hashable, Sendable {
    /// The last date an occurrence may fall on, if the item ends on a date.
    public var endDate: LocalDate?
    /// How many occurrences the schedule has (from the anchor, 1 or more), if it ends after a count.
    public var occurrenceCount: Int64?
    /// The first day that is billed: occurrences before it fall in the free trial and are not
    /// charged or posted.
    public var trialEndsOn: LocalDate?
    /// The split among people (equal, exact, percent); `nil` for a personal item or one
    /// shared by the household ratio in `details.split`.
    public var sharing: TemplateSharing?

    /// Creates the terms.
    public init(endDate: LocalDate? = nil, occurrenceCount: Int64? = nil, trialEndsOn: LocalDate? = nil, sharing: TemplateSharing? = nil) {
        self.endDate = endDate
        self.occurrenceCount = occurrenceCount
        self.trialEndsOn = trialEndsOn
        self.sharing = sharing
    }
}
