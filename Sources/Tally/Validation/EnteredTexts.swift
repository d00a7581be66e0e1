import TallyModel

/// Where the personal texts a command enters come from (P1; issue 32, Docs/Sync.md "Sealed texts
/// in commands"). Every name or note a command enters goes through ``enter(_:by:keeping:)``, the
/// one place that decides its owner (the person named, or the author) and whether an edit keeps
/// the previous text (``PersonalText/entered(_:by:keeping:)``).
///
/// - ``plain``: the command's own strings, as on one device.
/// - ``sealing(_:)``: as `plain`, and each decision is recorded as an ``Entry``: a kept text, or
///   a new one sealed with its owner's key on this device. The entries travel with the command
///   to a server, which holds no personal key.
/// - ``replaying(_:)``: the entries a device recorded, in the order the executor asks for them:
///   the command's own strings are not read (the device did not send them), a kept entry keeps
///   the previous text and a new one enters its sealed bytes unopened. The same executor on the
///   same state asks in the same order, so the server makes the device's decisions and enters
///   the device's bytes; anything else (an entry too many or missing, a kept entry where nothing
///   is kept, a text sealed for another owner) is `sealedTextsMismatch`.
/// - ``opening(_:with:)``: as `replaying`, and each sealed text is opened with the device's
///   keys: a synced device's outbox commands shown on top of its confirmed state (Docs/Sync.md,
///   "The outbox").
///
/// A reference type: the executor is a value copied for scratch validation, and the entries of
/// one command are one sequence whatever copy asks. One instance serves one command.
package final class EnteredTexts {
    /// One entered text as a device decided it.
    package enum Entry: Hashable, Sendable {
        /// The field keeps the text it held (an edit that left it unchanged).
        case kept
        /// A new text of `owner`, sealed with their key (form 1 bytes: nonce, ciphertext, tag).
        case sealed(owner: PersonID, bytes: [UInt8])
    }

    enum Source {
        case plain
        case sealing(any PersonalTextCipher)
        /// Entries in place of the command's strings; sealed ones opened with the cipher when one is given.
        case replaying([Entry], opening: (any PersonalTextCipher)?)
    }

    /// The overhead of a sealed text over its UTF-8 bytes (12-byte nonce, 16-byte tag).
    static let sealingOverheadBytes = 28

    private let source: Source
    /// What ``sealing(_:)`` recorded, in order.
    private(set) var recorded: [Entry] = []
    /// The next entry ``replaying(_:)`` hands out.
    private var replayed = 0

    private init(_ source: Source) { self.source = source }

    /// The command's own strings (one device, no sync).
    static var plain: EnteredTexts { EnteredTexts(.plain) }
    /// The command's own strings, each decision recorded with new texts sealed by `cipher`.
    static func sealing(_ cipher: any PersonalTextCipher) -> EnteredTexts { EnteredTexts(.sealing(cipher)) }
    /// A device's recorded entries in place of the command's strings.
    static func replaying(_ entries: [Entry]) -> EnteredTexts { EnteredTexts(.replaying(entries, opening: nil)) }
    /// A device's recorded entries in place of the command's strings, sealed ones opened with
    /// `cipher` (a text that does not open stays sealed).
    static func opening(_ entries: [Entry], with cipher: any PersonalTextCipher) -> EnteredTexts {
        EnteredTexts(.replaying(entries, opening: cipher))
    }

    /// Whether the command's own strings are its texts; `false` when they are replayed from
    /// sealed entries (the strings are `[sealed]` markers): rules on a text's content (an e-mail
    /// address's form, a phone number's digits) ran on the device and are skipped here.
    var readsCommandStrings: Bool {
        if case .replaying = source { false } else { true }
    }

    /// The text a command enters as `text` into a field of `owner` that held `previous`.
    /// - Throws: ``LedgerError/rejected(_:)`` with `sealedTextsMismatch` when replayed entries
    ///   do not fit the command (a sealed text shorter than a nonce and tag included),
    ///   `inputTooLarge` for a sealed text over the note bound (the largest field's: a field's
    ///   own bound, such as a name's, is checked on the device), and
    ///   ``LedgerError/personalKeys(_:)`` when a device cannot seal for `owner` (forgotten).
    func enter(_ text: String, by owner: PersonID, keeping previous: PersonalText?) throws(LedgerError) -> PersonalText {
        switch source {
        case .plain:
            return PersonalText.entered(text, by: owner, keeping: previous)
        case .sealing(let cipher):
            let entered = PersonalText.entered(text, by: owner, keeping: previous)
            if let previous, entered == previous {
                recorded.append(.kept)
            } else {
                guard let bytes = cipher.seal(text, owner: owner) else {
                    throw .personalKeys("a text of \(owner) cannot be sealed: that person was forgotten (P3), or this device holds texts of theirs that it cannot open (their key is missing here, P2: a new one would split their texts)")
                }
                recorded.append(.sealed(owner: owner, bytes: bytes))
            }
            return entered
        case .replaying(let entries, let cipher):
            guard replayed < entries.count else {
                throw .violation(.sealedTextsMismatch, "the command enters more texts than the \(entries.count) sealed with it")
            }
            let entry = entries[replayed]
            replayed += 1
            switch entry {
            case .kept:
                guard let previous else {
                    throw .violation(.sealedTextsMismatch, "sealed text \(replayed) keeps a text, but the field held none")
                }
                return previous
            case .sealed(let sealedOwner, let bytes):
                guard sealedOwner == owner else {
                    throw .violation(.sealedTextsMismatch, "sealed text \(replayed) is sealed for \(sealedOwner), but the field's text belongs to \(owner)")
                }
                guard bytes.count >= Self.sealingOverheadBytes else {
                    throw .violation(.sealedTextsMismatch, "sealed text \(replayed) has \(bytes.count) bytes, fewer than a sealing's nonce and tag (\(Self.sealingOverheadBytes))")
                }
                guard bytes.count <= LedgerLimits.noteBytesMax + Self.sealingOverheadBytes else {
                    throw .violation(.inputTooLarge, "sealed text \(replayed) has \(bytes.count) bytes, over LedgerLimits.noteBytesMax (\(LedgerLimits.noteBytesMax)) and the sealing's \(Self.sealingOverheadBytes)")
                }
                if let cipher {
                    if cipher.hasForgotten(owner) { return .redacted(owner: owner) }  // P3
                    if let text = cipher.open(bytes[...], owner: owner) { return PersonalText(text, owner: owner) }
                }
                return .sealed(bytes, owner: owner)
            }
        }
    }

    /// Throws `sealedTextsMismatch` when replayed entries were left unused: the device entered
    /// fewer texts than it sealed, so its command is not the one executed here.
    func requireAllReplayed() throws(LedgerError) {
        guard case .replaying(let entries, _) = source, replayed != entries.count else { return }
        throw .violation(.sealedTextsMismatch, "the command enters \(replayed) text(s), but \(entries.count) were sealed with it")
    }
}
