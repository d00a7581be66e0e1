import Testing
import TallyModel

@Suite("Identifiers")
struct IdentifierTests {
    @Test("G5: UUIDs parse and format the canonical lowercase 8-4-4-4-12 form")
    func uuidText() throws {
        let text = "0f8e2a4c-1b3d-4e5f-8a6b-7c8d9e0f1a2b"
        let value = try UUIDValue(parsing: text)
        #expect(value.description == text)
        #expect(try UUIDValue(parsing: text.uppercased()) == value)
        #expect(UUIDValue(bytes: value.bytes) == value)
        for bad in ["", "0f8e2a4c1b3d4e5f8a6b7c8d9e0f1a2b", "0f8e2a4c-1b3d-4e5f-8a6b-7c8d9e0f1a2", "0f8e2a4c-1b3d-4e5f-8a6b-7c8d9e0f1a2g",
                    "0f8e2a4c-1b3d-4e5f-8a6b+7c8d9e0f1a2b", "0f8e2a4c-1b3d-4e5f-8a6b-7c8d9e0f1a2bb"] {
            #expect(throws: ModelError.invalidIdentifier(bad)) { try UUIDValue(parsing: bad) }
        }
    }

    @Test("G5: ids compare by bytes, most significant first")
    func ordering() {
        let low = PersonID(UUIDValue(high: 1, low: .max))
        let high = PersonID(UUIDValue(high: 2, low: 0))
        #expect(low < high)
        #expect(UUIDValue(high: 0, low: 1) < UUIDValue(high: 0, low: 2))
    }

    @Test("G5, P3: ids sort in the order of their canonical text (the key file and checkpoints list people sorted by `<`, as they were by text)")
    func orderingIsTextOrder() {
        var generator = DeterministicIDGenerator(seed: 7)
        var ids: [PersonID] = (0..<500).map { _ in generator.next() }
        // Ids that differ only in late bytes, or in a digit against a letter of the same nibble.
        ids += [PersonID(UUIDValue(high: 0x9, low: 0)), PersonID(UUIDValue(high: 0xa, low: 0)), PersonID(UUIDValue(high: 0, low: 0x9f)), PersonID(UUIDValue(high: 0, low: 0xa0))]
        #expect(ids.sorted() == ids.sorted { $0.description < $1.description })
        #expect(Set(ids).count == ids.count, "the control: every id differs")
    }

    @Test("G5: the deterministic generator repeats per seed and differs between seeds")
    func deterministicGenerator() {
        var first = DeterministicIDGenerator(seed: 42)
        var second = DeterministicIDGenerator(seed: 42)
        var other = DeterministicIDGenerator(seed: 43)
        let a: [WalletID] = (0..<5).map { _ in first.next() }
        let b: [WalletID] = (0..<5).map { _ in second.next() }
        let c: [WalletID] = (0..<5).map { _ in other.next() }
        #expect(a == b)
        #expect(a != c)
        #expect(Set(a).count == 5)
        #expect(a[0].description.dropFirst(14).first == "4")
    }

    @Test("C2: preset category ids derive stably from the household id; names are unique")
    func presetIDs() throws {
        let household = try HouseholdID(parsing: "00000000-0000-4000-8000-000000000001")
        let events = CategoryPresets.creationEvents(in: household)
        #expect(events.count == 14)
        #expect(Set(events.map(\.categoryID)).count == 14)
        #expect(Set(events.map { $0.name.lowercased() }).count == 14)
        #expect(events.allSatisfy { $0.isPreset })
        #expect(CategoryPresets.creationEvents(in: household) == events)
        // Pinned: the derivation is part of the stored format and must never change.
        #expect(events[0].categoryID.description == CategoryPresets.expense[0].categoryID(in: household).description)
        let derived = UUIDValue.derived(namespace: household.value, name: "preset.expense.groceries")
        #expect(derived.description.dropFirst(14).first == "8")
        #expect(derived.description == "8c4abd99-cfa1-88de-b6f6-2a30cfc0cc59")
    }
}
