extension PersonShare: WireValue {
    package static var wireBytesMin: Int { 20 }
}

extension MemberRatio: WireValue {
    package static var wireBytesMin: Int { 17 }
}

extension MemberWeight: WireValue {
    package static var wireBytesMin: Int { 17 }
}

extension TransactionSplit: WireValue {
    package static var wireBytesMin: Int { 3 }
}

/// The split kind byte (``GroupSplitKind``), then the inputs as an array.
extension GroupSplit: WireValue {
    package static var wireBytesMin: Int { 2 }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        switch try GroupSplitKind(from: &reader) {
        case .equal: self = .equal(try reader.read())
        case .exact: self = .exact(try reader.read())
        case .percentage: self = .percentage(try reader.read())
        case .shares: self = .shares(try reader.read())
        }
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(kind)
        switch self {
        case .equal(let people): writer.write(people)
        case .exact(let shares): writer.write(shares)
        case .percentage(let ratios): writer.write(ratios)
        case .shares(let weights): writer.write(weights)
        }
    }
}

/// A kind byte (0 transaction, 1 group expense), then the 16-byte id.
extension SettledItem: WireValue {
    package static var wireBytesMin: Int { 17 }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        let start = reader.offset
        switch try reader.readByte() {
        case 0: self = .transaction(try reader.read())
        case 1: self = .groupExpense(try reader.read())
        case let other:
            throw .invalidValue(field: "SettledItem", reason: "unknown kind \(other)", offset: start)
        }
    }

    package func write(to writer: inout BinaryWriter) {
        switch self {
        case .transaction(let id):
            writer.writeByte(0)
            writer.write(id)
        case .groupExpense(let id):
            writer.writeByte(1)
            writer.write(id)
        }
    }
}

/// The current layout is the fields in declaration order (`@WireFields`); ``TransactionRecorded``
/// schema version 1 had no `tags`.
extension TransactionDetails: WireValue {
    package static var wireBytesMin: Int { 57 }

    /// Reads the version-1 layout, which had no tags (they upcast to `[]`).
    static func decodeWithoutTags(from reader: inout BinaryReader) throws(EventCodecError) -> Self {
        Self(
            kind: try reader.read(), amount: try reader.read(), walletID: try reader.read(),
            categoryID: try reader.read(), date: try reader.read(), note: try reader.read(),
            tags: [], payer: try reader.read(), split: try reader.read())
    }
}

extension TemplateSharing: WireValue {}
extension TemplateTerms: WireValue {}
extension PriceChange: WireValue {}
extension PauseSpan: WireValue {}
extension CycleChange: WireValue {}
extension TemplateProfile: WireValue {}
extension PersonAvatar: WireValue {}
extension RecurringSchedule: WireValue {}
extension ScenarioLumpSum: WireValue {}
extension GoalDefinition: WireValue {}
