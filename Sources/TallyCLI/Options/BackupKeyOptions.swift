import ArgumentParser
import Foundation
import TallyInterchange

/// What seals (export) or opens (import) the personal keys of a JSON backup (Docs/Security.md,
/// "Backups"), never from an argument value (argv is visible to other users):
///
/// - a passphrase: `--passphrase-file FILE` or `$TALLY_BACKUP_PASSPHRASE` (the file's text
///   without its trailing line break);
/// - a 32-byte key: `--backup-key-file FILE`, 64 hex digits (`openssl rand -hex 32`);
/// - `--without-keys` (export only): the backup holds no keys and says so.
struct BackupKeyOptions: ParsableArguments {
    @Option(name: .customLong("passphrase-file"), help: ArgumentHelp("A file holding the backup passphrase (or $TALLY_BACKUP_PASSPHRASE).", valueName: "FILE"))
    var passphraseFile: String?

    @Option(name: .customLong("backup-key-file"), help: ArgumentHelp("A file holding a 32-byte backup key as 64 hex digits.", valueName: "FILE"))
    var backupKeyFile: String?

    /// The passphrase, from the file or the environment; nil when neither is given.
    private func passphrase() throws -> String? {
        if let passphraseFile {
            guard let data = FileManager.default.contents(atPath: passphraseFile) else {
                throw CLIError("--passphrase-file \(passphraseFile): cannot read the file")
            }
            var text = String(decoding: data, as: UTF8.self)
            while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
            guard !text.isEmpty else { throw CLIError("--passphrase-file \(passphraseFile): the passphrase is empty") }
            return text
        }
        if let value = ProcessInfo.processInfo.environment["TALLY_BACKUP_PASSPHRASE"], !value.isEmpty { return value }
        return nil
    }

    /// The key, from the key file; nil when none is given.
    private func key() throws -> [UInt8]? {
        guard let backupKeyFile else { return nil }
        guard let data = FileManager.default.contents(atPath: backupKeyFile) else {
            throw CLIError("--backup-key-file \(backupKeyFile): cannot read the key file")
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let bytes = try KeyOptions.bytes(hex: Substring(text), source: "--backup-key-file \(backupKeyFile)")
        guard bytes.count == 32 else {
            throw CLIError("--backup-key-file \(backupKeyFile): a backup key is 32 bytes (64 hex digits), this one has \(bytes.count); make one with `openssl rand -hex 32`")
        }
        return bytes
    }

    /// How an export seals the keys; `withoutKeys` when `--without-keys` was given.
    func protection(withoutKeys: Bool) throws -> BackupKeyProtection {
        let passphrase = try passphrase()
        let key = try key()
        switch (passphrase, key, withoutKeys) {
        case (let passphrase?, nil, false): return .passphrase(passphrase)
        case (nil, let key?, false): return .key(key)
        case (nil, nil, true): return .withoutKeys
        case (nil, nil, false):
            throw CLIError("a JSON backup never holds the personal keys in clear: give --passphrase-file FILE (or $TALLY_BACKUP_PASSPHRASE), --backup-key-file FILE, or --without-keys (names and notes then restore only over the ledger that has the keys)")
        default:
            throw CLIError("give one of --passphrase-file ($TALLY_BACKUP_PASSPHRASE), --backup-key-file and --without-keys")
        }
    }

    /// What opens a backup's keys, when given.
    func unlock() throws -> BackupKeyUnlock? {
        let passphrase = try passphrase()
        let key = try key()
        if passphrase != nil && key != nil { throw CLIError("give either --passphrase-file ($TALLY_BACKUP_PASSPHRASE) or --backup-key-file, not both") }
        if let passphrase { return .passphrase(passphrase) }
        return key.map { .key($0) }
    }
}
