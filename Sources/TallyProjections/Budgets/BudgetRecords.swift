import TallyModel

/// A category (C1-C3), the one record of it: one book of them (the budget read model's)
/// serves the read models and the engine's validation alike.
@StateFields
package struct CategoryRecord: Hashable, Sendable {
    /// Its name (C2).
    package internal(set) var name: String
    /// Income or expense.
    package let group: CategoryGroup
    /// The 50/30/20 bucket (C1, B3).
    package internal(set) var budgetType: BudgetType
    /// Whether it was deleted (C3).
    package internal(set) var isDeleted: Bool
    /// Its icon, if any (C1).
    package internal(set) var icon: String?
    /// Its color, if any (C1).
    package internal(set) var color: String?
    /// Whether it is usable for new entries (C3): not deactivated, not deleted.
    package internal(set) var isActive: Bool
    /// Whether shared transactions may use it.
    package let shareable: Bool
    /// Whether it is a preset (C2).
    package let isPreset: Bool
}

/// One `BudgetAllocated`, or one `BudgetRemoved` (`amount` nil: not budgeted from then on) (B2).
@StateFields
struct AllocationRecord: Hashable, Sendable {
    let amount: Money?
    let fromPeriod: LocalDate
    let sequenceNumber: UInt64
}

extension CategoryRecord: StateCodable {}

extension AllocationRecord: StateCodable {}

extension BudgetAdjustment: StateCodable {}

/// A (business date, transaction) pair: the key of ``BudgetProjection/datedTransactions``.
/// Its bytes are the year (2 bytes, big-endian), month, day and the id's 16 bytes, so that in
/// the archive the transactions of a period are one key range, whatever their number per day.
struct DatedTransaction: Hashable, Comparable, Sendable {
    let date: LocalDate
    let transactionID: TransactionID

    static func < (lhs: DatedTransaction, rhs: DatedTransaction) -> Bool {
        (lhs.date, lhs.transactionID) < (rhs.date, rhs.transactionID)
    }

    /// The first and last key bytes of the dates in `range`.
    static func bounds(_ range: ClosedRange<LocalDate>) -> (lower: [UInt8], upper: [UInt8]) {
        (dateBytes(range.lowerBound) + [UInt8](repeating: 0, count: 16), dateBytes(range.upperBound) + [UInt8](repeating: 0xFF, count: 16))
    }

    private static func dateBytes(_ date: LocalDate) -> [UInt8] {
        [UInt8(truncatingIfNeeded: date.year >> 8), UInt8(truncatingIfNeeded: date.year), UInt8(date.month), UInt8(date.day)]
    }

    private static func date(_ bytes: [UInt8]) -> LocalDate? {
        try? LocalDate(year: Int(bytes[0]) << 8 | Int(bytes[1]), month: Int(bytes[2]), day: Int(bytes[3]))
    }
}

extension DatedTransaction: ArchiveCodable, StateCodable {
    func write(to writer: inout BinaryWriter) {
        for byte in Self.dateBytes(date) { writer.writeByte(byte) }
        writer.writeUUID(transactionID.value)
    }

    func encode(to writer: inout BinaryWriter) { write(to: &writer) }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        let start = reader.offset
        var bytes: [UInt8] = []
        for _ in 0..<4 { bytes.append(try reader.readByte()) }
        guard let date = Self.date(bytes) else { throw .invalidValue(field: "DatedTransaction", reason: "date bytes \(bytes)", offset: start) }
        self.init(date: date, transactionID: TransactionID(try reader.readUUID()))
    }

    init(from reader: inout StateReader) throws(ProjectionError) {
        var bytes: [UInt8] = []
        for _ in 0..<4 { bytes.append(try reader.readByte()) }
        guard let date = Self.date(bytes) else { throw .invalidCheckpoint(reason: "dated transaction: date bytes \(bytes)") }
        self.init(date: date, transactionID: TransactionID(try reader.readUUID()))
    }
}
