// Binary layout of the net worth events: fields in declaration order (Docs/Events.md).

extension ExchangeRateSet: EventPayloadWire {
    static var eventTag: EventTag { .exchangeRateSet }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(rate: try reader.read(), asOf: try reader.read())
    }

    func write(to writer: inout BinaryWriter) {
        writer.write(rate)
        writer.write(asOf)
    }
}
