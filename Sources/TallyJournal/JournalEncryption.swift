import Crypto

/// Encryption at rest: every frame's stored payload is sealed with AES-GCM under a key the
/// host supplies (from its keychain). New frames use `currentKeyID`; frames written under
/// earlier keys stay readable as long as their key is in `keys` (rotation without rewriting).
///
/// The frame header (sequence numbers, lengths, timestamps, key id, nonce) is authenticated
/// but not encrypted; the CRC and the hash chain cover the ciphertext, so a journal can be
/// verified without the key. See Docs/Security.md for what is and is not protected.
public struct JournalEncryption: Sendable, Hashable {
    /// Key bytes by key id (16, 24 or 32 bytes: AES-128/192/256).
    public private(set) var keys: [UInt16: [UInt8]]
    /// The key id new frames are sealed with.
    public private(set) var currentKeyID: UInt16

    /// Encryption with one key.
    /// - Throws: `JournalError.invalidOptions` for a key that is not 16, 24 or 32 bytes or id 0
    ///   (0 means "not encrypted" in the frame header).
    public init(keyID: UInt16, key: [UInt8]) throws(JournalError) {
        try Self.check(keyID: keyID, key: key)
        keys = [keyID: key]
        currentKeyID = keyID
    }

    /// The same keys plus `key`, which becomes the key for new frames (rotation).
    public func rotated(toKeyID keyID: UInt16, key: [UInt8]) throws(JournalError) -> JournalEncryption {
        try Self.check(keyID: keyID, key: key)
        var copy = self
        copy.keys[keyID] = key
        copy.currentKeyID = keyID
        return copy
    }

    /// The same keys plus `key` for reading older frames; the current key is unchanged.
    public func addingKey(_ key: [UInt8], keyID: UInt16) throws(JournalError) -> JournalEncryption {
        try Self.check(keyID: keyID, key: key)
        var copy = self
        copy.keys[keyID] = key
        return copy
    }

    private static func check(keyID: UInt16, key: [UInt8]) throws(JournalError) {
        guard keyID != 0 else { throw .invalidOptions("encryption key id 0 is reserved for unencrypted frames") }
        guard [16, 24, 32].contains(key.count) else {
            throw .invalidOptions("an AES key has 16, 24 or 32 bytes, got \(key.count)")
        }
    }

    /// AES-GCM authentication tag bytes appended to every sealed payload.
    static let tagBytes = 16

    /// Seals `plaintext` under the current key; returns the nonce and ciphertext ‖ tag.
    func seal(_ plaintext: UnsafeRawBufferPointer, authenticating header: [UInt8], nonce: [UInt8]) -> [UInt8]? {
        guard let key = keys[currentKeyID], let gcmNonce = try? AES.GCM.Nonce(data: nonce),
              let box = try? AES.GCM.seal(plaintext, using: SymmetricKey(data: key), nonce: gcmNonce, authenticating: header)
        else { return nil }
        return Array(box.ciphertext) + Array(box.tag)
    }

    /// Opens a sealed payload, or says why it cannot.
    func open(
        _ sealed: UnsafeRawBufferPointer, keyID: UInt16, nonce: [UInt8], authenticating header: UnsafeRawBufferPointer
    ) -> Result<[UInt8], FrameDecoder.Defect> {
        guard let key = keys[keyID] else { return .failure(.keyMissing(keyID)) }
        guard sealed.count >= Self.tagBytes,
              let gcmNonce = try? AES.GCM.Nonce(data: nonce),
              let box = try? AES.GCM.SealedBox(
                  nonce: gcmNonce, ciphertext: sealed.prefix(sealed.count - Self.tagBytes),
                  tag: sealed.suffix(Self.tagBytes)),
              let plaintext = try? AES.GCM.open(box, using: SymmetricKey(data: key), authenticating: header)
        else { return .failure(.decryptionFailed(keyID)) }
        return .success(Array(plaintext))
    }

    /// Seals a blob that lives beside the journal (a checkpoint) under the current key:
    /// key id (2 bytes, little-endian) ‖ nonce (12) ‖ ciphertext ‖ tag (16); `context` is
    /// authenticated, not stored.
    public func sealBlob(_ plaintext: [UInt8], context: [UInt8]) -> [UInt8]? {
        let nonce = Self.randomNonce()
        let sealed = plaintext.withUnsafeBytes { seal($0, authenticating: context, nonce: nonce) }
        guard let sealed else { return nil }
        return withUnsafeBytes(of: currentKeyID.littleEndian) { Array($0) } + nonce + sealed
    }

    /// Opens a blob made by `sealBlob`.
    /// - Throws: `JournalError.encryptionKeyMissing` / `.wrongEncryptionKey` (at `location`).
    public func openBlob(_ sealed: [UInt8], context: [UInt8], location: JournalLocation) throws(JournalError) -> [UInt8] {
        guard sealed.count >= 2 + 12 + Self.tagBytes else { throw .wrongEncryptionKey(keyID: 0, location: location) }
        let keyID = UInt16(sealed[0]) | UInt16(sealed[1]) << 8
        let nonce = Array(sealed[2..<14])
        let opened = sealed.withUnsafeBytes { all in
            context.withUnsafeBytes { contextBytes in
                open(UnsafeRawBufferPointer(rebasing: all[14...]), keyID: keyID, nonce: nonce, authenticating: contextBytes)
            }
        }
        switch opened {
        case .success(let plaintext): return plaintext
        case .failure(.keyMissing): throw .encryptionKeyMissing(keyID: keyID, location: location)
        case .failure: throw .wrongEncryptionKey(keyID: keyID, location: location)
        }
    }

    /// 12 random bytes for a frame's nonce (96-bit random nonces: safe for far more frames
    /// than one key will ever seal).
    static func randomNonce() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<12).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}
