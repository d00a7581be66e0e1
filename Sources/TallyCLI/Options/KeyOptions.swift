import ArgumentParser
import Foundation
import TallyJournal

/// The keys of a ledger, read from a file or an environment variable, never from an argument
/// value (argv is visible to other users):
///
/// - the encryption key of an encrypted journal: `--key-file FILE` or `$TALLY_KEY`, as hex
///   (`KEYHEX` or `KEYID:KEYHEX`, key id 1 by default; 32, 48 or 64 hex digits for
///   AES-128/192/256);
/// - the HMAC key of a keyed hash chain (`LedgerOptions.chainKey`): `--chain-key-file FILE` or
///   `$TALLY_CHAIN_KEY`, as hex (any non-zero number of bytes). Without it a keyed-chain
///   ledger cannot be opened for writing and its audit reports `chainMismatch`.
///
/// A malformed key is a `CLIError` (exit 2) naming where it came from.
struct KeyOptions: ParsableArguments {
    @Option(name: .customLong("key-file"), help: ArgumentHelp("A file holding the journal key as hex ([KEYID:]HEX).", valueName: "FILE"))
    var keyFile: String?

    @Option(name: .customLong("chain-key-file"), help: ArgumentHelp("A file holding the HMAC key of a keyed hash chain as hex.", valueName: "FILE"))
    var chainKeyFile: String?

    /// The encryption, or nil when no key was given.
    func encryption() throws -> JournalEncryption? {
        guard let (text, source) = try Self.text(file: keyFile, option: "--key-file", environment: "TALLY_KEY") else { return nil }
        return try Self.parse(text, source: source)
    }

    /// The chain key, or nil when none was given.
    func chainKey() throws -> [UInt8]? {
        guard let (text, source) = try Self.text(file: chainKeyFile, option: "--chain-key-file", environment: "TALLY_CHAIN_KEY") else {
            return nil
        }
        let bytes = try Self.bytes(hex: Substring(text), source: source)
        guard !bytes.isEmpty else { throw CLIError("\(source): the chain key is empty") }
        return bytes
    }

    /// The trimmed key text and a description of its source, from the file or else the
    /// environment variable; nil when neither is set.
    private static func text(file: String?, option: String, environment name: String) throws -> (String, String)? {
        if let file {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CLIError("\(option) \(file): cannot read the key file")
            }
            return (String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines), "\(option) \(file)")
        }
        if let value = ProcessInfo.processInfo.environment[name], !value.isEmpty {
            return (value.trimmingCharacters(in: .whitespacesAndNewlines), "$\(name)")
        }
        return nil
    }

    static func parse(_ text: String, source: String) throws -> JournalEncryption {
        var keyID: UInt16 = 1
        var hex = Substring(text)
        if let colon = text.firstIndex(of: ":") {
            guard let id = UInt16(text[..<colon]), id > 0 else {
                throw CLIError("\(source): the key id before ':' must be a number 1...65535, got \"\(text[..<colon])\"")
            }
            keyID = id
            hex = text[text.index(after: colon)...]
        }
        let bytes = try bytes(hex: hex, source: source)
        do {
            return try JournalEncryption(keyID: keyID, key: bytes)
        } catch {
            throw CLIError("\(source): \(error.description)")
        }
    }

    /// The bytes of `hex`: an even number of hex digits.
    static func bytes(hex: Substring, source: String) throws -> [UInt8] {
        guard hex.allSatisfy(\.isHexDigit) else {
            throw CLIError("\(source): the key holds a character that is not a hex digit (0-9, a-f)")
        }
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else {
            throw CLIError("\(source): the key has \(digits.count) hex digits; it needs an even number (two per byte)")
        }
        guard let bytes = Hex.bytes(hex) else {
            throw CLIError("\(source): the key is not hex")
        }
        return bytes
    }
}
