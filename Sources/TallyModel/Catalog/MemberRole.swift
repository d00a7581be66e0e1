/// The role of a household member (H3, H5).
///
/// The raw values are stored in events: never change or reuse one.
public enum MemberRole: UInt8, CaseIterable, Hashable, Sendable {
    /// The single administrator; cannot leave or be removed, only transferred.
    case admin = 0
    /// An ordinary member.
    case member = 1
}
