/// A value with a binary form in event payloads. Package access (the engine encodes its
/// checkpoints with it), not API: the encoding is described in
/// `Docs/Events.md`, not exposed as API.
package protocol WireValue {
    /// The fewest bytes an encoded value takes; bounds array counts before allocating.
    static var wireBytesMin: Int { get }
    /// Reads a value.
    init(from reader: inout BinaryReader) throws(EventCodecError)
    /// Appends the value.
    func write(to writer: inout BinaryWriter)
}

extension WireValue {
    package static var wireBytesMin: Int { 1 }
}

extension BinaryReader {
    /// Reads any ``WireValue``; the type comes from the context.
    /// Inside the value the layout version is cleared: ``WireSince(_:)`` compares the event's
    /// version with the event's own fields only, never with a nested value's.
    package mutating func read<Value: WireValue>(_ type: Value.Type = Value.self) throws(EventCodecError) -> Value {
        let version = layoutVersion
        layoutVersion = nil
        defer { layoutVersion = version }
        return try Value(from: &self)
    }

    /// Reads an optional field that schema `version` added (``WireSince(_:)``): `nil`, reading
    /// nothing, from a payload of an older version.
    package mutating func read<Value: WireValue>(since version: UInt16) throws(EventCodecError) -> Value? {
        if let layoutVersion, layoutVersion < version { return nil }
        return try Value?(from: &self)
    }
}

extension BinaryWriter {
    /// Appends any ``WireValue``.
    package mutating func write<Value: WireValue>(_ value: Value) { value.write(to: &self) }
}

/// An enum stored as its one-byte raw value.
package protocol WireEnum: WireValue, RawRepresentable where RawValue == UInt8 {}

extension WireEnum {
    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        let start = reader.offset
        let raw = try reader.readByte()
        guard let value = Self(rawValue: raw) else {
            throw .invalidValue(field: "\(Self.self)", reason: "unknown raw value \(raw)", offset: start)
        }
        self = value
    }

    package func write(to writer: inout BinaryWriter) { writer.writeByte(rawValue) }
}

extension WalletKind: WireEnum {}
extension WalletValuation: WireEnum {}
extension WalletDesignation: WireEnum {}
extension CategoryGroup: WireEnum {}
extension BudgetType: WireEnum {}
extension TaxClass: WireEnum {}
extension MemberRole: WireEnum {}
extension TransactionKind: WireEnum {}
extension RecurrenceFrequency: WireEnum {}
extension BillingStatus: WireEnum {}
extension TemplateSharingKind: WireEnum {}
extension SplitRatioMode: WireEnum {}
extension IncomeMode: WireEnum {}
extension GroupSplitKind: WireEnum {}
