// The saved view events: their tags. The current layout of each is its fields in declaration
// order, written by @WireFields (Docs/Events.md).

extension ViewSaved: EventPayloadWire {
    package static var eventTag: EventTag { .viewSaved }

    /// Version 1 stored the name as a plain string (the actor's, who is the owner).
    package static func decode(from reader: inout BinaryReader, version: UInt16) throws(EventCodecError) -> Self {
        version == 1 ? try decodeWithPlainPersonalText(from: &reader) : try Self(from: &reader)
    }
}

extension ViewRenamed: EventPayloadWire {
    package static var eventTag: EventTag { .viewRenamed }

    /// Version 1 stored the name as a plain string (the actor's, who is the owner).
    package static func decode(from reader: inout BinaryReader, version: UInt16) throws(EventCodecError) -> Self {
        version == 1 ? try decodeWithPlainPersonalText(from: &reader) : try Self(from: &reader)
    }
}

extension ViewDeleted: EventPayloadWire {
    package static var eventTag: EventTag { .viewDeleted }
}

extension TransactionFilter: WireValue {
    package static var wireBytesMin: Int { 9 }
}

extension ReportLayout: WireValue {
    package static var wireBytesMin: Int { 4 }
}

extension ReportRange: WireEnum {}

/// A report span is one byte: month 0, week 1, day 2, range 3.
extension ReportSpan: WireValue {
    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        let start = reader.offset
        switch try reader.readByte() {
        case 0: self = .month
        case 1: self = .week
        case 2: self = .day
        case 3: self = .range
        case let raw: throw .invalidValue(field: "ReportSpan", reason: "unknown raw value \(raw)", offset: start)
        }
    }

    package func write(to writer: inout BinaryWriter) {
        switch self {
        case .month: writer.writeByte(0)
        case .week: writer.writeByte(1)
        case .day: writer.writeByte(2)
        case .range: writer.writeByte(3)
        }
    }
}

/// A closed range is its lower then its upper bound; a range whose upper bound is below its
/// lower one is refused.
extension ClosedRange: WireValue where Bound: WireValue {
    package static var wireBytesMin: Int { Bound.wireBytesMin * 2 }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        let start = reader.offset
        let lower = try Bound(from: &reader)
        let upper = try Bound(from: &reader)
        guard lower <= upper else { throw .invalidValue(field: "ClosedRange", reason: "the upper bound is below the lower one", offset: start) }
        self = lower...upper
    }

    package func write(to writer: inout BinaryWriter) {
        lowerBound.write(to: &writer)
        upperBound.write(to: &writer)
    }
}
