import TallyModel

/// Reads checkpoint bytes (see ``StateCodable``), turning every decoding failure into
/// ``ProjectionError/invalidCheckpoint(reason:)``. Never traps, whatever the bytes.
struct StateReader {
    private var reader: BinaryReader

    init(_ bytes: [UInt8]) { reader = BinaryReader(bytes) }

    /// Continues reading where `binary` stands (an archive value inside a larger read).
    init(continuing binary: BinaryReader) { reader = binary }

    /// The underlying reader, after what was read.
    var binary: BinaryReader { reader }

    private func damaged(_ error: EventCodecError) -> ProjectionError {
        .invalidCheckpoint(reason: "\(error)")
    }

    mutating func readByte() throws(ProjectionError) -> UInt8 {
        do { return try reader.readByte() } catch { throw damaged(error) }
    }

    mutating func readVarUInt() throws(ProjectionError) -> UInt64 {
        do { return try reader.readVarUInt() } catch { throw damaged(error) }
    }

    mutating func readVarInt() throws(ProjectionError) -> Int64 {
        do { return try reader.readVarInt() } catch { throw damaged(error) }
    }

    mutating func readCount(elementBytesMin: Int) throws(ProjectionError) -> Int {
        do { return try reader.readCount(elementBytesMin: elementBytesMin) } catch { throw damaged(error) }
    }

    mutating func readString() throws(ProjectionError) -> String {
        do { return try reader.readString() } catch { throw damaged(error) }
    }

    mutating func readUUID() throws(ProjectionError) -> UUIDValue {
        do { return try reader.readUUID() } catch { throw damaged(error) }
    }

    /// Reads a model value in its wire encoding.
    mutating func readWire<Value: WireValue>(_ type: Value.Type = Value.self) throws(ProjectionError) -> Value {
        do { return try reader.read() } catch { throw damaged(error) }
    }

    /// Reads any ``StateCodable`` value.
    mutating func read<Value: StateCodable>(_ type: Value.Type = Value.self) throws(ProjectionError) -> Value {
        try Value(from: &self)
    }

    /// Checks the format header written by ``BinaryWriter/writeStateHeader(_:)``.
    mutating func readHeader(_ magic: String) throws(ProjectionError) {
        let found = try readString()
        guard found == magic else {
            throw .invalidCheckpoint(reason: "expected a '\(magic)' checkpoint, found '\(found.prefix(32))'")
        }
        let version = try readVarUInt()
        guard version == StateFormat.version else {
            throw .invalidCheckpoint(reason: "format version \(version), this build reads \(StateFormat.version)")
        }
    }

    /// Checks that every byte was read.
    func finish() throws(ProjectionError) {
        do { try reader.finish() } catch { throw damaged(error) }
    }
}

/// The version of the projection checkpoint format; bump on any layout change (a checkpoint of
/// another version is refused and the engine replays instead).
enum StateFormat {
    /// 3: the derived indexes (wallet movements, open debts and nets) are written, and the
    /// archived maps (``ArchivedMap``) may be in the store's history instead. 4: the budget's
    /// date index is one entry per (date, transaction), not one per date. 5: a transfer keeps
    /// the sequence number that recorded it (a wallet statement orders a day's movements). 6: a
    /// budget allocation's amount is optional (absent: removed, `BudgetRemoved`); a category
    /// keeps its icon, color and whether it is active, and the budgets keep the category order; the wallet state keeps each
    /// wallet's flow designations (N5). 7: a group expense keeps its category, title, whether it
    /// is live (`GroupExpenseDeleted`) and marked settled (`GroupExpenseSettledMarked`). 8: the
    /// goals (R2) follow the budgets. 9: the debt state keeps each group member's running
    /// totals (``GroupNets``) after the household nets. 10: the read models keep one transaction
    /// book (``Projections``), written once after the last sequence number, instead of one per
    /// wallet, debt and budget state; the budgets keep their category reassignments. 11: that
    /// book is the engine's too: a transaction record ends with its split with people, (in 11
    /// only) a bonus confirmation, and its covering settlement (``TransactionRecord``); a
    /// category deleted with a target moves its records there (C3); the open shared
    /// transactions are a persistent set.
    /// 12: the wallet's transfer book is the engine's too: a record is the transfer as last
    /// recorded or edited (its note included), whether it is live and its sequence number; a
    /// transaction record no longer keeps a bonus confirmation (the budgets keep that fact).
    /// 13: the debt state's group expense book is the engine's too: a record is the expense as
    /// recorded or last edited (its split as entered included), its sequence number, whether it
    /// is live and marked settled; groups are a persistent map; a transaction record no longer
    /// keeps a covering settlement (the settled items are the one record of coverage). 14: the
    /// goals are the engine's one goal book too (the same layout: definition, amounts, deleted,
    /// milestones). 15: the transaction book's (category, transaction) index follows the book
    /// (it was the engine's). 16: the budgets' category book is the engine's too: a category
    /// record ends with whether shared transactions may use it and whether it is a preset.
    /// 17: the wallets are the engine's one book too; the movement index counts each wallet's
    /// live transfers after its live transactions; the budgets keep the income settings as set
    /// (the event, grace days unclamped: what the engine's undo puts back). 18: a transaction
    /// record ends with the sequence number of its last change (the store's `transactions`
    /// rows are the book's history). 19: no (category, transaction) or (date, transaction)
    /// index beside the book (the store's `transactions` indexes answer those ranges). 20: a
    /// transfer record ends with the sequence number of its last change (the store's
    /// `transfers` rows are that book's history). 21: a wallet record ends with its valuation
    /// as set (W5, `WalletValuationSet`; absent: its kind's default). 22: a settlement record ends
    /// with its note and payment method (`SettlementRecorded` version 2); the budgets keep the
    /// bonus pool's records after the confirmed bonuses, and a period snapshot its whole-budget
    /// status and savings progress (US-066, US-054, US-038). 23: the attachment book (T6) follows
    /// the goals. 24: a group record ends with its emoji (`GroupUpdated` version 2). 25: a
    /// transaction record ends with when it was recorded, last edited and deleted (the events'
    /// `recordedAt`; US-018, US-020). 26: a transaction record ends with the amount charged in
    /// another currency (T7, `TransactionRecorded` version 5). 27: the budgets end with the household's first weekday
    /// (B5, Swiff 2.4.1). 28: a wallet record ends with its bank connection (Tim Step 2.2,
    /// `WalletConnectionSet`; absent: none).
    /// 29: a category record ends with its tax class (`CategoryTaxClassSet`).
    /// 30: a transaction record ends with its payee and subtitle (Swiff 1.1.2,
    /// `TransactionRecorded` version 6).
    static let version: UInt64 = 30
}

extension BinaryWriter {
    /// Writes the magic string and format version that start every checkpoint.
    mutating func writeStateHeader(_ magic: String) {
        writeString(magic)
        writeVarUInt(StateFormat.version)
    }

    /// Appends any ``StateCodable`` value.
    mutating func write<Value: StateCodable>(_ value: Value) { value.encode(to: &self) }
}
