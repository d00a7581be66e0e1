/// A ``PersonalText`` is a form byte, the owner, then the form's content:
/// `0` readable (string), `1` sealed (length-prefixed nonce, ciphertext and tag), `2` redacted
/// (nothing). The engine writes texts it can seal as form 1 and texts already redacted (or of a
/// forgotten owner) as form 2; checkpoints, written without a cipher, hold forms 0 and 2.
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
            } else {
                self = .redacted(owner: owner)
            }
        case 2:
            self = .redacted(owner: owner)
        default:
            throw .invalidValue(field: "PersonalText", reason: "unknown form \(form)", offset: start)
        }
    }

    package func write(to writer: inout BinaryWriter) {
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
