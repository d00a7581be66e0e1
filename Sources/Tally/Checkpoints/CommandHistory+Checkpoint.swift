import HashTreeCollections
import TallyModel
import TallyProjections

extension CommandHistory.Entry: ArchiveCodable {
    package func writeArchive(to writer: inout BinaryWriter) {
        writer.writeVarUInt(firstSequenceNumber)
        writer.write(target)
        writer.write(owned.sorted(by: EntityKey.checkpointOrder))
        writer.writeVarUInt(UInt64(compensation.count))
        for payloads in compensation {
            writer.writeVarUInt(UInt64(payloads.count))
            for payload in payloads { payload.writeTagged(to: &writer) }
        }
        writer.writeOptional(irreversibleTag) { writer, tag in writer.writeVarUInt(UInt64(tag.rawValue)) }
        writer.write(isUndone)
        writer.write(lastUndo)
        writer.write(effectCount)
    }

    package init(archive reader: inout BinaryReader) throws(EventCodecError) {
        self.init(firstSequenceNumber: try reader.readVarUInt())
        target = try reader.read()
        owned = Set(try reader.read([EntityKey].self))
        for _ in 0..<(try reader.readCount(elementBytesMin: 1)) {
            var payloads: [EventPayload] = []
            for _ in 0..<(try reader.readCount(elementBytesMin: 2)) { payloads.append(try EventPayload.readTagged(from: &reader)) }
            compensation.append(payloads)
        }
        irreversibleTag = try reader.readOptional { reader throws(EventCodecError) in try EventTag.read(from: &reader) }
        isUndone = try reader.read()
        lastUndo = try reader.read()
        effectCount = try reader.read()
    }
}

extension CommandHistory {
    /// The history inside a checkpoint's state: every entry and touch when `inline`, none when
    /// the checkpoint keeps them in the archive.
    func write(to writer: inout BinaryWriter, inline: Bool) {
        writer.writeSorted(inline ? allEntries : [:]) { writer, entry in entry.writeArchive(to: &writer) }
        let touches = inline ? allTouches : [:]
        let keys = touches.keys.sorted(by: EntityKey.checkpointOrder)
        writer.writeVarUInt(UInt64(keys.count))
        for key in keys {
            key.write(to: &writer)
            let list = touches[key] ?? []
            writer.writeVarUInt(UInt64(list.count))
            for touch in list {
                writer.writeVarUInt(touch.sequenceNumber)
                writer.writeVarUInt(UInt64(touch.tag.rawValue))
                writer.write(touch.chain)
            }
        }
    }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init()
        let inlineEntries: TreeDictionary<CommandID, Entry> = try reader.readDictionary { reader throws(EventCodecError) in
            try Entry(archive: &reader)
        }
        for (command, entry) in inlineEntries { setEntry(entry, for: command) }
        for _ in 0..<(try reader.readCount(elementBytesMin: 2)) {
            let key = try EntityKey(from: &reader)
            for _ in 0..<(try reader.readCount(elementBytesMin: 18)) {
                add(Touch(sequenceNumber: try reader.readVarUInt(), tag: try EventTag.read(from: &reader), chain: try reader.read()), to: key)
            }
        }
    }
}

extension EventTag {
    static func read(from reader: inout BinaryReader) throws(EventCodecError) -> EventTag {
        let raw = try reader.readVarUInt()
        guard raw <= UInt64(UInt32.max), let tag = EventTag(rawValue: UInt32(raw)) else {
            throw .unknownTag(UInt32(truncatingIfNeeded: raw))
        }
        return tag
    }
}

extension EventPayload {
    /// Tag, then the payload's fields at the tag's current schema version.
    func writeTagged(to writer: inout BinaryWriter) {
        writer.writeVarUInt(UInt64(tag.rawValue))
        write(to: &writer)
    }

    static func readTagged(from reader: inout BinaryReader) throws(EventCodecError) -> EventPayload {
        let tag = try EventTag.read(from: &reader)
        return try decode(tag: tag, version: tag.schemaVersion, from: &reader)
    }
}

extension EntityKey: WireValue {
    /// A total order for writing sets and dictionary keys deterministically.
    static func checkpointOrder(_ lhs: EntityKey, _ rhs: EntityKey) -> Bool {
        var left = BinaryWriter()
        var right = BinaryWriter()
        lhs.write(to: &left)
        rhs.write(to: &right)
        return left.bytes.lexicographicallyPrecedes(right.bytes)
    }

    package func write(to writer: inout BinaryWriter) {
        switch self {
        case .household: writer.writeByte(0)
        case .baseCurrency: writer.writeByte(1)
        case .admin: writer.writeByte(2)
        case .person(let id): writer.writeByte(3); writer.write(id)
        case .wallet(let id): writer.writeByte(4); writer.write(id)
        case .walletName(let name): writer.writeByte(5); writer.writeString(name)
        case .category(let id): writer.writeByte(6); writer.write(id)
        case .categoryName(let name): writer.writeByte(7); writer.writeString(name)
        case .transaction(let id): writer.writeByte(8); writer.write(id)
        case .transfer(let id): writer.writeByte(9); writer.write(id)
        case .template(let id): writer.writeByte(10); writer.write(id)
        case .splitRatio: writer.writeByte(11)
        case .settlement(let id): writer.writeByte(12); writer.write(id)
        case .group(let id): writer.writeByte(13); writer.write(id)
        case .groupExpense(let id): writer.writeByte(14); writer.write(id)
        case .periods: writer.writeByte(15)
        case .budget(let id): writer.writeByte(16); writer.write(id)
        case .incomeSettings: writer.writeByte(17)
        case .exchangeRate(let base, let quote): writer.writeByte(18); writer.write(base); writer.write(quote)
        case .balancePoints(let id): writer.writeByte(19); writer.write(id)
        case .categoryOrder: writer.writeByte(20)
        case .walletDesignation(let id): writer.writeByte(22); writer.write(id)
        case .goal(let id): writer.writeByte(30); writer.write(id)
        case .goalAmounts(let id): writer.writeByte(31); writer.write(id)
        case .scenario(let id): writer.writeByte(32); writer.write(id)
        case .activeScenario: writer.writeByte(33)
        case .alertSettings: writer.writeByte(34)
        case .firstWeekday: writer.writeByte(23)
        case .categoryTaxClass(let id): writer.writeByte(25); writer.write(id)
        case .balanceAlert(let id): writer.writeByte(24); writer.write(id)
        case .attachment(let item, let hash): writer.writeByte(40); writer.write(item); writer.write(hash)
        case .importMapping(let name): writer.writeByte(80); writer.write(name)
        case .view(let id): writer.writeByte(65); writer.write(id)
        case .invitation(let id): writer.writeByte(21); writer.write(id)
        }
    }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        let start = reader.offset
        switch try reader.readByte() {
        case 0: self = .household
        case 1: self = .baseCurrency
        case 2: self = .admin
        case 3: self = .person(try reader.read())
        case 4: self = .wallet(try reader.read())
        case 5: self = .walletName(try reader.readString())
        case 6: self = .category(try reader.read())
        case 7: self = .categoryName(try reader.readString())
        case 8: self = .transaction(try reader.read())
        case 9: self = .transfer(try reader.read())
        case 10: self = .template(try reader.read())
        case 11: self = .splitRatio
        case 12: self = .settlement(try reader.read())
        case 13: self = .group(try reader.read())
        case 14: self = .groupExpense(try reader.read())
        case 15: self = .periods
        case 16: self = .budget(try reader.read())
        case 17: self = .incomeSettings
        case 18: self = .exchangeRate(try reader.read(), try reader.read())
        case 19: self = .balancePoints(try reader.read())
        case 20: self = .categoryOrder
        case 21: self = .invitation(try reader.read())
        case 23: self = .firstWeekday
        case 25: self = .categoryTaxClass(try reader.read())
        case 24: self = .balanceAlert(try reader.read())
        case 22: self = .walletDesignation(try reader.read())
        case 30: self = .goal(try reader.read())
        case 31: self = .goalAmounts(try reader.read())
        case 32: self = .scenario(try reader.read())
        case 33: self = .activeScenario
        case 34: self = .alertSettings
        case 40: self = .attachment(try reader.read(), try reader.read())
        case 65: self = .view(try reader.read())
        case 80: self = .importMapping(try reader.read())
        case let other: throw .invalidValue(field: "EntityKey", reason: "unknown case \(other)", offset: start)
        }
    }
}
