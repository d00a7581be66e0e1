/// A ``PersonalText`` is a form byte, the owner, then the form's content:
/// `0` readable (string), `1` sealed (length-prefixed nonce, ciphertext and tag), `2` redacted
/// (nothing). The engine writes texts it can seal as form 1 and texts already redacted (or of a
/// forgotten owner) as form 2; checkpoints, written without a cipher, hold forms 0 and 2, and
/// form 1 for a text read sealed. A form 1 that does not open here (no key for a living owner)
/// reads as ``PersonalText/isSealed`` and is written back byte for byte, so a reader without the
/// keys (a sync server) re-encodes a record to the same bytes.
extension PersonalText: WireValue {
    package static var wireBytesMin: Int { 17 }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        let start = reader.offset
        if reader.readsPlainPersonalText {
            guard let actor = reader.eventActor else {
                throw .invalidValue(field: "PersonalText", reason: "a plain-string layout read outside an event", offset: start)
            }
            let text = try reader.readString()
            self = reader.personalTextCipher?.hasForgotten(actor) == true ? .redacted(owner: actor) : PersonalText(text, owner: actor)
            return
        }
        let form = try reader.readByte()
        let owner: PersonID = try reader.read()
        switch form {
        case 0:
            let text = try reader.readString()
            self = reader.personalTextCipher?.hasForgotten(owner) == true ? .redacted(owner: owner) : PersonalText(text, owner: owner)
        case 1:
            let sealed = try reader.readLengthPrefixed()
            if let text = reader.personalTextCipher?.open(sealed, owner: owner) {
                self.init(text, owner: owner)
            } else if reader.personalTextCipher?.hasForgotten(owner) == true {
                self = .redacted(owner: owner)
            } else {
                self = .sealed(Array(sealed), owner: owner)
            }
        case 2:
            self = .redacted(owner: owner)
        default:
            throw .invalidValue(field: "PersonalText", reason: "unknown form \(form)", offset: start)
        }
    }

    package func write(to writer: inout BinaryWriter) {
        if let sealedBytes, writer.personalTextCipher?.hasForgotten(owner) != true {
            writer.writeByte(1)
            writer.write(owner)
            writer.writeLengthPrefixed(sealedBytes)
            return
        }
        guard let text else {
            writer.writeByte(2)
            writer.write(owner)
            return
        }
        guard let cipher = writer.personalTextCipher else {
            writer.writeByte(0)
            writer.write(owner)
            writer.writeString(text)
            return
        }
        if let sealed = cipher.seal(text, owner: owner) {
            writer.writeByte(1)
            writer.write(owner)
            writer.writeLengthPrefixed(sealed)
        } else {
            writer.writeByte(2)
            writer.write(owner)
        }
    }
}
