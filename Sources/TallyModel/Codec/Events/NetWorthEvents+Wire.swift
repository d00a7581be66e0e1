// Binary layout of the net worth events: fields in declaration order (Docs/Events.md).

extension ExchangeRateSet: EventPayloadWire {
    package static var eventTag: EventTag { .exchangeRateSet }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(rate: try reader.read(), asOf: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(rate)
        writer.write(asOf)
    }
}
