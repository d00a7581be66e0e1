import ArgumentParser
import Foundation
import TallyJournal

/// The encryption key of an encrypted journal: from `--key-file FILE` or `$TALLY_KEY`, never
/// as an argument value (argv is visible to other users). Both hold hex (`KEYHEX` or
/// `KEYID:KEYHEX`, key id 1 by default; 32, 48 or 64 hex digits for AES-128/192/256).
struct KeyOptions: ParsableArguments {
    @Option(name: .customLong("key-file"), help: ArgumentHelp("A file holding the journal key as hex ([KEYID:]HEX).", valueName: "FILE"))
    var keyFile: String?

    /// The encryption, or nil when no key was given.
    func encryption() throws -> JournalEncryption? {
        let text: String
        let source: String
        if let keyFile {
            guard let data = FileManager.default.contents(atPath: keyFile) else {
                throw CLIError("\(keyFile): cannot read the key file")
            }
            text = String(decoding: data, as: UTF8.self)
            source = keyFile
        } else if let environment = ProcessInfo.processInfo.environment["TALLY_KEY"], !environment.isEmpty {
            text = environment
            source = "$TALLY_KEY"
        } else {
            return nil
        }
        return try Self.parse(text.trimmingCharacters(in: .whitespacesAndNewlines), source: source)
    }

    static func parse(_ text: String, source: String) throws -> JournalEncryption {
        var keyID: UInt16 = 1
        var hex = Substring(text)
        if let colon = text.firstIndex(of: ":") {
            guard let id = UInt16(text[..<colon]) else { throw CLIError("\(source): the key id before ':' is not a number") }
            keyID = id
            hex = text[text.index(after: colon)...]
        }
        var bytes: [UInt8] = []
        var iterator = hex.makeIterator()
        while let high = iterator.next() {
            guard let low = iterator.next(), let byte = UInt8(String([high, low]), radix: 16) else {
                throw CLIError("\(source): the key is not an even number of hex digits")
            }
            bytes.append(byte)
        }
        do {
            return try JournalEncryption(keyID: keyID, key: bytes)
        } catch {
            throw CLIError("\(source): \(error.description)")
        }
    }
}
