import TallyModel

/// Model values are written in checkpoints exactly as in event payloads: their wire encoding
/// (`Docs/Events.md`), through the model's own codec rather than a second copy of it.
protocol WireBackedState: StateCodable, WireValue {}

extension WireBackedState {
    func encode(to writer: inout BinaryWriter) { write(to: &writer) }
    init(from reader: inout StateReader) throws(ProjectionError) { self = try reader.readWire() }
}

extension Identifier: WireBackedState {}
extension Currency: WireBackedState {}
extension Money: WireBackedState {}
extension LocalDate: WireBackedState {}
extension Ratio: WireBackedState {}
extension WalletKind: WireBackedState {}
extension WalletValuation: WireBackedState {}
extension TransactionKind: WireBackedState {}
extension CategoryGroup: WireBackedState {}
extension BudgetType: WireBackedState {}
extension TaxClass: WireBackedState {}
extension Weekday: WireBackedState {}
extension IncomeMode: WireBackedState {}
extension IncomeSettingsSet: WireBackedState {}
extension WalletDesignationSet: WireBackedState {}
extension WalletConnectionSet: WireBackedState {}
extension GoalDefinition: WireBackedState {}
extension GoalAmountSet: WireBackedState {}
extension PersonShare: WireBackedState {}
extension MemberRatio: WireBackedState {}
extension TransactionSplit: WireBackedState {}
extension TransactionDetails: WireBackedState {}
extension PersonalText: WireBackedState {}
extension SettledItem: WireBackedState {}
extension Int128: WireBackedState {}
extension GroupSplit: WireBackedState {}
extension TransferRecorded: WireBackedState {}
extension GroupExpenseRecorded: WireBackedState {}

extension ProjectionProblem: StateCodable {}

/// An instant as its milliseconds since 1970 (a journal record's `recordedAt`).
extension Timestamp: StateCodable {
    func encode(to writer: inout BinaryWriter) { millisecondsSinceEpoch.encode(to: &writer) }
    init(from reader: inout StateReader) throws(ProjectionError) { self.init(millisecondsSinceEpoch: try reader.read()) }
}

// Package access (the engine's validation state reads the one book), so the archive's
// witnesses are spelled out at that access.
extension TransactionRecord: ArchiveCodable, StateCodable {
    package func writeArchive(to writer: inout BinaryWriter) { encode(to: &writer) }
    package init(archive reader: inout BinaryReader) throws(EventCodecError) { self = try Self.decodeArchived(from: &reader) }
}

extension ExchangeRateBook.DatedRate: StateCodable {}

extension ExchangeRateBook.Pair: StateCodable {}

extension ExchangeRateBook: StateCodable {
    func encode(to writer: inout BinaryWriter) { rates.encode(to: &writer) }
    init(from reader: inout StateReader) throws(ProjectionError) { self.init(rates: try reader.read()) }
}

/// The projections' own enums, stored as their one-byte raw value.
protocol StateCodableEnum: StateCodable, RawRepresentable where RawValue == UInt8 {}

extension StateCodableEnum {
    func encode(to writer: inout BinaryWriter) { writer.writeByte(rawValue) }
    init(from reader: inout StateReader) throws(ProjectionError) {
        let raw = try reader.readByte()
        guard let value = Self(rawValue: raw) else { throw .invalidCheckpoint(reason: "\(Self.self) raw value \(raw)") }
        self = value
    }
}
