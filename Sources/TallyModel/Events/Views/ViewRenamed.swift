/// A saved view was renamed (Flow US-058).
///
/// Tag 651, schema version 1 (see ``EventTag/viewRenamed`` and `Docs/Events.md`).
@WireFields
public struct ViewRenamed: Hashable, Sendable {
    /// The view.
    public let viewID: ViewID
    /// The new name.
    public let name: String

    /// Creates the payload.
    public init(viewID: ViewID, name: String) {
        self.viewID = viewID
        self.name = name
    }
}
