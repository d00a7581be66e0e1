import Testing
import TallyModel

/// `@WireFields` (`Docs/Architecture.md`, "Binary layouts"): a struct's layout is its stored
/// properties in declaration order; constants, statics and computed properties are not fields.
@Suite("Wire fields")
struct WireFieldsTests {
    @WireFields
    struct Sample: WireValue, Equatable {
        let wallet: WalletID
        var note: String? { didSet {} }
        let layoutVersion = 3
        static let shared = 7
        var doubled: Int64 { amount * 2 }
        var amount: Int64
        var edits: Int
    }

    static let sample = Sample(wallet: WalletID(UUIDValue(high: 1, low: 2)), note: "rent", amount: -1_250, edits: 4)

    @Test("the layout is the stored properties in declaration order, and nothing else")
    func layoutIsTheStoredPropertiesInOrder() {
        var generated = BinaryWriter()
        Self.sample.write(to: &generated)
        var byHand = BinaryWriter()
        byHand.write(Self.sample.wallet)
        byHand.write(Self.sample.note)
        byHand.write(Self.sample.amount)
        byHand.write(Self.sample.edits)
        #expect(generated.bytes == byHand.bytes)
    }

    @Test("what the encoder writes, the decoder reads back whole; a truncated layout is a typed error")
    func roundTripAndTruncation() throws {
        var writer = BinaryWriter()
        Self.sample.write(to: &writer)
        var reader = BinaryReader(writer.bytes)
        #expect(try Sample(from: &reader) == Self.sample)
        #expect(reader.remainingCount == 0)
        var short = BinaryReader(Array(writer.bytes.dropLast()))
        #expect(throws: EventCodecError.self) { try Sample(from: &short) }
    }

    @WireFields
    struct Grown: WireValue, Equatable {
        let wallet: WalletID
        @WireSince(3) let category: CategoryID?
    }

    @Test("G4: a field marked @WireSince(3) reads as nil from a version-2 payload, which lacks it, and is read from version 3 on")
    func fieldAddedByALaterVersion() throws {
        let grown = Grown(wallet: WalletID(UUIDValue(high: 1, low: 2)), category: CategoryID(UUIDValue(high: 3, low: 4)))
        var writer = BinaryWriter()
        grown.write(to: &writer)
        var current = BinaryReader(writer.bytes)
        current.layoutVersion = 3
        #expect(try Grown(from: &current) == grown)
        var older = BinaryWriter()
        older.write(grown.wallet)
        var version2 = BinaryReader(older.bytes)
        version2.layoutVersion = 2
        #expect(try Grown(from: &version2) == Grown(wallet: grown.wallet, category: nil))
        #expect(version2.remainingCount == 0)
        var unversioned = BinaryReader(writer.bytes)
        #expect(try Grown(from: &unversioned) == grown, "a reader without a version (a checkpoint) reads every field")
    }

    @WireFields
    struct Holder: WireValue, Equatable {
        let grown: Grown
    }

    @Test("G4: a nested value reads every field whatever the event's version (@WireSince compares the event's own fields only)")
    func nestedValueIgnoresTheEventVersion() throws {
        let holder = Holder(grown: Grown(wallet: WalletID(UUIDValue(high: 5, low: 6)), category: CategoryID(UUIDValue(high: 7, low: 8))))
        var writer = BinaryWriter()
        holder.write(to: &writer)
        var reader = BinaryReader(writer.bytes)
        reader.layoutVersion = 1
        #expect(try Holder(from: &reader) == holder)
        #expect(reader.remainingCount == 0)
        #expect(reader.layoutVersion == 1, "the event's version is back after the nested read")
    }
}
