/// A saved view was deleted (Flow US-058); undo saves it back.
///
/// Tag 652, schema version 1 (see ``EventTag/viewDeleted`` and `Docs/Events.md`).
@WireFields
public struct ViewDeleted: Hashable, Sendable {
    /// The view.
    public let viewID: ViewID

    /// Creates the payload.
    public init(viewID: ViewID) {
        self.viewID = viewID
    }
}
