import HashTreeCollections
import TallyModel
import TallyProjections

/// The validation state's checkpoint bytes: the model's wire encoding (varints, 16-byte ids,
/// length-prefixed strings, presence bytes, counts; `Docs/Events.md`), dictionaries written as
/// pairs sorted by key so that equal states give equal bytes.
extension LedgerState {
    /// v5: transactions, transfers, group expenses, settlements and the command history may be
    /// in the store's history; the open shared transactions and the income index are
    /// written, not derived. v6: the period schedule is the `PaydaySet` rules and the last
    /// closed period (``PaySchedule``, the read model's rule), not a payday, a pending payday
    /// and the open period's dates; household debts are ``DebtNets`` (Int128 nets, as the debt
    /// read model keeps them). v7: each record is its fields in declaration order
    /// (`@WireFields`; a person's `forgottenAt` has a presence byte). An older checkpoint is
    /// passed over (one full replay). v8: a budget entry's amount has a presence byte (absent:
    /// removed, `BudgetRemoved`), the effective balance points and the category order follow the
    /// budgets; a category record ends with its bucket, icon and color; a template's record is its R1
    /// schedule (``RecurringSchedule``), split among members and posted occurrences; a wallet record ends with its flow
    /// designations (N5).
    /// v9: a group expense's entry is its record (``GroupExpenseRecord``: the expense, deleted,
    /// marked settled, covering settlement), not only its group; a category record ends with its
    /// group expense count; a transaction record ends with its split with people (18.4).
    /// v10: the planning book (goals, scenarios, alert settings; R2, R3, R6) follows the income
    /// index.
    /// v11: the saved CSV import mappings end the state (section 9).
    /// v12: the group balances are ``GroupNets`` (each member's paid, owed and settled `Int128`
    /// totals and mentions, the debt read model's rule), not one wrapping `Int64` per member.
    /// v13: no transactions: the state reads the read models' one book (``Projections``).
    /// v14: no transfers: the state reads the wallet read model's book. v15: no settlement ids:
    /// the state reads the debt read model's book.
    /// v16: no groups, group expenses, debt nets or open shared transactions: the state reads the
    /// debt read model's books, and what a settlement covers is its settled items.
    /// v17: no goals: the planning book is scenarios and alert settings, the state reads the goal
    /// read model's book.
    /// v18: no category index: the read models keep it with their transaction book.
    /// v19: no category records or order: the state reads the budget read model's book and
    /// keeps each category's counts (``CategoryCounts``).
    /// v20: no wallets or balance points: the state reads the wallet read model's book.
    /// v21: no income per date (S4 reads the budget read model's date index), no budget
    /// allocations or income settings (B2, B7: the budget read model's).
    /// v22: no payday rules: the period schedule is the last closed period, the paydays are the
    /// budget read model's.
    /// v23: a template's record ends with its field edits, profile and billing marks, and its
    /// schedule with its cycle changes (R1, Swiff 1.2.3, 1.3.3).
    /// v24: a budget report (a closed period's snapshot) ends its totals with everything spent
    /// and the whole budget's status (US-054), and its allowances with the savings progress
    /// (US-038); the split ratio in force is followed by the ratio as the household set it and
    /// the latest income-based recalculation (S4, US-067).
    /// v25: a template's record ends with its cancel reason (R1, Swiff 1.3.3).
    /// v26: a person's record ends with their avatar (Swiff 1.1.2, `PersonAvatarSet`).
    /// v27: the saved views (filters and report templates, Flow US-058) follow the import
    /// mappings.
    /// v28: a template's record ends with who accepted their part of its sharing (Swiff 1.1.2
    /// SharedSubscription, `TemplateSharingAccepted`).
    /// v29: the invitations (Flow US-005, H6) follow the saved views; an entity key may be an
    /// invitation.
    /// v30: an entity key may be a category's tax class (`CategoryTaxClassSet`).
    /// v31: the sample data loaded now (E5-S6, ``SampleData``) follows the invitations.
    static let checkpointMagic = "tally.ledgerState.v31"

    /// The read models, with the one transaction book, are the checkpoint's other section.
    /// - Parameter archived: the command history's archived maps (``ArchivedMap``) are in the store's history
    ///   (written apart), not in these bytes.
    func checkpointBytes(historyArchived archived: Bool = false) -> [UInt8] {
        var writer = BinaryWriter(reservingCapacity: 4096)
        writer.writeString(Self.checkpointMagic)
        writer.writeVarUInt(nextSequenceNumber)
        writer.write(hasTransactions)
        writer.write(household)
        writer.writeSorted(people)
        writer.writeSorted(categoryCounts)
        writer.writeSorted(templates)
        writer.write(splitRatio)
        writer.write(splitRatioSetting)
        writer.write(lastRatioRecalculation)
        periods.write(to: &writer)
        history.write(to: &writer, inline: !archived)
        exposure.write(to: &writer)
        planning.write(to: &writer)
        writer.write(importMappings.sorted { $0.key < $1.key }.map(\.value))
        writer.writeSorted(views)
        writer.writeSorted(invitations)
        writer.writeOptional(sample) { writer, sample in
            writer.write(sample.loadCommandID)
            writer.write(sample.commandIDs)
            writer.write(sample.keys.sorted(by: EntityKey.checkpointOrder))
        }
        return writer.bytes
    }

    init(checkpointBytes bytes: [UInt8]) throws(EventCodecError) {
        var reader = BinaryReader(bytes)
        guard try reader.readString() == Self.checkpointMagic else {
            throw .invalidValue(field: "ledgerState", reason: "not a ledger state checkpoint", offset: 0)
        }
        self.init()
        nextSequenceNumber = try reader.readVarUInt()
        hasTransactions = try reader.read()
        household = try reader.read()
        people = try reader.readDictionary()
        activeMembers = membersFromPeople()
        categoryCounts = try reader.readDictionary()
        templates = try reader.readDictionary()
        splitRatio = try reader.read()
        splitRatioSetting = try reader.read()
        lastRatioRecalculation = try reader.read()
        periods = try PeriodSchedule(from: &reader)
        history = try CommandHistory(from: &reader)
        exposure = try MoneyExposure(from: &reader)
        planning = try PlanningBook(from: &reader)
        for mapping in try reader.read([ImportMappingSaved].self) { importMappings[mapping.name.lowercased()] = mapping }
        views = try reader.readDictionary()
        invitations = try reader.readDictionary()
        sample = try reader.readOptional { reader throws(EventCodecError) in
            SampleData(loadCommandID: try reader.read(), commandIDs: try reader.read(), keys: Set(try reader.read([EntityKey].self)))
        }
        try reader.finish()
    }
}

extension BinaryWriter {
    mutating func writeOptional<Value>(_ value: Value?, _ body: (inout BinaryWriter, Value) -> Void) {
        guard let value else { return writeByte(0) }
        writeByte(1)
        body(&self, value)
    }

    /// A dictionary of wire values as a count and (key, value) pairs in key order.
    mutating func writeSorted<Key: WireValue & Comparable, Value: WireValue>(_ dictionary: some Collection<(key: Key, value: Value)>) {
        writeSorted(dictionary) { writer, value in writer.write(value) }
    }

    /// A dictionary as a count and (key, value) pairs in key order.
    mutating func writeSorted<Key: WireValue & Comparable, Value>(
        _ dictionary: some Collection<(key: Key, value: Value)>, _ body: (inout BinaryWriter, Value) -> Void
    ) {
        writeVarUInt(UInt64(dictionary.count))
        for entry in dictionary.sorted(by: { $0.key < $1.key }) {
            write(entry.key)
            body(&self, entry.value)
        }
    }
}

extension BinaryReader {
    mutating func readOptional<Value>(_ body: (inout BinaryReader) throws(EventCodecError) -> Value) throws(EventCodecError) -> Value? {
        switch try readByte() {
        case 0: return nil
        case 1: return try body(&self)
        case let other: throw .invalidValue(field: "optional", reason: "presence byte \(other)", offset: offset - 1)
        }
    }

    /// A dictionary of wire values written by `writeSorted`.
    mutating func readDictionary<Map: CheckpointMap>() throws(EventCodecError) -> Map where Map.Key: WireValue, Map.Value: WireValue {
        try readDictionary { reader throws(EventCodecError) in try reader.read() }
    }

    mutating func readDictionary<Map: CheckpointMap>(
        _ body: (inout BinaryReader) throws(EventCodecError) -> Map.Value
    ) throws(EventCodecError) -> Map where Map.Key: WireValue {
        let count = try readCount(elementBytesMin: Map.Key.wireBytesMin + 1)
        var dictionary = Map()
        for _ in 0..<count {
            let key: Map.Key = try read()
            dictionary[key] = try body(&self)
        }
        return dictionary
    }
}

/// A map a checkpoint reads into: a `Dictionary` for what is live, a `TreeDictionary` for
/// what grows with history.
protocol CheckpointMap {
    associatedtype Key: Hashable
    associatedtype Value
    init()
    subscript(key: Key) -> Value? { get set }
}

extension Dictionary: CheckpointMap {}
extension TreeDictionary: CheckpointMap {}

/// The validation state's records: each one's layout is its fields in declaration order
/// (`@WireFields`).
extension HouseholdRecord: WireValue {}
extension PersonRecord: WireValue {}
extension CategoryCounts: WireValue {}
extension InvitationRecord: WireValue {}
extension TemplateRecord: WireValue {}
extension PostedOccurrence: WireValue {}

/// The last closed period; the open period is derived from it and the budget read model's
/// paydays once both are read (`FoldedState.init(checkpoint:archive:)`).
extension PeriodSchedule {
    func write(to writer: inout BinaryWriter) {
        writer.write(lastClosed)
    }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(lastClosed: try reader.read())
    }
}
