/// A recurring item's descriptive fields were set, all at once (Swiff 1.1.2 Subscription,
/// 1.2.3): an absent field is removed. They describe the item, not an occurrence, so they are
/// not dated. The description and payment method are personal text of their author (P1).
///
/// Tag 423, schema version 1 (see ``EventTag/templateProfileSet`` and `Docs/Events.md`).
@WireFields
public struct TemplateProfileSet: Hashable, Sendable {
    /// The template.
    public let templateID: TemplateID
    /// The profile after the change.
    public let profile: TemplateProfile

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(templateID: TemplateID, profile: TemplateProfile) {
        self.templateID = templateID
        self.profile = profile
    }
}

/// What a subscription screen shows of an item beside its name and price (Swiff 1.1.2).
@WireFields
public struct TemplateProfile: Hashable, Sendable {
    /// A longer description, personal text of its author (P1).
    public var description: PersonalText?
    /// The provider's website.
    public var website: String?
    /// How it is paid ("Visa 4242"), personal text of its author (P1).
    public var paymentMethod: PersonalText?
    /// An icon name or emoji the app draws.
    public var icon: String?
    /// A colour the app draws (as categories keep theirs).
    public var color: String?

    /// Creates a profile; every field is optional.
    public init(description: PersonalText? = nil, website: String? = nil, paymentMethod: PersonalText? = nil, icon: String? = nil, color: String? = nil) {
        self.description = description
        self.website = website
        self.paymentMethod = paymentMethod
        self.icon = icon
        self.color = color
    }
}
