// The net worth events: their tags and the decoders of their older layouts. The current layout of each is
// its fields in declaration order, written by @WireFields (Docs/Events.md).

extension ExchangeRateSet: EventPayloadWire {
    package static var eventTag: EventTag { .exchangeRateSet }
}
