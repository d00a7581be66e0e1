import TallyModel

/// The exposure's checkpoint bytes: currencies and rate pairs in sorted order, so that equal
/// exposures give equal bytes.
extension MoneyExposure {
    func write(to writer: inout BinaryWriter) {
        writer.writeVarUInt(UInt64(magnitudes.count))
        for currency in magnitudes.keys.sorted() {
            writer.write(currency)
            writer.writeVarInt(magnitudes[currency] ?? 0)
        }
        writer.writeVarUInt(UInt64(rates.count))
        for pair in rates.keys.sorted() {
            writer.write(pair.base); writer.write(pair.quote)
            writer.writeVarInt(rates[pair]?.largest ?? 0); writer.writeVarInt(rates[pair]?.smallest ?? 0)
        }
    }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init()
        let currencyCount = try reader.readCount(elementBytesMin: 4)
        for _ in 0..<currencyCount {
            let currency: Currency = try reader.read()
            magnitudes[currency] = try reader.readVarInt()
        }
        let pairCount = try reader.readCount(elementBytesMin: 8)
        for _ in 0..<pairCount {
            let pair = RatePair(base: try reader.read(), quote: try reader.read())
            rates[pair] = RateExtremes(largest: try reader.readVarInt(), smallest: try reader.readVarInt())
        }
    }
}
