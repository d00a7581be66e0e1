// The binary layouts of the shared rules' state (pay periods, debt nets, group nets), used by the
// engine's checkpoint and the read models' alike: one layout each.

/// The high 64 bits (signed LEB128), then the low 64 bits (unsigned): exact for any `Int128`.
extension Int128: WireValue {
    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        let high = try reader.readVarInt()
        self = Int128(high) << 64 | Int128(try reader.readVarUInt())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.writeVarInt(Int64(truncatingIfNeeded: self >> 64))
        writer.writeVarUInt(UInt64(truncatingIfNeeded: self))
    }
}

extension PayPeriod: WireValue {}

/// The day (1...31, checked on read), the date it takes effect, the `PaydaySet` sequence number,
/// the interval in days (presence byte; weekly and biweekly rules), the second day of the month
/// (presence byte; twice-a-month rules, 1...31 checked on read).
extension PaySchedule.Rule: WireValue {
    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        let start = reader.offset
        let day: Int = try reader.read()
        guard (1...31).contains(day) else {
            throw .invalidValue(field: "payday", reason: "day \(day) outside 1...31", offset: start)
        }
        let effectiveFrom: LocalDate = try reader.read()
        let sequenceNumber: UInt64 = try reader.read()
        let interval: Int? = try reader.read()
        if let interval, !(1...366).contains(interval) {
            throw .invalidValue(field: "payday", reason: "interval \(interval) days outside 1...366", offset: start)
        }
        let secondDay: Int? = try reader.read()
        if let secondDay, !(1...31).contains(secondDay) {
            throw .invalidValue(field: "payday", reason: "second day \(secondDay) outside 1...31", offset: start)
        }
        self.init(day: day, effectiveFrom: effectiveFrom, sequenceNumber: sequenceNumber, intervalDays: interval, secondDay: secondDay)
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(day)
        writer.write(effectiveFrom)
        writer.write(sequenceNumber)
        writer.write(intervalDays)
        writer.write(secondDay)
    }
}

extension DebtNets.Pair: WireValue {}

/// The count, then each pair and its net in pair order; a repeated pair is refused.
extension DebtNets: WireValue {
    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        var nets: [Pair: Int128] = [:]
        for _ in 0..<(try reader.readCount(elementBytesMin: 35)) {
            let start = reader.offset
            let pair: Pair = try reader.read()
            guard nets.updateValue(try reader.read(), forKey: pair) == nil else {
                throw .invalidValue(field: "DebtNets", reason: "pair listed twice", offset: start)
            }
        }
        self.init(nets: nets)
    }

    package func write(to writer: inout BinaryWriter) {
        let entries = nets.sorted { $0.key < $1.key }
        writer.writeVarUInt(UInt64(entries.count))
        for (pair, net) in entries {
            writer.write(pair)
            writer.write(net)
        }
    }
}

extension GroupNets.Member: WireValue {}

extension GroupNets.Totals: WireValue {}

/// The count, then each entry in (group, currency, person) order: the group, the member (currency,
/// person) and the totals (paid, owed, settlements paid and received, mentions). An entry listed
/// twice or with totals no history gives (``GroupNets/Totals/isPossible``) is refused.
extension GroupNets: WireValue {
    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        var groups: [GroupID: [Member: Totals]] = [:]
        for _ in 0..<(try reader.readCount(elementBytesMin: 44)) {
            let start = reader.offset
            let group: GroupID = try reader.read()
            let member: Member = try reader.read()
            let totals: Totals = try reader.read()
            guard totals.isPossible else {
                throw .invalidValue(field: "GroupNets", reason: "totals no history gives", offset: start)
            }
            guard groups[group, default: [:]].updateValue(totals, forKey: member) == nil else {
                throw .invalidValue(field: "GroupNets", reason: "member listed twice", offset: start)
            }
        }
        self.init(groups: groups)
    }

    package func write(to writer: inout BinaryWriter) {
        let entries = groups.sorted { $0.key < $1.key }
        writer.writeVarUInt(UInt64(entries.reduce(0) { $0 + $1.value.count }))
        for (group, members) in entries {
            for (member, totals) in members.sorted(by: { $0.key < $1.key }) {
                writer.write(group)
                writer.write(member)
                writer.write(totals)
            }
        }
    }
}
