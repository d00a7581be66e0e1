extension Identifier: WireValue {
    package static var wireBytesMin: Int { 16 }
    package init(from reader: inout BinaryReader) throws(EventCodecError) { self.init(try reader.readUUID()) }
    package func write(to writer: inout BinaryWriter) { writer.writeUUID(value) }
}

/// Three ASCII bytes, e.g. `C H F`.
extension Currency: WireValue {
    package static var wireBytesMin: Int { 3 }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        let start = reader.offset
        let code = try reader.readRawBytes(count: 3)
        do {
            self = try Currency(asciiBytes: code[code.startIndex], code[code.startIndex + 1], code[code.startIndex + 2])
        } catch {
            throw .invalidValue(field: "Currency", reason: error.message, offset: start)
        }
    }

    package func write(to writer: inout BinaryWriter) {
        let (first, second, third) = asciiBytes
        writer.writeByte(first)
        writer.writeByte(second)
        writer.writeByte(third)
    }
}

/// The currency, then the minor units as a zigzag varint.
extension Money: WireValue {
    package static var wireBytesMin: Int { 4 }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        let currency = try Currency(from: &reader)
        self.init(minorUnits: try reader.readVarInt(), currency: currency)
    }

    package func write(to writer: inout BinaryWriter) {
        currency.write(to: &writer)
        writer.writeVarInt(minorUnits)
    }
}

/// Days since 1970-01-01 as a zigzag varint.
extension LocalDate: WireValue {
    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        let start = reader.offset
        let days = try reader.readVarInt()
        do {
            self = try LocalDate(daysSinceEpoch: days)
        } catch {
            throw .invalidValue(field: "LocalDate", reason: error.message, offset: start)
        }
    }

    package func write(to writer: inout BinaryWriter) { writer.writeVarInt(daysSinceEpoch) }
}

/// Milliseconds since 1970-01-01T00:00:00Z as a zigzag varint.
extension Timestamp: WireValue {
    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(millisecondsSinceEpoch: try reader.readVarInt())
    }

    package func write(to writer: inout BinaryWriter) { writer.writeVarInt(millisecondsSinceEpoch) }
}

/// Months since January of year 0 (`year * 12 + month - 1`) as an unsigned varint.
extension YearMonth: WireValue {
    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        let start = reader.offset
        let months = try reader.readVarUInt()
        guard months <= 9_999 * 12 + 11, let month = try? YearMonth(year: Int(months / 12), month: Int(months % 12) + 1) else {
            throw .invalidValue(field: "YearMonth", reason: "month number \(months) is outside 0001-01...9999-12", offset: start)
        }
        self = month
    }

    package func write(to writer: inout BinaryWriter) { writer.writeVarUInt(UInt64(year * 12 + month - 1)) }
}

/// Basis points as an unsigned varint.
extension Ratio: WireValue {
    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        let start = reader.offset
        let raw = try reader.readVarUInt()
        guard raw <= UInt64(Ratio.basisPointsPerWhole), let ratio = try? Ratio(basisPoints: Int64(raw)) else {
            throw .invalidValue(field: "Ratio", reason: "\(raw) bp is outside 0...10000", offset: start)
        }
        self = ratio
    }

    package func write(to writer: inout BinaryWriter) { writer.writeVarUInt(UInt64(basisPoints)) }
}

/// Base currency, quote currency, then the scaled rate as a zigzag varint.
extension ExchangeRate: WireValue {
    package static var wireBytesMin: Int { 7 }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        let start = reader.offset
        let base = try Currency(from: &reader)
        let quote = try Currency(from: &reader)
        let scaledRate = try reader.readVarInt()
        do {
            self = try ExchangeRate(base: base, quote: quote, scaledRate: scaledRate)
        } catch {
            throw .invalidValue(field: "ExchangeRate", reason: error.message, offset: start)
        }
    }

    package func write(to writer: inout BinaryWriter) {
        base.write(to: &writer)
        quote.write(to: &writer)
        writer.writeVarInt(scaledRate)
    }
}

/// The digest's 32 bytes as they are.
extension ContentHash: WireValue {
    package static var wireBytesMin: Int { ContentHash.byteCount }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        let start = reader.offset
        let bytes = Array(try reader.readRawBytes(count: ContentHash.byteCount))
        do throws(ModelError) {
            self = try ContentHash(bytes: bytes)
        } catch {
            throw .invalidValue(field: "ContentHash", reason: error.message, offset: start)
        }
    }

    package func write(to writer: inout BinaryWriter) { writer.writeRawBytes(bytes) }
}
