import TallyModel

extension Identifier: StateCodable {
    func encode(to writer: inout BinaryWriter) { writer.writeUUID(value) }
    init(from reader: inout StateReader) throws(ProjectionError) { self.init(try reader.readUUID()) }
}

extension Currency: StateCodable {
    func encode(to writer: inout BinaryWriter) {
        let (first, second, third) = asciiBytes
        writer.writeRawBytes([first, second, third])
    }
    init(from reader: inout StateReader) throws(ProjectionError) {
        let bytes = (try reader.readByte(), try reader.readByte(), try reader.readByte())
        do { try self.init(asciiBytes: bytes.0, bytes.1, bytes.2) } catch { throw .invalidCheckpoint(reason: "\(error)") }
    }
}

extension Money: StateCodable {
    func encode(to writer: inout BinaryWriter) {
        currency.encode(to: &writer)
        writer.writeVarInt(minorUnits)
    }
    init(from reader: inout StateReader) throws(ProjectionError) {
        let currency: Currency = try reader.read()
        self.init(minorUnits: try reader.readVarInt(), currency: currency)
    }
}

extension LocalDate: StateCodable {
    func encode(to writer: inout BinaryWriter) { writer.writeVarInt(daysSinceEpoch) }
    init(from reader: inout StateReader) throws(ProjectionError) {
        do { try self.init(daysSinceEpoch: try reader.readVarInt()) } catch { throw .invalidCheckpoint(reason: "\(error)") }
    }
}

extension Ratio: StateCodable {
    func encode(to writer: inout BinaryWriter) { writer.writeVarInt(basisPoints) }
    init(from reader: inout StateReader) throws(ProjectionError) {
        do { try self.init(basisPoints: try reader.readVarInt()) } catch { throw .invalidCheckpoint(reason: "\(error)") }
    }
}

/// Enums stored as their one-byte raw value.
protocol StateCodableEnum: StateCodable, RawRepresentable where RawValue == UInt8 {}

extension StateCodableEnum {
    func encode(to writer: inout BinaryWriter) { writer.writeByte(rawValue) }
    init(from reader: inout StateReader) throws(ProjectionError) {
        let raw = try reader.readByte()
        guard let value = Self(rawValue: raw) else { throw .invalidCheckpoint(reason: "\(Self.self) raw value \(raw)") }
        self = value
    }
}

extension WalletKind: StateCodableEnum {}
extension TransactionKind: StateCodableEnum {}
extension CategoryGroup: StateCodableEnum {}
extension BudgetType: StateCodableEnum {}
extension IncomeMode: StateCodableEnum {}

extension PersonShare: StateCodable {
    func encode(to writer: inout BinaryWriter) {
        person.encode(to: &writer)
        amount.encode(to: &writer)
    }
    init(from reader: inout StateReader) throws(ProjectionError) {
        self.init(person: try reader.read(), amount: try reader.read())
    }
}

extension MemberRatio: StateCodable {
    func encode(to writer: inout BinaryWriter) {
        person.encode(to: &writer)
        ratio.encode(to: &writer)
    }
    init(from reader: inout StateReader) throws(ProjectionError) {
        self.init(person: try reader.read(), ratio: try reader.read())
    }
}

extension TransactionSplit: StateCodable {
    func encode(to writer: inout BinaryWriter) {
        ratios.encode(to: &writer)
        isOverride.encode(to: &writer)
        shares.encode(to: &writer)
    }
    init(from reader: inout StateReader) throws(ProjectionError) {
        self.init(ratios: try reader.read(), isOverride: try reader.read(), shares: try reader.read())
    }
}

extension TransactionDetails: StateCodable {
    func encode(to writer: inout BinaryWriter) {
        kind.encode(to: &writer)
        amount.encode(to: &writer)
        walletID.encode(to: &writer)
        categoryID.encode(to: &writer)
        date.encode(to: &writer)
        note.encode(to: &writer)
        tags.encode(to: &writer)
        payer.encode(to: &writer)
        split.encode(to: &writer)
    }
    init(from reader: inout StateReader) throws(ProjectionError) {
        self.init(
            kind: try reader.read(), amount: try reader.read(), walletID: try reader.read(),
            categoryID: try reader.read(), date: try reader.read(), note: try reader.read(),
            tags: try reader.read(), payer: try reader.read(), split: try reader.read())
    }
}

extension SettledItem: StateCodable {
    func encode(to writer: inout BinaryWriter) {
        switch self {
        case .transaction(let id):
            writer.writeByte(0)
            id.encode(to: &writer)
        case .groupExpense(let id):
            writer.writeByte(1)
            id.encode(to: &writer)
        }
    }
    init(from reader: inout StateReader) throws(ProjectionError) {
        switch try reader.readByte() {
        case 0: self = .transaction(try reader.read())
        case 1: self = .groupExpense(try reader.read())
        case let other: throw .invalidCheckpoint(reason: "settled item kind \(other)")
        }
    }
}

extension ProjectionProblem: StateCodable {
    func encode(to writer: inout BinaryWriter) {
        sequenceNumber.encode(to: &writer)
        rule.encode(to: &writer)
        message.encode(to: &writer)
    }
    init(from reader: inout StateReader) throws(ProjectionError) {
        self.init(sequenceNumber: try reader.read(), rule: try reader.read(), message: try reader.read())
    }
}

extension TransactionRecord: StateCodable {
    func encode(to writer: inout BinaryWriter) {
        details.encode(to: &writer)
        isLive.encode(to: &writer)
        sequenceNumber.encode(to: &writer)
    }
    init(from reader: inout StateReader) throws(ProjectionError) {
        self.init(details: try reader.read(), isLive: try reader.read(), sequenceNumber: try reader.read())
    }
}

extension ExchangeRateBook.DatedRate: StateCodable {
    func encode(to writer: inout BinaryWriter) {
        asOf.encode(to: &writer)
        scaledRate.encode(to: &writer)
        sequenceNumber.encode(to: &writer)
    }
    init(from reader: inout StateReader) throws(ProjectionError) {
        self.init(asOf: try reader.read(), scaledRate: try reader.read(), sequenceNumber: try reader.read())
    }
}

extension ExchangeRateBook.Pair: StateCodable {
    func encode(to writer: inout BinaryWriter) {
        base.encode(to: &writer)
        quote.encode(to: &writer)
    }
    init(from reader: inout StateReader) throws(ProjectionError) {
        self.init(base: try reader.read(), quote: try reader.read())
    }
}

extension ExchangeRateBook: StateCodable {
    func encode(to writer: inout BinaryWriter) { rates.encode(to: &writer) }
    init(from reader: inout StateReader) throws(ProjectionError) { self.init(rates: try reader.read()) }
}
