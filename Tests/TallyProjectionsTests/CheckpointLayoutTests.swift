import HashTreeCollections
@testable import TallyProjections
import TallyModel
import Testing

/// The read models' checkpoint records are written by `@StateFields` from their declaration
/// order, and a checkpoint on disk holds them in that order: swapping two fields of one type
/// (two people, two wallets, two amounts) would misread every existing checkpoint without an
/// error. These tests pin, field by field, the layouts where such a swap is possible, as the
/// projection state format has them; a change here is a new format version, not an edit.
@Suite("Checkpoint layouts")
struct CheckpointLayoutTests {
    static let anna = PersonID(UUIDValue(high: 0xA, low: 1))
    static let ben = PersonID(UUIDValue(high: 0xB, low: 2))
    static let bank = WalletID(UUIDValue(high: 0xC, low: 3))
    static let card = WalletID(UUIDValue(high: 0xD, low: 4))

    /// Appends `value` in its wire form (the layout a checkpoint uses for model values).
    func wire<Value: WireValue>(_ value: Value, _ writer: inout BinaryWriter) { value.write(to: &writer) }

    static func encoded(_ value: some StateCodable) -> [UInt8] {
        var writer = BinaryWriter()
        value.encode(to: &writer)
        return writer.bytes
    }

    @Test("checkpoint guarantee: a settlement record is from, to, amount, date, covers, advance, group, sequence number, note, payment method (S5, S6)")
    func settlementRecord() {
        let record = SettlementRecord(from: Self.anna, to: Self.ben, amount: chf(500), date: d("2026-03-01"),
                                      covers: nil, isAdvance: true, groupID: nil, sequenceNumber: 9, note: nil, paymentMethod: "TWINT")
        var pinned = BinaryWriter()
        wire(Self.anna, &pinned); wire(Self.ben, &pinned); wire(chf(500), &pinned); wire(d("2026-03-01"), &pinned)
        wire([SettledItem]?.none, &pinned); wire(true, &pinned); wire(GroupID?.none, &pinned); pinned.writeVarUInt(9)
        wire(PersonalText?.none, &pinned); wire(Optional("TWINT"), &pinned)
        #expect(Self.encoded(record) == pinned.bytes)
    }

    @Test("checkpoint guarantee: a transfer record is the transfer as last recorded or edited (id, from wallet, to wallet, sent, received, date, note: the event's wire layout), live, sequence number, last change (W6)")
    func transferRecord() {
        let transfer = TransferRecorded(
            transferID: TransferID(UUIDValue(high: 0xF, low: 6)), fromWalletID: Self.bank, toWalletID: Self.card,
            amountSent: chf(700), amountReceived: chf(650), date: d("2026-03-02"), note: nil)
        let record = TransferRecord(transfer: transfer, isLive: true, sequenceNumber: 12, lastChanged: 15)
        var pinned = BinaryWriter()
        wire(TransferID(UUIDValue(high: 0xF, low: 6)), &pinned); wire(Self.bank, &pinned); wire(Self.card, &pinned)
        wire(chf(700), &pinned); wire(chf(650), &pinned); wire(d("2026-03-02"), &pinned); wire(PersonalText?.none, &pinned)
        wire(true, &pinned); pinned.writeVarUInt(12); pinned.writeVarUInt(15)
        #expect(Self.encoded(record) == pinned.bytes)
    }

    @Test("checkpoint guarantee: a category's budget line is category, name, type, allocated, spent, remaining, percent, status, alert (B3)")
    func categoryBudget() {
        let category = CategoryID(UUIDValue(high: 0xE, low: 5))
        let line = CategoryBudget(categoryID: category, name: "Groceries", budgetType: .needs, allocated: chf(40_000),
                                  spent: chf(35_000), remaining: chf(5_000), percentBasisPoints: 8_750, status: .onTrack,
                                  alert: .reached80)
        var pinned = BinaryWriter()
        wire(category, &pinned); wire("Groceries", &pinned); wire(BudgetType.needs, &pinned)
        wire(chf(40_000), &pinned); wire(chf(35_000), &pinned); wire(chf(5_000), &pinned)
        wire(Int64?.some(8_750), &pinned); pinned.writeByte(BudgetStatus.onTrack.rawValue); pinned.writeByte(BudgetAlert.reached80.rawValue)
        #expect(Self.encoded(line) == pinned.bytes)
    }

    @Test("G1: a movement index whose decoded daily sums of one wallet overflow Int128 is invalidCheckpoint, never a trap (bytes a damaged checkpoint can hold)")
    func movementIndexSumsAreChecked() throws {
        var writer = BinaryWriter()
        let days: TreeDictionary<LocalDate, Int128> = [d("2026-01-01"): .max, d("2026-01-02"): .max]
        writer.write([Self.bank: days])
        writer.write([Self.bank: 2])
        writer.write([WalletID: Int]())  // live transfers
        writer.write([d("2026-01-01"): 1, d("2026-01-02"): 1] as TreeDictionary<LocalDate, Int>)
        var reader = StateReader(writer.bytes)
        #expect(throws: ProjectionError.invalidCheckpoint(reason: "the daily sums of wallet \(Self.bank) overflow")) {
            try WalletMovementIndex(from: &reader)
        }
        var fits = BinaryWriter()
        fits.write([Self.bank: [d("2026-01-01"): Int128.max, d("2026-01-02"): -1] as TreeDictionary<LocalDate, Int128>])
        fits.write([Self.bank: 2])
        fits.write([WalletID: Int]())
        fits.write([d("2026-01-01"): 1, d("2026-01-02"): 1] as TreeDictionary<LocalDate, Int>)
        var fitting = StateReader(fits.bytes)
        #expect(try WalletMovementIndex(from: &fitting).totals[Self.bank] == .max - 1, "sums that fit are kept")
    }
}
