/// `Codable` for the values an app keeps or sends (issue 30: "Codable for the public values"),
/// in the forms the JSON command schema uses (Docs/Commands.md): an id is its canonical UUID
/// text, a date and a month their ISO text, a timestamp its ISO 8601 text with milliseconds, a
/// currency its ISO 4217 code, an amount `{"minorUnits": 1250, "currency": "CHF"}`. Decoding
/// checks what the model's own parsers check and reports their message (a `DecodingError` whose
/// debug description says what to fix); the engine's journal never uses these (its codec is
/// binary, `EventCodec`).
private func decoded<Value>(_ decoder: any Decoder, _ parse: (String) throws(ModelError) -> Value) throws -> Value {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    do {
        return try parse(text)
    } catch {
        throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
    }
}

private func encode(_ text: String, to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(text)
}

extension Identifier: Codable {
    public init(from decoder: any Decoder) throws { self = try decoded(decoder) { text throws(ModelError) in try Identifier(parsing: text) } }
    public func encode(to encoder: any Encoder) throws { try TallyModel.encode(description, to: encoder) }
}

extension LocalDate: Codable {
    public init(from decoder: any Decoder) throws { self = try decoded(decoder) { text throws(ModelError) in try LocalDate(iso: text) } }
    public func encode(to encoder: any Encoder) throws { try TallyModel.encode(isoString, to: encoder) }
}

extension YearMonth: Codable {
    public init(from decoder: any Decoder) throws { self = try decoded(decoder) { text throws(ModelError) in try YearMonth(iso: text) } }
    public func encode(to encoder: any Encoder) throws { try TallyModel.encode(isoString, to: encoder) }
}

extension Timestamp: Codable {
    public init(from decoder: any Decoder) throws { self = try decoded(decoder) { text throws(ModelError) in try Timestamp(iso8601: text) } }
    public func encode(to encoder: any Encoder) throws { try TallyModel.encode(iso8601, to: encoder) }
}

extension Currency: Codable {
    public init(from decoder: any Decoder) throws { self = try decoded(decoder) { text throws(ModelError) in try Currency(text) } }
    public func encode(to encoder: any Encoder) throws { try TallyModel.encode(code, to: encoder) }
}

extension Money: Codable {
    private enum CodingKeys: String, CodingKey {
        case minorUnits, currency
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(minorUnits: try container.decode(Int64.self, forKey: .minorUnits), currency: try container.decode(Currency.self, forKey: .currency))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(minorUnits, forKey: .minorUnits)
        try container.encode(currency, forKey: .currency)
    }
}
