/// Why a sync operation failed (Docs/Sync.md): each case says what to do about it.
public enum SyncError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A pushed command could not be read: its body is not a push (`commandInvalid`).
    case commandInvalid(String)
    /// What the server sent, or holds, is not a history that continues this one: records cut
    /// short, sequence numbers that do not follow, a chain value that does not match.
    case historyInvalid(String)
    /// The device's cursor is not on the server's history: the chain value it holds at its last
    /// sequence number is not the server's (its ledger is of another household or history).
    case cursorNotOnHistory(String)
    /// The server refused a pushed command before validating it: `code` says why
    /// (`actorNotDevicePerson`, `commandInvalid`).
    case refused(code: String, message: String)
    /// The server refused the request itself (its HTTP status, 4xx): a token it does not know
    /// (`tokenRefused`), a malformed request. Retrying the same request does not help.
    case requestRefused(status: Int, code: String, message: String)
    /// The other side could not be reached, or failed (HTTP 5xx); retry (a push is idempotent
    /// by command id).
    case transport(String)
    /// Two devices made two text keys for one person (Docs/Sync.md, "Keys between devices"):
    /// texts sealed with one do not open where the other is held. Nothing more is pushed or
    /// pulled until it is resolved (set the device up again from an invitation).
    case personalKeyConflict(String)
    /// The household's secret given to a device is not the one its outbox holds, or a shared
    /// key does not open with it: the device is set up for another household.
    case householdSecretMismatch(String)
    /// An invitation's text is not one ``SyncInvitation/text`` makes.
    case invitationInvalid(String)

    public var description: String {
        switch self {
        case .commandInvalid(let detail): "commandInvalid: \(detail)"
        case .historyInvalid(let detail): "historyInvalid: \(detail)"
        case .cursorNotOnHistory(let detail): "cursorNotOnHistory: \(detail)"
        case .refused(let code, let message): "\(code): \(message)"
        case .requestRefused(let status, let code, let message): "\(code) (HTTP \(status)): \(message)"
        case .transport(let detail): "transport: \(detail)"
        case .personalKeyConflict(let detail): "personalKeyConflict: \(detail)"
        case .householdSecretMismatch(let detail): "householdSecretMismatch: \(detail)"
        case .invitationInvalid(let detail): "invitationInvalid: \(detail)"
        }
    }
}
