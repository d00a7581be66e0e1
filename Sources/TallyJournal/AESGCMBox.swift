import Crypto

/// AES-256-GCM on small blobs with a caller-held key: the primitive behind per-person keys of
/// personal texts in the engine (`PersonalKeyRing`), kept here so that the journal target stays
/// the one place that imports swift-crypto (Docs/Architecture.md).
///
/// Sealed layout: nonce (12 random bytes) ‖ ciphertext ‖ tag (16); `context` is authenticated,
/// not stored.
public enum AESGCMBox {
    /// Key bytes (AES-256).
    public static let keyBytes = 32

    /// A new random key.
    public static func randomKey() -> [UInt8] {
        SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
    }

    /// Seals `plaintext` under `key`; `nil` only for a key of the wrong size.
    public static func seal(_ plaintext: [UInt8], key: [UInt8], context: [UInt8]) -> [UInt8]? {
        guard key.count == keyBytes,
              let box = try? AES.GCM.seal(plaintext, using: SymmetricKey(data: key), authenticating: context),
              let combined = box.combined
        else { return nil }
        return Array(combined)
    }

    /// Opens bytes made by ``seal(_:key:context:)``; `nil` when the key or context is wrong or
    /// the bytes were altered.
    public static func open(_ sealed: ArraySlice<UInt8>, key: [UInt8], context: [UInt8]) -> [UInt8]? {
        guard key.count == keyBytes,
              let box = try? AES.GCM.SealedBox(combined: sealed),
              let plaintext = try? AES.GCM.open(box, using: SymmetricKey(data: key), authenticating: context)
        else { return nil }
        return Array(plaintext)
    }
}
