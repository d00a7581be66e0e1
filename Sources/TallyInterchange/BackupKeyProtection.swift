import Crypto
import _CryptoExtras
import Foundation
import TallyJournal
import TallyModel

/// How a backup holds the personal keys that open its names and notes (P2, Docs/Security.md):
/// never in clear (format version 4).
///
/// - ``passphrase(_:cost:)``: sealed (AES-256-GCM) under a key derived from a passphrase the
///   user chooses, with scrypt (memory-hard; `_CryptoExtras`'s `KDF.Scrypt`, BoringSSL).
/// - ``key(_:)``: sealed under a 32-byte key the user supplies (a key file kept apart from the
///   backup).
/// - ``withoutKeys``: the backup holds no keys and says so (`personalKeyProtection: "none"`);
///   it restores readable only over the ledger that still has the keys
///   (``LedgerBackup/RestoreOptions/replacingExisting``).
public enum BackupKeyProtection: Sendable, Equatable {
    case passphrase(String, cost: ScryptCost = .standard)
    case key([UInt8])
    case withoutKeys

    /// The manifest's name for it (`personalKeyProtection`).
    var manifestName: String {
        switch self {
        case .passphrase: LedgerBackup.KeyProtectionName.passphrase
        case .key: LedgerBackup.KeyProtectionName.key
        case .withoutKeys: LedgerBackup.KeyProtectionName.none
        }
    }
}

/// What opens the sealed keys of a version 4 backup.
public enum BackupKeyUnlock: Sendable, Equatable {
    case passphrase(String)
    case key([UInt8])
}

/// scrypt's cost parameters: N = 2^logN, r, p. The memory used is 128 · N · r bytes.
public struct ScryptCost: Codable, Sendable, Equatable {
    public var logN: Int
    public var blockSize: Int
    public var parallelism: Int

    public init(logN: Int, blockSize: Int, parallelism: Int) {
        self.logN = logN
        self.blockSize = blockSize
        self.parallelism = parallelism
    }

    /// N = 2^17, r = 8, p = 1 (128 MiB, about half a second): OWASP's recommendation for scrypt.
    public static let standard = ScryptCost(logN: 17, blockSize: 8, parallelism: 1)

    /// What a reader accepts: a document naming more would make a restore allocate without
    /// bound (a hostile file), less is too weak to protect anything.
    static let logNRange = 10...20
    static let blockSizeRange = 1...16
    static let parallelismRange = 1...4
}

extension LedgerBackup {
    /// The values of ``personalKeyProtection``.
    public enum KeyProtectionName {
        public static let passphrase = "passphrase"
        public static let key = "key"
        public static let none = "none"
    }

    /// The personal keys, sealed (version 4).
    public struct SealedKeys: Codable, Sendable, Equatable {
        /// Always `AES-256-GCM`.
        public var cipher: String
        /// `scrypt` for a passphrase; absent for a user-supplied key.
        public var kdf: String?
        /// scrypt's parameters (passphrase only).
        public var cost: ScryptCost?
        /// scrypt's salt, base64 (16 random bytes; passphrase only).
        public var salt: String?
        /// Nonce (12) ‖ ciphertext ‖ tag (16), base64. The plaintext is the keys as key-sorted
        /// JSON `{"<person id>":"<64 hex digits>"}`; the associated data is
        /// `tally.backup.personalKeys`, a zero byte and the protection's name. The integrity
        /// checksum covers these fields, so a change to them is refused before they are opened.
        public var box: String
    }

    static let sealedKeysCipher = "AES-256-GCM"
    static let sealedKeysKDF = "scrypt"

    /// The associated data of the sealed keys.
    static func keysContext(protection: String) -> [UInt8] {
        Array("tally.backup.personalKeys\u{0}\(protection)".utf8)
    }

    /// Seals `keys` as `protection` says.
    static func seal(keys: [PersonID: [UInt8]], protection: BackupKeyProtection) throws(InterchangeError) -> SealedKeys? {
        let plain = try keysPlaintext(keys)
        let context = keysContext(protection: protection.manifestName)
        switch protection {
        case .withoutKeys:
            return nil
        case .key(let key):
            try requireKeyLength(key)
            guard let box = AESGCMBox.seal(plain, key: key, context: context) else { throw sealingFailed() }
            return SealedKeys(cipher: sealedKeysCipher, kdf: nil, cost: nil, salt: nil, box: Data(box).base64EncodedString())
        case .passphrase(let passphrase, let cost):
            let salt = AESGCMBox.randomKey().prefix(16)
            let key = try derive(passphrase: passphrase, salt: Array(salt), cost: cost)
            guard let box = AESGCMBox.seal(plain, key: key, context: context) else { throw sealingFailed() }
            return SealedKeys(
                cipher: sealedKeysCipher, kdf: sealedKeysKDF, cost: cost, salt: Data(salt).base64EncodedString(),
                box: Data(box).base64EncodedString())
        }
    }

    /// Opens the sealed keys of this (version 4) document.
    ///
    /// - Throws: `backupKeyRequired` (no unlock given), `backupKeyKindMismatch` (a passphrase
    ///   for a key-sealed backup or the reverse), `backupKeyWrong` (the passphrase or key does
    ///   not open them), `backupInvalid` (malformed fields, scrypt cost out of range).
    func openSealedKeys(_ sealed: SealedKeys, unlock: BackupKeyUnlock?) throws(InterchangeError) -> [PersonID: [UInt8]] {
        let protection = personalKeyProtection ?? ""
        guard let unlock else {
            throw InterchangeError(code: "backupKeyRequired", message: protection == KeyProtectionName.passphrase
                ? "this backup's personal keys are sealed with a passphrase; give it (`tally import backup FILE --passphrase-file FILE` or $TALLY_BACKUP_PASSPHRASE)"
                : "this backup's personal keys are sealed with a key file; give it (`tally import backup FILE --backup-key-file FILE`)")
        }
        guard sealed.cipher == Self.sealedKeysCipher, let box = Data(base64Encoded: sealed.box) else {
            throw InterchangeError(code: "backupInvalid", message: "sealedPersonalKeys: expected cipher \(Self.sealedKeysCipher) and a base64 box")
        }
        let key: [UInt8]
        switch (protection, unlock) {
        case (KeyProtectionName.passphrase, .passphrase(let passphrase)):
            guard sealed.kdf == Self.sealedKeysKDF, let cost = sealed.cost, let saltText = sealed.salt,
                  let salt = Data(base64Encoded: saltText), salt.count >= 16 else {
                throw InterchangeError(code: "backupInvalid", message: "sealedPersonalKeys: a passphrase backup needs kdf scrypt, its cost and a salt of 16 bytes or more")
            }
            guard ScryptCost.logNRange.contains(cost.logN), ScryptCost.blockSizeRange.contains(cost.blockSize),
                  ScryptCost.parallelismRange.contains(cost.parallelism) else {
                throw InterchangeError(code: "backupInvalid", message: "sealedPersonalKeys: scrypt cost logN \(cost.logN), r \(cost.blockSize), p \(cost.parallelism) is outside what a restore accepts (logN \(ScryptCost.logNRange), r \(ScryptCost.blockSizeRange), p \(ScryptCost.parallelismRange))")
            }
            key = try Self.derive(passphrase: passphrase, salt: Array(salt), cost: cost)
        case (KeyProtectionName.key, .key(let given)):
            try Self.requireKeyLength(given)
            key = given
        case (KeyProtectionName.passphrase, .key):
            throw InterchangeError(code: "backupKeyKindMismatch", message: "this backup's personal keys are sealed with a passphrase, not a key file; give the passphrase (--passphrase-file FILE or $TALLY_BACKUP_PASSPHRASE)")
        case (KeyProtectionName.key, .passphrase):
            throw InterchangeError(code: "backupKeyKindMismatch", message: "this backup's personal keys are sealed with a key file, not a passphrase; give the key file (--backup-key-file FILE)")
        default:
            throw InterchangeError(code: "backupInvalid", message: "personalKeyProtection \"\(protection)\" is not passphrase, key or none")
        }
        let context = Self.keysContext(protection: protection)
        guard let plain = AESGCMBox.open(Array(box)[...], key: key, context: context) else {
            throw InterchangeError(code: "backupKeyWrong", message: protection == KeyProtectionName.passphrase
                ? "the passphrase does not open this backup's personal keys; give the passphrase the backup was made with"
                : "the key does not open this backup's personal keys; give the key file the backup was made with")
        }
        let decoded: [String: String]
        do { decoded = try JSONDecoder().decode([String: String].self, from: Data(plain)) } catch {
            throw InterchangeError(code: "backupInvalid", message: "sealedPersonalKeys: the opened keys are not a JSON object of hex keys")
        }
        return try Self.parseKeys(decoded)
    }

    /// Person ids and 32-byte keys from their text form.
    static func parseKeys(_ keys: [String: String]) throws(InterchangeError) -> [PersonID: [UInt8]] {
        var parsed: [PersonID: [UInt8]] = [:]
        for (id, hex) in keys.sorted(by: { $0.key < $1.key }) {
            guard let person = try? PersonID(parsing: id), let key = Hex.bytes(hex), key.count == AESGCMBox.keyBytes else {
                throw InterchangeError(code: "backupInvalid", message: "personal key of \(id): expected a person id and 64 hex digits")
            }
            parsed[person] = key
        }
        return parsed
    }

    private static func keysPlaintext(_ keys: [PersonID: [UInt8]]) throws(InterchangeError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = Dictionary(uniqueKeysWithValues: keys.map { ($0.key.description, Hex.string($0.value)) })
        do { return Array(try encoder.encode(text)) } catch { throw InterchangeError(code: "backupUnwritable", message: "\(error)") }
    }

    private static func requireKeyLength(_ key: [UInt8]) throws(InterchangeError) {
        guard key.count == AESGCMBox.keyBytes else {
            throw InterchangeError(code: "backupKeyInvalid", message: "a backup key must be 32 bytes (64 hex digits), got \(key.count) bytes; make one with `openssl rand -hex 32 > backup.key`")
        }
    }

    private static func sealingFailed() -> InterchangeError {
        InterchangeError(code: "backupUnwritable", message: "the personal keys could not be sealed")
    }

    /// scrypt(passphrase, salt) → 32 bytes.
    private static func derive(passphrase: String, salt: [UInt8], cost: ScryptCost) throws(InterchangeError) -> [UInt8] {
        guard !passphrase.isEmpty else {
            throw InterchangeError(code: "backupPassphraseEmpty", message: "the backup passphrase is empty; choose a passphrase (several words are easier to remember than symbols)")
        }
        do {
            let key = try KDF.Scrypt.deriveKey(
                from: Array(passphrase.utf8), salt: salt, outputByteCount: AESGCMBox.keyBytes, rounds: 1 << cost.logN,
                blockSize: cost.blockSize, parallelism: cost.parallelism)
            return key.withUnsafeBytes { Array($0) }
        } catch {
            throw InterchangeError(code: "backupKeyDerivationFailed", message: "scrypt (logN \(cost.logN), r \(cost.blockSize), p \(cost.parallelism)) failed: \(error); the machine may be short of memory")
        }
    }
}
