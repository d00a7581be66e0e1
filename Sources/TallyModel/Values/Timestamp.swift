/// An instant in UTC with millisecond precision: when an event was recorded (`recordedAt`, G3).
///
/// Supplied by the host, never read from a clock inside the engine.
public struct Timestamp: Hashable, Comparable, Sendable {
    /// Milliseconds since 1970-01-01T00:00:00Z (negative before it).
    public let millisecondsSinceEpoch: Int64

    /// Creates a timestamp.
    /// - Parameter millisecondsSinceEpoch: milliseconds since 1970-01-01T00:00:00Z.
    public init(millisecondsSinceEpoch: Int64) {
        self.millisecondsSinceEpoch = millisecondsSinceEpoch
    }

    /// Orders instants chronologically.
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.millisecondsSinceEpoch < rhs.millisecondsSinceEpoch
    }

    /// The UTC civil date of this instant.
    /// - Throws: ``ModelError/invalidDate(text:reason:)`` outside years 1...9999.
    public func utcDate() throws(ModelError) -> LocalDate {
        let (days, _) = Timestamp.split(millisecondsSinceEpoch)
        return try LocalDate(daysSinceEpoch: days)
    }

    /// Splits milliseconds into whole days (floored) and milliseconds within the day.
    static func split(_ milliseconds: Int64) -> (days: Int64, millisecondOfDay: Int64) {
        let perDay: Int64 = 86_400_000
        let remainder = milliseconds % perDay
        let millisecondOfDay = remainder < 0 ? remainder + perDay : remainder
        return ((milliseconds - millisecondOfDay) / perDay, millisecondOfDay)
    }
}

extension Timestamp: CustomStringConvertible {
    /// The ISO 8601 UTC form, e.g. `2026-11-21T10:00:00.000Z`.
    public var description: String { iso8601 }
}
