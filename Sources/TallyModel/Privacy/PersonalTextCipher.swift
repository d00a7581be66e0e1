/// Seals and opens ``PersonalText`` with per-person keys while events are encoded and decoded.
///
/// Package access: the engine implements it over its key ring (`PersonalKeyRing`) and hands
/// it to ``EventCodec``; the model itself holds no keys and no cryptography.
package protocol PersonalTextCipher: Sendable {
    /// Seals `text` with `owner`'s key (creating the key if the person has none yet).
    /// - Returns: the sealed bytes (nonce, ciphertext, tag), or `nil` if `owner` was forgotten
    ///   and the text must be written redacted.
    func seal(_ text: String, owner: PersonID) -> [UInt8]?

    /// Opens bytes sealed by ``seal(_:owner:)``.
    /// - Returns: the text, or `nil` if `owner`'s key is gone or the bytes do not open with it
    ///   (the field decodes redacted; the cipher records why).
    func open(_ sealed: ArraySlice<UInt8>, owner: PersonID) -> String?

    /// Whether `owner` was forgotten: their texts read as redacted in every form, readable
    /// ones of older layouts and checkpoints included (P3).
    func hasForgotten(_ owner: PersonID) -> Bool
}
