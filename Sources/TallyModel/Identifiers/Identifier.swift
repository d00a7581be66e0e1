/// A marker type that names what an ``Identifier`` identifies.
public protocol IdentifierKind: Sendable {
    /// A short name for messages, e.g. `"person"`.
    static var kindName: String { get }
}

/// A typed id: a ``UUIDValue`` that can only be used where an id of the same `Kind` is
/// expected, so a `WalletID` is never passed as a `CategoryID` (G5).
///
/// Ids are supplied by the caller; ``DeterministicIDGenerator`` makes reproducible ones.
public struct Identifier<Kind: IdentifierKind>: Hashable, Comparable, Sendable {
    /// The underlying UUID.
    public let value: UUIDValue

    /// Wraps a UUID.
    public init(_ value: UUIDValue) { self.value = value }

    /// Parses the canonical `8-4-4-4-12` form.
    /// - Throws: ``ModelError/invalidIdentifier(_:)``.
    public init(parsing text: String) throws(ModelError) { self.init(try UUIDValue(parsing: text)) }

    /// A stable id derived from another id and a name (see ``UUIDValue/derived(namespace:name:)``).
    public static func derived(namespace: UUIDValue, name: String) -> Identifier {
        Identifier(UUIDValue.derived(namespace: namespace, name: name))
    }

    /// Orders by the UUID's bytes, which is also the order of the canonical text (lowercase hex,
    /// hyphens at fixed places): what the key file and checkpoints list people in, without
    /// making a string per comparison.
    public static func < (lhs: Identifier, rhs: Identifier) -> Bool { lhs.value < rhs.value }
}

extension Identifier: CustomStringConvertible {
    /// The canonical lowercase UUID text.
    public var description: String { value.description }
}
