/// A wallet's connection to its bank was set (Tim Step 2.2, 3.1): the institution that holds the
/// account, the account's id there, and whether the link works. The event carries every field
/// after the change: one absent is removed, all absent remove the connection; the undo records
/// the connection it replaced. The institution and account id are personal text of the actor
/// who set them (P1, sealed with their key, redacted once they are forgotten, P3), on a personal
/// wallet and a household one alike (see `Docs/Editing.md`).
///
/// Tag 223, schema version 1 (see ``EventTag/walletConnectionSet`` and `Docs/Events.md`).
@WireFields
public struct WalletConnectionSet: Hashable, Sendable {
    /// The wallet.
    public let walletID: WalletID
    /// The bank or provider that holds the account; `nil`: none.
    public let institution: PersonalText?
    /// The account's id at the institution; `nil`: none.
    public let externalAccountID: PersonalText?
    /// Whether the link works; `nil`: none.
    public let status: WalletConnectionStatus?

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(walletID: WalletID, institution: PersonalText?, externalAccountID: PersonalText?, status: WalletConnectionStatus?) {
        self.walletID = walletID
        self.institution = institution
        self.externalAccountID = externalAccountID
        self.status = status
    }

    /// Whether it sets no field: the wallet has no connection after it.
    public var isEmpty: Bool { institution == nil && externalAccountID == nil && status == nil }

    /// The connection of a wallet that has none: every field absent.
    public static func none(of walletID: WalletID) -> WalletConnectionSet {
        WalletConnectionSet(walletID: walletID, institution: nil, externalAccountID: nil, status: nil)
    }
}

/// The state of a wallet's link to its bank (Tim Step 2.2: the re-authentication flag).
///
/// The raw values are stored in events: never change or reuse one.
public enum WalletConnectionStatus: UInt8, CaseIterable, Hashable, Sendable {
    /// The link works.
    case connected = 0
    /// The bank asks the user to sign in again before it syncs.
    case needsReauthentication = 1
    /// The link was cut.
    case disconnected = 2
}
