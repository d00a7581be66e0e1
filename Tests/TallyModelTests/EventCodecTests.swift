import PropertyBased
import Synchronization
import TallyTestSupport
import Testing
@testable import TallyModel

@Suite("EventCodec")
struct EventCodecTests {
    /// Random events of any type, drawn from the PropertyBased seed.
    static let anyEvent = Generator<Event, Shrink.None<Event>>(run: { rng in
        var source = SeededRandom(seed: rng.next())
        return Event.arbitrary(using: &source)
    })

    static func roundTrip(_ event: Event) throws -> Event {
        let encoded = EventCodec.encode(event)
        return try EventCodec.decode(encoded, recordedAt: event.recordedAt)
    }

    @Test("G1/G4: an event recorded with a code outside ISO 4217 (BTC) still decodes, with the legacy exponent 2")
    func legacyNonISOCurrencyStillDecodes() throws {
        let btc = try Currency("BTC")
        let opened = WalletOpened(
            walletID: try Identifier(parsing: "00000003-0000-4000-8000-000000000001"), name: "Coins", kind: .investment, currency: btc,
            openingBalance: Money(minorUnits: 12_345, currency: btc), openedOn: try LocalDate(iso: "2025-01-01"), owner: nil)
        let event = Event(commandID: try Identifier(parsing: "0000000c-0000-4000-8000-000000000001"),
                          actor: try Identifier(parsing: "00000002-0000-4000-8000-000000000001"),
                          recordedAt: Timestamp(millisecondsSinceEpoch: 0), payload: .walletOpened(opened))
        let decoded = try Self.roundTrip(event)
        #expect(decoded == event)
        guard case .walletOpened(let payload) = decoded.payload else { return }
        #expect(payload.openingBalance.formatted() == "BTC 123.45")
    }

    @Test("G4: every event type round-trips through the codec with random field values", arguments: EventTag.allCases)
    func roundTripEveryType(tag: EventTag) async {
        let generator = Generator<Event, Shrink.None<Event>>(run: { rng in
            var source = SeededRandom(seed: rng.next())
            return Event.arbitrary(tag: tag, using: &source)
        })
        await propertyCheck(count: 60, input: generator) { event in
            let encoded = EventCodec.encode(event)
            #expect(encoded.tag == tag.rawValue)
            #expect(encoded.schemaVersion == tag.schemaVersion)
            let decoded = try EventCodec.decode(encoded, recordedAt: event.recordedAt)
            #expect(decoded == event)
        }
    }

    @Test("G4: every tag in the table has a payload generator producing that tag")
    func everyTagHasAGenerator() {
        var random = SeededRandom(seed: 1)
        for tag in EventTag.allCases {
            #expect(EventPayload.arbitrary(tag: tag, using: &random).tag == tag)
        }
    }

    @Test("G4: a released tag is never renumbered, renamed or removed (new tags may be added; versions are held by the fixtures, EventFixtureTests)")
    func tagTableIsFrozen() {
        let table = Set(EventTag.allCases.map { "\($0.rawValue):\($0.eventName)" })
        for released in Self.frozenTagTable {
            #expect(table.contains(released), "\(released) is released: its tag and name never change")
        }
    }

    @Test("G4: an encoding that decodes re-encodes to the same bytes (the format is canonical)")
    func encodingIsCanonical() async {
        await propertyCheck(count: 300, input: Self.anyEvent) { event in
            let encoded = EventCodec.encode(event)
            let decoded = try EventCodec.decode(encoded, recordedAt: event.recordedAt)
            #expect(EventCodec.encode(decoded) == encoded)
        }
    }

    @Test("G4: every strict prefix of an encoded event is a typed error, never a crash")
    func truncatedPayloadsFail() async {
        await propertyCheck(count: 80, input: Self.anyEvent) { event in
            let encoded = EventCodec.encode(event)
            for length in 0..<encoded.payload.count {
                #expect(throws: EventCodecError.self) {
                    try EventCodec.decode(
                        tag: encoded.tag, schemaVersion: encoded.schemaVersion,
                        payload: Array(encoded.payload.prefix(length)), recordedAt: event.recordedAt)
                }
            }
        }
    }

    static func encode(_ event: Event, cipher: (any PersonalTextCipher)?) -> EncodedEvent {
        var writer = BinaryWriter(reservingCapacity: 96)
        writer.personalTextCipher = cipher
        let tag = EventCodec.encode(event, into: &writer)
        return EncodedEvent(tag: tag.rawValue, schemaVersion: tag.schemaVersion, payload: writer.bytes)
    }

    @Test("Issue 32, P1, P3: a text sealed on a device decodes sealed where no key opens it (a sync server), reads as [sealed] (not redacted), and is written back byte for byte with or without a cipher; the device reads it again; once its owner is forgotten it reads and is written redacted")
    func sealedTextsRelayUnchanged() throws {
        let person = PersonID(UUIDValue(high: 3, low: 1)), writer = PersonID(UUIDValue(high: 3, low: 2))
        let event = Event(
            commandID: CommandID(UUIDValue(high: 3, low: 3)), actor: writer, recordedAt: Timestamp(millisecondsSinceEpoch: 1_700_000_000_000),
            payload: .personAdded(PersonAdded(personID: person, name: PersonalText("Dana", owner: person))))
        let device = DeviceTextCipher()
        let sealed = Self.encode(event, cipher: device)
        #expect(sealed.payload.firstRange(of: Array("Dana".utf8)) == nil)

        let relayed = try EventCodec.decode(sealed, recordedAt: event.recordedAt)
        guard case .personAdded(let added) = relayed.payload else { Issue.record("not a PersonAdded"); return }
        #expect(added.name.isSealed && !added.name.isRedacted && added.name.text == nil)
        #expect(added.name.description == PersonalText.sealedMarker && added.name.owner == person)
        #expect(EventCodec.encode(relayed) == sealed)
        #expect(Self.encode(relayed, cipher: KeylessReader()) == sealed)
        // A device holding the key writes a sealed text unchanged too (no new nonce).
        #expect(Self.encode(relayed, cipher: device) == sealed)

        let reopened = try EventCodec.decode(
            tag: sealed.tag, schemaVersion: sealed.schemaVersion, payload: sealed.payload, recordedAt: event.recordedAt, personalTexts: device)
        #expect(reopened == event)

        let forgetting = DeviceTextCipher(forgotten: [person])
        let redacted = try EventCodec.decode(
            tag: sealed.tag, schemaVersion: sealed.schemaVersion, payload: sealed.payload, recordedAt: event.recordedAt, personalTexts: forgetting)
        guard case .personAdded(let gone) = redacted.payload else { Issue.record("not a PersonAdded"); return }
        #expect(gone.name.isRedacted && !gone.name.isSealed)
        let rewritten = Self.encode(relayed, cipher: forgetting)
        #expect(rewritten != sealed)
        #expect(try EventCodec.decode(rewritten, recordedAt: event.recordedAt) == redacted)
    }

    /// A cipher that opens nothing and counts what it was asked to open: a reader without keys.
    final class KeylessReader: PersonalTextCipher {
        private let asked = Mutex(0)
        var sealedTextsMet: Int { asked.withLock { $0 } }
        func seal(_ text: String, owner: PersonID) -> [UInt8]? { nil }
        func open(_ sealed: ArraySlice<UInt8>, owner: PersonID) -> String? {
            asked.withLock { $0 += 1 }
            return nil
        }
        func hasForgotten(_ owner: PersonID) -> Bool { false }
    }

    @Test("G4, P1, issue 32: byte flips give a typed error or a valid event that re-encodes to the flipped bytes, sealed texts included: a text no key opens decodes sealed and is written back byte for byte (nothing is lossy)")
    func mutatedPayloadsFailCleanly() async {
        await propertyCheck(count: 400, input: Self.anyEvent, Gen.uint64()) { event, seed in
            var random = SeededRandom(seed: seed)
            var encoded = EventCodec.encode(event)
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let index = Int.random(in: 0..<encoded.payload.count, using: &random)
                encoded.payload[index] ^= UInt8.random(in: 1...255, using: &random)
            }
            let keyless = KeylessReader()
            do throws(EventCodecError) {
                let decoded = try EventCodec.decode(
                    tag: encoded.tag, schemaVersion: encoded.schemaVersion, payload: encoded.payload,
                    recordedAt: event.recordedAt, personalTexts: keyless)
                #expect(EventCodec.encode(decoded) == encoded)
            } catch {
                Self.expectLocatedInside(error, payloadBytes: encoded.payload.count)
            }
        }
    }

    @Test("G4: random bytes under every tag give a typed error located inside the payload, or an event that re-encodes to those bytes")
    func randomBytesDecodeCanonicallyOrFailLocated() async {
        await propertyCheck(count: 500, input: Gen.uint8().array(of: 0...80), Gen<EventTag>.case) { bytes, tag in
            let encoded = EncodedEvent(tag: tag.rawValue, schemaVersion: tag.schemaVersion, payload: bytes)
            do throws(EventCodecError) {
                let decoded = try EventCodec.decode(encoded, recordedAt: .init(millisecondsSinceEpoch: 0))
                #expect(EventCodec.encode(decoded) == encoded)
            } catch {
                Self.expectLocatedInside(error, payloadBytes: bytes.count)
            }
        }
    }

    /// A payload under a known tag and version fails only as truncated, an invalid value or
    /// trailing bytes, at an offset inside the payload (trailing bytes run to its end).
    static func expectLocatedInside(_ error: EventCodecError, payloadBytes: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        switch error {
        case .truncated(let offset), .invalidValue(_, _, let offset):
            #expect((0...payloadBytes).contains(offset), "\(error)", sourceLocation: sourceLocation)
        case .trailingBytes(let offset, let count):
            #expect(count > 0 && offset + count == payloadBytes, "\(error)", sourceLocation: sourceLocation)
        case .unknownTag, .unsupportedVersion:
            Issue.record("a known tag and version failed as \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test("G4: a hostile array count is rejected before allocating")
    func hostileCountIsRejected() {
        var writer = BinaryWriter()
        writer.writeUUID(UUIDValue(high: 1, low: 1))
        writer.writeUUID(UUIDValue(high: 2, low: 2))
        writer.writeByte(SplitRatioMode.manual.rawValue)
        writer.writeVarUInt(UInt64.max)  // ratios count
        #expect(throws: EventCodecError.truncated(offset: 33)) {
            try EventCodec.decode(tag: EventTag.splitRatioSet.rawValue, schemaVersion: 1, payload: writer.bytes, recordedAt: .init(millisecondsSinceEpoch: 0))
        }
        var reader = BinaryReader([0xFF, 0xFF, 0xFF, 0xFF, 0x0F])
        #expect(throws: EventCodecError.self) { try reader.readLengthPrefixed() }
    }

    @Test("G4: unknown tags, unsupported versions and trailing bytes are typed errors")
    func envelopeErrors() throws {
        var random = SeededRandom(seed: 9)
        let event = Event.arbitrary(tag: .walletRenamed, using: &random)
        let encoded = EventCodec.encode(event)
        let at = event.recordedAt
        #expect(throws: EventCodecError.unknownTag(999)) {
            try EventCodec.decode(tag: 999, schemaVersion: 1, payload: encoded.payload, recordedAt: at)
        }
        #expect(throws: EventCodecError.unsupportedVersion(tag: 201, version: 0)) {
            try EventCodec.decode(tag: 201, schemaVersion: 0, payload: encoded.payload, recordedAt: at)
        }
        #expect(throws: EventCodecError.unsupportedVersion(tag: 201, version: 2)) {
            try EventCodec.decode(tag: 201, schemaVersion: 2, payload: encoded.payload, recordedAt: at)
        }
        #expect(throws: EventCodecError.trailingBytes(offset: encoded.payload.count, count: 1)) {
            try EventCodec.decode(tag: 201, schemaVersion: 1, payload: encoded.payload + [0], recordedAt: at)
        }
    }

    @Test("G4: invalid UTF-8, bad booleans, bad enum values and non-minimal varints are invalidValue")
    func invalidValues() throws {
        var badUTF8 = BinaryReader([2, 0xC3, 0x28])
        #expect(throws: EventCodecError.invalidValue(field: "string", reason: "invalid UTF-8", offset: 0)) { try badUTF8.readString() }
        var badBool = BinaryReader([2])
        #expect(throws: EventCodecError.self) { try badBool.read(Bool.self) }
        var badKind = BinaryReader([8])
        #expect(throws: EventCodecError.self) { try badKind.read(WalletKind.self) }
        var overlong = BinaryReader([0x80, 0x00])
        #expect(throws: EventCodecError.self) { try overlong.readVarUInt() }
        var tooWide = BinaryReader([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02])
        #expect(throws: EventCodecError.self) { try tooWide.readVarUInt() }
        var maxValue = BinaryReader([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])
        #expect(try maxValue.readVarUInt() == .max)
        var badCurrency = BinaryReader([UInt8(ascii: "c"), UInt8(ascii: "h"), UInt8(ascii: "f")])
        #expect(throws: EventCodecError.self) { try badCurrency.read(Currency.self) }
    }

    @Test("G4: varints and zigzag integers round-trip at the edges")
    func varintEdges() throws {
        for value: Int64 in [0, 1, -1, 63, -64, 64, -65, .max, .min] {
            var writer = BinaryWriter()
            writer.writeVarInt(value)
            var reader = BinaryReader(writer.bytes)
            #expect(try reader.readVarInt() == value)
            try reader.finish()
        }
        var writer = BinaryWriter()
        writer.writeVarInt(-1)
        writer.writeVarUInt(300)
        #expect(writer.bytes == [0x01, 0xAC, 0x02])
    }

    static let frozenTagTable = [
        "100:HouseholdCreated", "101:BaseCurrencyChanged", "102:MemberAdded", "103:MemberRemoved",
        "104:AdminTransferred", "105:PersonAdded", "106:PersonArchived", "107:PersonForgotten", "108:PersonUnarchived", "109:PersonAvatarSet",
        "110:PersonUpdated",
        "200:WalletOpened", "201:WalletRenamed", "202:WalletKindChanged", "203:WalletDeactivated",
        "204:WalletReactivated", "205:WalletClosed", "206:BalanceRecorded", "207:TransferRecorded",
        "208:TransferDeleted", "209:WalletReopened", "220:WalletDesignationSet", "221:WalletValuationSet", "222:WalletBalanceAlertSet", "223:WalletConnectionSet", "230:BalanceRemoved", "231:TransferEdited",
        "300:CategoryCreated", "301:CategoryRenamed", "302:CategoryDeactivated", "303:CategoryReactivated",
        "304:CategoryDeleted", "310:CategoryUpdated", "311:CategoriesReordered",
        "400:TransactionRecorded", "401:TransactionEdited", "402:TransactionDeleted", "403:TransactionRestored", "404:AttachmentAdded", "405:AttachmentRemoved",
        "410:TemplateCreated", "411:TemplatePaused", "412:TemplateResumed", "413:TemplateActivated",
        "420:TemplatePriceChanged", "421:TemplateCancelled", "422:TemplateEdited", "423:TemplateProfileSet", "424:OccurrenceBillingMarked", "425:TemplateReinstated", "426:SampleDataLoaded",
        "427:TemplateSharingAccepted", "428:SampleDataCleared",
        "500:SplitRatioSet", "501:SettlementRecorded", "502:GroupCreated", "503:GroupExpenseRecorded",
        "510:GroupUpdated", "511:GroupMemberAdded", "512:GroupMemberRemoved", "513:GroupArchived",
        "514:GroupUnarchived", "515:GroupDeleted", "516:GroupRestored", "520:GroupExpenseEdited", "521:GroupExpenseDeleted",
        "522:GroupExpenseRestored", "523:GroupExpenseSettledMarked",
        "600:PaydaySet", "601:BudgetAllocated", "602:IncomeSettingsSet", "603:BonusConfirmed",
        "604:PeriodClosed", "605:SplitRatioRecalculated", "606:BonusMarked", "607:BonusAllocated", "608:BonusRolledIn", "609:FirstWeekdaySet", "610:BudgetRemoved", "611:CategoryTaxClassSet",
        "620:GoalCreated", "621:GoalUpdated", "622:GoalAmountSet", "623:GoalDeleted", "624:GoalRestored",
        "630:ScenarioSaved", "631:ScenarioDeleted", "632:ScenarioActivated", "640:AlertSettingsSet",
        "650:ViewSaved", "651:ViewRenamed", "652:ViewDeleted",
        "653:MemberInvited", "654:InvitationCancelled", "655:InvitationAccepted",
        "700:ExchangeRateSet", "800:ImportMappingSaved", "801:ImportMappingRemoved",
        "900:CommandUndone", "901:CommandRedone",
    ]
}
