/// A saved view was renamed (Flow US-058).
///
/// Tag 651, schema version 2 (see ``EventTag/viewRenamed`` and `Docs/Events.md`). Version 1
/// stored the name as a plain string (the owner's text).
@WireFields
public struct ViewRenamed: Hashable, Sendable {
    /// The view.
    public let viewID: ViewID
    /// The new name, personal text of the view's owner (P1).
    public let name: PersonalText

    /// Creates the payload.
    public init(viewID: ViewID, name: PersonalText) {
        self.viewID = viewID
        self.name = name
    }
}
