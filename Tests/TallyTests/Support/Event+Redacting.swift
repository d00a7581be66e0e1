import Tally
import TallyModel

/// A cipher that "seals" by keeping the text, except for forgotten owners, whose texts it
/// writes redacted: a codec round trip through it redacts exactly what forgetting redacts (P3).
private struct RedactingCipher: PersonalTextCipher {
    let forgotten: Set<PersonID>

    func seal(_ text: String, owner: PersonID) -> [UInt8]? { forgotten.contains(owner) ? nil : Array(text.utf8) }
    func open(_ sealed: ArraySlice<UInt8>, owner: PersonID) -> String? { String(decoding: sealed, as: UTF8.self) }
    func hasForgotten(_ owner: PersonID) -> Bool { forgotten.contains(owner) }
}

extension CommittedEvent {
    /// The event as a replay reads it after `forgotten` were forgotten: their names and notes
    /// redacted, everything else unchanged.
    func redacting(_ forgotten: Set<PersonID>) -> CommittedEvent {
        guard !forgotten.isEmpty else { return self }
        let cipher = RedactingCipher(forgotten: forgotten)
        var writer = BinaryWriter()
        writer.personalTextCipher = cipher
        let tag = EventCodec.encode(event, into: &writer)
        guard let decoded = try? EventCodec.decode(
            tag: tag.rawValue, schemaVersion: tag.schemaVersion, payload: writer.bytes, recordedAt: event.recordedAt,
            personalTexts: cipher)
        else { return self }
        return CommittedEvent(sequenceNumber: sequenceNumber, event: decoded)
    }
}
