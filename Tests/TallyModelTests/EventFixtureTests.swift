import Foundation
import TallyModel
import TallyTestSupport
import Testing

/// Reads `Tests/Fixtures/events-v1.bin` and every later fixture file of
/// ``FixtureEvents/generations`` (and records a missing one on request); see
/// `Tests/Fixtures/README.md`.
@Suite("Event fixtures")
struct EventFixtureTests {
    static func fixtureURL(_ name: String) -> URL {
        RepositoryFiles.fixture(name)
    }
    static let magic = Array("TALLYEV1".utf8)

    /// A record of the fixture container.
    struct Record: Equatable {
        var tag: UInt32
        var schemaVersion: UInt16
        var recordedAt: Timestamp
        var payload: [UInt8]
    }

    /// The hand-made version-1 payload of `FixtureEvents.legacyEvent`: written field by field,
    /// not by the current encoder, exactly as the v1 layout had it (no `tags`).
    static func legacyTransactionPayload() -> [UInt8] {
        let event = FixtureEvents.legacyEvent
        guard case .transactionRecorded(let recorded) = event.payload else { return [] }
        let details = recorded.details
        var writer = BinaryWriter()
        writer.writeUUID(event.commandID.value)
        writer.writeUUID(event.actor.value)
        writer.writeUUID(recorded.transactionID.value)
        writer.writeByte(0)  // kind: income = 0 (expense = 1)
        writer.writeRawBytes(Array("CHF".utf8))
        writer.writeVarInt(650_000)  // amount in Rappen
        writer.writeUUID(details.walletID.value)
        writer.writeUUID(details.categoryID.value)
        writer.writeVarInt(details.date.daysSinceEpoch)
        writer.writeByte(1)  // note present
        writer.writeString("October")
        // v1: no tags here.
        writer.writeUUID(details.payer.value)
        writer.writeByte(0)  // no split
        return writer.bytes
    }

    /// The records of a fixture file: its events at their current schema versions.
    static func currentRecords(_ events: [Event]) -> [Record] {
        events.map { event in
            let encoded = EventCodec.encode(event)
            return Record(tag: encoded.tag, schemaVersion: encoded.schemaVersion, recordedAt: event.recordedAt, payload: encoded.payload)
        }
    }

    /// Decodes a fixture file; a missing file is recorded from `records` only when
    /// `TALLY_RECORD_FIXTURES=1` (fixtures are never re-recorded over an existing file).
    static func decodedFixture(_ name: String, recording records: @autoclosure () -> [Record]) throws -> (records: [Record], events: [Event])? {
        let url = fixtureURL(name)
        if ProcessInfo.processInfo.environment["TALLY_RECORD_FIXTURES"] == "1", !FileManager.default.fileExists(atPath: url.path) {
            try Data(writeContainer(records())).write(to: url)
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            Issue.record("missing \(url.path); record it once with TALLY_RECORD_FIXTURES=1 swift test")
            return nil
        }
        let stored = try readContainer(Array(data))
        let events = try stored.map { record in
            try EventCodec.decode(tag: record.tag, schemaVersion: record.schemaVersion, payload: record.payload, recordedAt: record.recordedAt)
        }
        return (stored, events)
    }

    static func writeContainer(_ records: [Record]) -> [UInt8] {
        var writer = BinaryWriter()
        writer.writeRawBytes(magic)
        for record in records {
            writer.writeVarUInt(UInt64(record.tag))
            writer.writeVarUInt(UInt64(record.schemaVersion))
            writer.writeVarInt(record.recordedAt.millisecondsSinceEpoch)
            writer.writeLengthPrefixed(record.payload)
        }
        return writer.bytes
    }

    static func readContainer(_ bytes: [UInt8]) throws -> [Record] {
        var reader = BinaryReader(bytes)
        guard Array(try reader.readRawBytes(count: magic.count)) == magic else {
            throw EventCodecError.invalidValue(field: "magic", reason: "not a TALLYEV1 file", offset: 0)
        }
        var records: [Record] = []
        while reader.remainingCount > 0 {
            let tag = try reader.readVarUInt()
            let version = try reader.readVarUInt()
            let recordedAt = try reader.readVarInt()
            let payload = Array(try reader.readLengthPrefixed())
            guard let tag = UInt32(exactly: tag), let version = UInt16(exactly: version) else {
                throw EventCodecError.invalidValue(field: "record", reason: "tag or version too large", offset: reader.offset)
            }
            records.append(Record(tag: tag, schemaVersion: version, recordedAt: Timestamp(millisecondsSinceEpoch: recordedAt), payload: payload))
        }
        return records
    }

    @Test("G4: the v1 fixture decodes forever to the expected events, one per event type of the first catalog")
    func fixtureDecodesToExpectedEvents() throws {
        guard let fixture = try Self.decodedFixture("events-v1.bin", recording: []) else { return }
        #expect(fixture.events == FixtureEvents.events + [FixtureEvents.legacyEvent])
        let coveredTags = Set(fixture.records.map(\.tag))
        let firstCatalog = EventTag.allCases.filter { !FixtureEvents.tagsAfterV1.contains($0) }.map(\.rawValue)
        #expect(coveredTags == Set(firstCatalog), "the fixture must hold every event type of the first catalog")
    }

    @Test("G4, P1: the v1 fixture's plain-string names and notes upcast to personal text of the right owner")
    func v1PersonalTextsUpcastToTheirOwners() throws {
        guard let fixture = try Self.decodedFixture("events-v1.bin", recording: []) else { return }
        var owners: [String: PersonID] = [:]
        for event in fixture.events {
            switch event.payload {
            case .householdCreated(let created): owners[created.adminName.description] = created.adminName.owner
            case .memberAdded(let added): owners[added.name.description] = added.name.owner
            case .personAdded(let added): owners[added.name.description] = added.name.owner
            case .transactionRecorded(let recorded): recorded.details.note.map { owners[$0.description] = $0.owner }
            default: break
            }
        }
        #expect(owners["Anna"] == FixtureEvents.anna)
        #expect(owners["Ben"] == FixtureEvents.ben, "a name belongs to the person named")
        #expect(owners["Carla"] == FixtureEvents.carla)
        #expect(owners["Migros 🛒"] == FixtureEvents.anna, "a note belongs to the event's actor")
    }

    @Test("G4: every fixture file after v1 decodes forever to the events it was recorded from")
    func laterFixturesDecodeToExpectedEvents() throws {
        for (file, events) in FixtureEvents.generations {
            guard let fixture = try Self.decodedFixture(file, recording: Self.currentRecords(events)) else { continue }
            #expect(fixture.events == events, "\(file)")
        }
    }

    @Test("G4: every event type's current schema version is held by a fixture file (a new type or version records one)")
    func everyCurrentVersionHasAFixture() throws {
        var recorded: Set<[UInt32]> = []
        for (file, events) in FixtureEvents.generations {
            guard let fixture = try Self.decodedFixture(file, recording: Self.currentRecords(events)) else { continue }
            recorded.formUnion(fixture.records.map { [$0.tag, UInt32($0.schemaVersion)] })
        }
        for tag in EventTag.allCases {
            #expect(recorded.contains([tag.rawValue, UInt32(tag.schemaVersion)]),
                    "\(tag.eventName) v\(tag.schemaVersion) is in no fixture file: add its events to FixtureEvents.generations and record the file")
        }
    }

    @Test("G4: TransactionRecorded v1 bytes (without tags) upcast to the current struct with tags = []")
    func transactionRecordedV1Upcasts() throws {
        let decoded = try EventCodec.decode(
            tag: EventTag.transactionRecorded.rawValue, schemaVersion: 1, payload: Self.legacyTransactionPayload(),
            recordedAt: FixtureEvents.legacyEvent.recordedAt)
        #expect(decoded == FixtureEvents.legacyEvent)
        guard case .transactionRecorded(let recorded) = decoded.payload else {
            Issue.record("wrong payload \(decoded.payload)")
            return
        }
        #expect(recorded.details.tags == [])
        // Re-encoding writes the current version, with the (empty) tags field.
        let reencoded = EventCodec.encode(decoded)
        #expect(reencoded.schemaVersion == EventTag.transactionRecorded.schemaVersion)
        // + 1 byte of tags count, + 1 form byte and 16 bytes of owner for the note (P1), + 1
        // presence byte of `splitWith` (v4, absent), + 1 presence byte of `originalAmount` (v5, absent),
        // + 1 presence byte each of `payee` and `subtitle` (v6, absent).
        #expect(reencoded.payload.count == Self.legacyTransactionPayload().count + 1 + 17 + 1 + 1 + 2)
    }
}
