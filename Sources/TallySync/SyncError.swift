/// Why a sync operation failed (Docs/Sync.md): each case says what to do about it.
public enum SyncError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A pushed command could not be read: its body is not a push (`commandInvalid`).
    case commandInvalid(String)
    /// What the server sent, or holds, is not a history that continues this one: records cut
    /// short, sequence numbers that do not follow, a chain value that does not match.
    case historyInvalid(String)
    /// The server refused a pushed command before validating it: `code` says why
    /// (`actorNotDevicePerson`, `commandInvalid`).
    case refused(code: String, message: String)
    /// The other side could not be reached or answered with a failure; retry (a push is
    /// idempotent by command id).
    case transport(String)

    public var description: String {
        switch self {
        case .commandInvalid(let detail): "commandInvalid: \(detail)"
        case .historyInvalid(let detail): "historyInvalid: \(detail)"
        case .refused(let code, let message): "\(code): \(message)"
        case .transport(let detail): "transport: \(detail)"
        }
    }
}
