import Testing
@testable import TallyModel

@Suite("PersonalText")
struct PersonalTextTests {
    static let alice = PersonID(UUIDValue(high: 1, low: 1))
    static let bob = PersonID(UUIDValue(high: 1, low: 2))

    @Test("P1: one rule for every edit: a text equal to what the field shows keeps the previous text and its author, a changed one is the editor's; a redacted or sealed text sent back as its marker is kept (never turned into a text of the marker), issue 32")
    func enteredKeepsWhatIsSentBack() {
        let readable = PersonalText("lunch", owner: Self.alice)
        #expect(PersonalText.entered("lunch", by: Self.bob, keeping: readable) == readable)
        #expect(PersonalText.entered("dinner", by: Self.bob, keeping: readable) == PersonalText("dinner", owner: Self.bob))
        #expect(PersonalText.entered("lunch", by: Self.bob, keeping: nil) == PersonalText("lunch", owner: Self.bob))

        let redacted = PersonalText.redacted(owner: Self.alice)
        #expect(PersonalText.entered(PersonalText.redactionMarker, by: Self.bob, keeping: redacted) == redacted)
        #expect(PersonalText.entered("new", by: Self.bob, keeping: redacted) == PersonalText("new", owner: Self.bob))

        let sealed = PersonalText.sealed([9, 8, 7], owner: Self.alice)
        let kept = PersonalText.entered(PersonalText.sealedMarker, by: Self.bob, keeping: sealed)
        #expect(kept == sealed && kept.isSealed && kept.owner == Self.alice)
        #expect(PersonalText.entered(PersonalText.sealedMarker, by: Self.bob, keeping: readable) == PersonalText(PersonalText.sealedMarker, owner: Self.bob),
                "a marker is only a marker where the previous text shows it")
    }

    @Test("P1, P3, issue 32: readable, redacted and sealed are three distinct states; sealed texts compare by their bytes and owner")
    func threeStates() {
        let sealed = PersonalText.sealed([1, 2, 3], owner: Self.alice)
        #expect(sealed.isSealed && !sealed.isRedacted && sealed.text == nil && sealed.description == "[sealed]")
        let redacted = PersonalText.redacted(owner: Self.alice)
        #expect(redacted.isRedacted && !redacted.isSealed && redacted.description == "[redacted]")
        #expect(sealed != redacted)
        #expect(sealed != PersonalText.sealed([1, 2, 4], owner: Self.alice))
        #expect(sealed != PersonalText.sealed([1, 2, 3], owner: Self.bob))
        #expect(sealed == PersonalText.sealed([1, 2, 3], owner: Self.alice))
    }
}
