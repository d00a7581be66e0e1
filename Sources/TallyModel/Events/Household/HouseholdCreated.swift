/// A household ledger was created; its creator is the admin (H1).
///
/// Tag 100, schema version 2 (see ``EventTag/householdCreated`` and `Docs/Events.md`).
@WireFields
public struct HouseholdCreated: Hashable, Sendable {
    /// The household's id; also the namespace of preset category ids.
    public let householdID: HouseholdID
    /// The household's display name.
    public let name: String
    /// The currency totals and net worth are reported in (H2, N1).
    public let baseCurrency: Currency
    /// The creator, who becomes the admin member.
    public let admin: PersonID
    /// The admin's display name, personal text of the admin (P1).
    public let adminName: PersonalText

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(
        householdID: HouseholdID, name: String, baseCurrency: Currency, admin: PersonID, adminName: PersonalText
    ) {
        self.householdID = householdID
        self.name = name
        self.baseCurrency = baseCurrency
        self.admin = admin
        self.adminName = adminName
    }
}
