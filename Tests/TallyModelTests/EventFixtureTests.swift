import Foundation
import Testing
import TallyModel

/// Reads and (on request) records `Tests/Fixtures/events-v1.bin`; see `Tests/Fixtures/README.md`.
@Suite("Event fixtures")
struct EventFixtureTests {
    static let fixtureURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/events-v1.bin")
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

    static func expectedRecords() -> [Record] {
        let current = FixtureEvents.events.map { event in
            let encoded = EventCodec.encode(event)
            return Record(tag: encoded.tag, schemaVersion: encoded.schemaVersion, recordedAt: event.recordedAt, payload: encoded.payload)
        }
        let legacy = Record(tag: EventTag.transactionRecorded.rawValue, schemaVersion: 1,
                            recordedAt: FixtureEvents.legacyEvent.recordedAt, payload: legacyTransactionPayload())
        return current + [legacy]
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

    @Test("G4: the v1 fixture decodes forever to the expected events, one per event type")
    func fixtureDecodesToExpectedEvents() throws {
        if ProcessInfo.processInfo.environment["TALLY_RECORD_FIXTURES"] == "1" {
            try Data(Self.writeContainer(Self.expectedRecords())).write(to: Self.fixtureURL)
        }
        guard let data = FileManager.default.contents(atPath: Self.fixtureURL.path) else {
            Issue.record("missing \(Self.fixtureURL.path); record it once with TALLY_RECORD_FIXTURES=1 swift test")
            return
        }
        let records = try Self.readContainer(Array(data))
        let decoded = try records.map { record in
            try EventCodec.decode(tag: record.tag, schemaVersion: record.schemaVersion, payload: record.payload, recordedAt: record.recordedAt)
        }
        #expect(decoded == FixtureEvents.events + [FixtureEvents.legacyEvent])
        let coveredTags = Set(records.map(\.tag))
        #expect(coveredTags == Set(EventTag.allCases.map(\.rawValue)), "the fixture must hold every event type")
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
        #expect(reencoded.schemaVersion == 2)
        #expect(reencoded.payload.count == Self.legacyTransactionPayload().count + 1)
    }
}
