import Tally
import TallyProjections
import Testing

/// `CanonicalJSON` is the one JSON value type: the strict parser reads into it, canonical
/// writing and the CLI's ordered result lines write it (Docs/Commands.md, "Strict JSON").
@Suite("CanonicalJSON round trip")
struct CanonicalJSONRoundTripTests {
    @Test("G1: canonical text parsed by the strict parser writes back byte for byte; a number that is not an Int64 stays its literal text")
    func parsedCanonicalTextWritesBackIdentically() throws {
        let text = #"{"a":[1,-2,true,false,null],"b":{"c":"line\nbreak \"quoted\" \u0001"},"big":99999999999999999999,"fraction":1.5}"#
        let value = try StrictJSONParser.parse(Array(text.utf8))
        #expect(value.text == text)
        guard case .object(let members) = value else { Issue.record("not an object: \(value)"); return }
        #expect(members["fraction"] == .number(.init(checkedText: "1.5")) && members["big"] == .number(.init(checkedText: "99999999999999999999")))
        #expect(members["fraction"]?.typeName == "the number 1.5")
    }

    @Test("CLI result lines: text(orderedMembers:) keeps the members' order and writes values canonically")
    func orderedMembersKeepTheirOrder() {
        let line = CanonicalJSON.text(orderedMembers: [
            ("line", .integer(3)), ("status", .string("ok")), ("rule", CanonicalJSON(nil as String?)),
            ("nested", .object(["b": .integer(2), "a": .integer(1)])),
        ])
        #expect(line == #"{"line":3,"status":"ok","rule":null,"nested":{"a":1,"b":2}}"#)
    }
}
