import Foundation
import TallySyncWire

/// Every error ``HouseholdHistory`` throws. Each case has a stable ``code`` for programs and a
/// `description` that says what happened and what to do.
public enum HouseholdHistoryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `createHousehold` was given the id of a household that exists.
    case householdExists(UUID)
    /// No household has this id.
    case unknownHousehold(UUID)
    /// No device has this id.
    case unknownDevice(UUID)
    /// The device is not one of the household's, or it was revoked.
    case deviceNotAllowed(device: UUID, household: UUID)
    /// A new frame does not start where the history (or the previous new frame) ends.
    case frameDoesNotContinueHead(household: UUID, expectedFirstSequenceNumber: UInt64, frameFirstSequenceNumber: UInt64)
    /// A new frame ends before it starts, or its chain is empty or too long.
    case malformedFrame(household: UUID, firstSequenceNumber: UInt64, reason: String)
    /// `execute` returned a different number of outcomes than the commands it was given.
    case outcomeCountMismatch(household: UUID, commands: Int, outcomes: Int)
    /// An accepted command's sequence range is not inside the new frames, or overlaps or
    /// precedes the previous accepted command's range.
    case outcomeOutsideFrames(household: UUID, commandID: UUID, firstSequenceNumber: UInt64, lastSequenceNumber: UInt64)
    /// More than a limit of ``HistoryLimits`` allows.
    case limitExceeded(what: String, count: Int, limit: Int)
    /// A sequence number PostgreSQL's `bigint` cannot hold.
    case sequenceNumberOutOfRange(UInt64)
    /// What the database holds breaks a rule the storage keeps (a negative sequence number, an
    /// outcome that does not decode): it was written by something else, or damaged.
    case storedHistoryInvalid(household: UUID, reason: String)
    /// The database's schema is newer than this build knows.
    case schemaTooNew(found: Int, supported: Int)
    /// A PostgreSQL operation failed (connection, server error).
    case database(operation: String, detail: String)
    /// An invitation code that lets no device join: malformed, unknown, used, expired or withdrawn.
    case invitationRefused(reason: String)
    /// A device shared keys under another household secret than the one the household's keys
    /// are sealed under (its secret verifier is not the stored one).
    case householdSecretMismatch(household: UUID)

    /// A stable identifier for programs and logs.
    public var code: String {
        switch self {
        case .householdExists: "householdExists"
        case .unknownHousehold: "unknownHousehold"
        case .unknownDevice: "unknownDevice"
        case .deviceNotAllowed: "deviceNotAllowed"
        case .frameDoesNotContinueHead: "frameDoesNotContinueHead"
        case .malformedFrame: "malformedFrame"
        case .outcomeCountMismatch: "outcomeCountMismatch"
        case .outcomeOutsideFrames: "outcomeOutsideFrames"
        case .limitExceeded: "limitExceeded"
        case .sequenceNumberOutOfRange: "sequenceNumberOutOfRange"
        case .storedHistoryInvalid: "storedHistoryInvalid"
        case .schemaTooNew: "schemaTooNew"
        case .database: "database"
        case .invitationRefused: "invitationRefused"
        case .householdSecretMismatch: SyncRefusalCode.householdSecretMismatch
        }
    }

    public var description: String {
        switch self {
        case .householdExists(let household):
            "household \(household) exists already; create a new household with a new id"
        case .unknownHousehold(let household):
            "no household \(household) on this server; create it first (createHousehold)"
        case .unknownDevice(let device):
            "no device \(device) on this server; register it first (registerDevice)"
        case .deviceNotAllowed(let device, let household):
            "device \(device) may not append to household \(household): it belongs to another household or was revoked"
        case .frameDoesNotContinueHead(let household, let expected, let found):
            "household \(household): a new frame starts at sequence \(found) where \(expected) was expected; "
                + "execute must build frames on the head it was given, each starting where the previous one ends + 1"
        case .malformedFrame(let household, let first, let reason):
            "household \(household): the new frame at sequence \(first) is malformed: \(reason)"
        case .outcomeCountMismatch(let household, let commands, let outcomes):
            "household \(household): execute was given \(commands) commands and returned \(outcomes) outcomes; it must return one per command, in order"
        case .outcomeOutsideFrames(let household, let commandID, let first, let last):
            "household \(household): command \(commandID) is accepted as sequences \(first)...\(last), which the new frames do not hold "
                + "in order after the previous accepted command's"
        case .limitExceeded(let what, let count, let limit):
            "\(what): \(count), more than the limit of \(limit); send less at once or raise HistoryLimits"
        case .sequenceNumberOutOfRange(let sequenceNumber):
            "sequence number \(sequenceNumber) is beyond what PostgreSQL's bigint holds (\(Int64.max))"
        case .storedHistoryInvalid(let household, let reason):
            "household \(household): the database holds an invalid history (\(reason)); restore it from a backup of the database"
        case .schemaTooNew(let found, let supported):
            "the database's tally_schema is version \(found); this build knows up to \(supported): run a newer server"
        case .database(let operation, let detail):
            "PostgreSQL failed to \(operation): \(detail)"
        case .invitationRefused(let reason):
            "the invitation cannot be accepted: \(reason)"
        case .householdSecretMismatch(let household):
            "household \(household) shares its keys under another secret than this device's: set the device up again from an invitation of the household"
        }
    }
}
