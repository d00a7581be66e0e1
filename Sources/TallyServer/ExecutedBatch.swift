import Foundation
import TallySyncWire

/// What the engine's `execute` closure returns to ``HouseholdHistory/append(household:device:commands:execute:)``:
/// the frames its accepted commands produced and one outcome per command it was given.
public struct ExecutedBatch: Sendable, Hashable {
    /// The new frames, in order: the first starts at the head's sequence number + 1 and each
    /// next one where the previous one ends + 1. Empty when every command was rejected.
    public var frames: [HistoryFrame]
    /// One outcome per command of ``AppendBatch/commands``, in the same order. An accepted
    /// command's range lies inside the new frames and after the previous accepted command's.
    public var outcomes: [CommandOutcome]
    /// People the accepted commands forgot (P3): the server deletes their keys (keeping a
    /// tombstone, so no device stores one again), revokes their devices and withdraws their
    /// unused invitation codes, in the append's transaction.
    public var forgottenPeople: [UUID]
    /// Members the accepted commands removed: their devices are revoked and their unused
    /// invitation codes withdrawn.
    public var removedMembers: [UUID]
    /// Household invitations the accepted commands cancelled: their unused device codes are
    /// withdrawn.
    public var cancelledInvitations: [UUID]
    /// Household invitations the accepted commands accepted: the devices that joined with
    /// their codes are members' devices from now on (no longer stopped at the expiry).
    public var acceptedInvitations: [UUID] = []

    /// Creates an executed batch.
    public init(
        frames: [HistoryFrame], outcomes: [CommandOutcome],
        forgottenPeople: [UUID] = [], removedMembers: [UUID] = [], cancelledInvitations: [UUID] = []
    ) {
        self.frames = frames
        self.outcomes = outcomes
        self.forgottenPeople = forgottenPeople
        self.removedMembers = removedMembers
        self.cancelledInvitations = cancelledInvitations
    }
}
