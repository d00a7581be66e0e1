/// Why bytes could not be decoded into an event. Decoding never traps: every malformed input,
/// however hostile, ends in one of these cases.
public enum EventCodecError: Error, Hashable, Sendable {
    /// The record's tag is not in the tag table (``EventTag``).
    case unknownTag(UInt32)
    /// The tag is known but this schema version is not (0, or newer than this build knows).
    case unsupportedVersion(tag: UInt32, version: UInt16)
    /// The payload ended in the middle of a value that starts or continues at `offset`.
    case truncated(offset: Int)
    /// A value was read but is not valid for its field (bad enum raw value, invalid UTF-8,
    /// a currency code that is not three letters, an overlong varint...).
    case invalidValue(field: String, reason: String, offset: Int)
    /// The event was complete but `count` bytes were left over from `offset` on.
    case trailingBytes(offset: Int, count: Int)

    /// A stable, machine-readable code for this error.
    public var code: String {
        switch self {
        case .unknownTag: "unknownTag"
        case .unsupportedVersion: "unsupportedVersion"
        case .truncated: "truncated"
        case .invalidValue: "invalidValue"
        case .trailingBytes: "trailingBytes"
        }
    }

    /// A message naming the location in the payload.
    public var message: String {
        switch self {
        case .unknownTag(let tag):
            "unknown event tag \(tag)"
        case .unsupportedVersion(let tag, let version):
            "event tag \(tag) has no schema version \(version) in this build"
        case .truncated(let offset):
            "payload truncated at offset \(offset)"
        case .invalidValue(let field, let reason, let offset):
            "invalid \(field) at offset \(offset): \(reason)"
        case .trailingBytes(let offset, let count):
            "\(count) unexpected bytes after the event at offset \(offset)"
        }
    }
}

extension EventCodecError: CustomStringConvertible {
    /// The ``code`` followed by the ``message``.
    public var description: String { "\(code): \(message)" }
}
