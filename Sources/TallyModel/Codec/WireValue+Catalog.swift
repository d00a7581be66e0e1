extension PersonShare: WireValue {
    package static var wireBytesMin: Int { 20 }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(person: try reader.read(), amount: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(person)
        writer.write(amount)
    }
}

extension MemberRatio: WireValue {
    package static var wireBytesMin: Int { 17 }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(person: try reader.read(), ratio: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(person)
        writer.write(ratio)
    }
}

extension MemberWeight: WireValue {
    package static var wireBytesMin: Int { 17 }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(person: try reader.read(), weight: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(person)
        writer.write(weight)
    }
}

extension TransactionSplit: WireValue {
    package static var wireBytesMin: Int { 3 }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(ratios: try reader.read(), isOverride: try reader.read(), shares: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(ratios)
        writer.write(isOverride)
        writer.write(shares)
    }
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

/// Fields in declaration order: kind, amount, walletID, categoryID, date, note?, tags, payer,
/// split?. The `tags` field was added in ``TransactionRecorded`` schema version 2.
extension TransactionDetails: WireValue {
    package static var wireBytesMin: Int { 57 }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        try self.init(from: &reader, includesTags: true)
    }

    /// Reads the fields; `includesTags == false` reads the version-1 layout, which had no tags
    /// (they upcast to `[]`).
    init(from reader: inout BinaryReader, includesTags: Bool) throws(EventCodecError) {
        self.init(
            kind: try reader.read(), amount: try reader.read(), walletID: try reader.read(),
            categoryID: try reader.read(), date: try reader.read(), note: try reader.read(),
            tags: includesTags ? try reader.read() : [], payer: try reader.read(), split: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(kind)
        writer.write(amount)
        writer.write(walletID)
        writer.write(categoryID)
        writer.write(date)
        writer.write(note)
        writer.write(tags)
        writer.write(payer)
        writer.write(split)
    }
}
