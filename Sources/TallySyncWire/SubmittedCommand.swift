import Foundation

/// A command a device pushes: its caller-supplied id (the idempotency key, with the household)
/// and its body, opaque to the storage (the engine's command JSON line, Docs/Commands.md).
public struct SubmittedCommand: Sendable, Hashable {
    /// The command's id, chosen by the device (G5). A second push of the same id in the same
    /// household is answered with the first one's stored outcome.
    public var commandID: UUID
    /// The command as the engine reads it.
    public var body: [UInt8]

    /// Creates a submitted command.
    public init(commandID: UUID, body: [UInt8]) {
        self.commandID = commandID
        self.body = body
    }
}
