import Foundation
import Testing
import TallyModel
import TallyTestSupport

/// The event catalog (`Sources/Tally/Tally.docc/Events.md`) describes every event's fields; the one description of those fields is the
/// event struct itself (its stored properties, which `@WireFields` encodes in declaration
/// order). These tests keep the document to that description instead of a second hand-kept list.
@Suite("Event catalog document")
struct EventCatalogDocTests {
    /// `#### \`Name\` - tag N, version V` and the table's field column, per event.
    struct DocumentedEvent: Equatable {
        var tag: UInt32
        var version: UInt16
        var fields: [String]
    }

    static func documentedEvents() throws -> [String: DocumentedEvent] {
        let url = RepositoryFiles.url("Sources/Tally/Tally.docc/Events.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        var events: [String: DocumentedEvent] = [:]
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#### `") {
                let parts = line.dropFirst(6).split(separator: "`", maxSplits: 1)
                let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { UInt32($0) }
                guard parts.count == 2, numbers.count >= 2, let version = UInt16(exactly: numbers[1]) else { current = nil; continue }
                current = String(parts[0])
                events[String(parts[0])] = DocumentedEvent(tag: numbers[0], version: version, fields: [])
            } else if line.hasPrefix("#") {
                current = nil
            } else if let name = current, line.hasPrefix("| "), !line.hasPrefix("| #") {
                let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                if cells.count >= 2, Int(cells[0]) != nil {
                    events[name]?.fields.append(cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`")))
                }
            }
        }
        return events
    }

    /// The struct inside a payload case and its stored properties in declaration order.
    static func structure(of payload: EventPayload) -> (name: String, fields: [String])? {
        guard let value = Mirror(reflecting: payload).children.first?.value else { return nil }
        let fields = Mirror(reflecting: value).children.compactMap(\.label)
        return (String(describing: type(of: value)), fields)
    }

    @Test("the event catalog lists every event type with its tag, current version and fields in wire order")
    func everyEventIsDocumentedAsDeclared() throws {
        let documented = try Self.documentedEvents()
        let payloads = FixtureEvents.everyEventType.map(\.payload)
        #expect(Set(payloads.map(\.tag)) == Set(EventTag.allCases), "the fixtures hold one event of every type")
        for payload in payloads {
            guard let (name, fields) = Self.structure(of: payload) else {
                Issue.record("no payload struct in \(payload.tag)")
                continue
            }
            guard let entry = documented[name] else {
                Issue.record("the event catalog has no section for \(name)")
                continue
            }
            #expect(entry.tag == payload.tag.rawValue, "\(name): documented tag")
            #expect(entry.version == payload.tag.schemaVersion, "\(name): documented version")
            #expect(entry.fields == fields, "\(name): the catalog's table must list the struct's stored properties in declaration order (the wire order)")
        }
    }

    @Test("the catalog's tag table lists every event type once, by its tag and name")
    func tagTableListsEveryTag() throws {
        let url = RepositoryFiles.url("Sources/Tally/Tally.docc/Events.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        guard let start = text.range(of: "## Tag table") else {
            Issue.record("the event catalog has no tag table")
            return
        }
        var listed: [UInt32: String] = [:]
        for line in text[start.upperBound...].split(separator: "\n").prefix(while: { !$0.hasPrefix("## ") }) {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2, let tag = UInt32(cells[0]) else { continue }
            #expect(listed[tag] == nil, "tag \(tag) is listed twice")
            listed[tag] = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
        }
        let expected = Dictionary(uniqueKeysWithValues: EventTag.allCases.map { ($0.rawValue, $0.eventName) })
        #expect(listed == expected)
    }
}
