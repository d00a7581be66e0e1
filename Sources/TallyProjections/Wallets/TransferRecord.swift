import TallyModel

/// A transfer (W6), the one record of it in memory: its fields as last recorded or edited (the
/// note included: what an undone edit puts back), whether it is live, and the sequence number
/// that recorded it (orders a day's movements) and the one of its last change. One book of them
/// (``WalletProjection``'s) serves the read models and the engine's validation state alike; the
/// store keeps it as its `transfers` table.
@StateFields
package struct TransferRecord: Hashable, Sendable {
    /// The transfer as last recorded or edited.
    package internal(set) var transfer: TransferRecorded
    /// `false` after `TransferDeleted`.
    package internal(set) var isLive: Bool
    /// The sequence number of the event that recorded it.
    package let sequenceNumber: UInt64
    /// The sequence number of the event that last changed it (recorded, edited, deleted): the
    /// store's `transfers` row carries it, so a state restored from an older checkpoint knows
    /// which rows changed after it (Docs/Engine.md "The books are tables").
    package internal(set) var lastChanged: UInt64

    /// A record with every field given (the store reads one back from its row).
    package init(transfer: TransferRecorded, isLive: Bool, sequenceNumber: UInt64, lastChanged: UInt64) {
        self.transfer = transfer
        self.isLive = isLive
        self.sequenceNumber = sequenceNumber
        self.lastChanged = lastChanged
    }

    /// Whether it is deleted.
    package var isDeleted: Bool { !isLive }
    var fromWalletID: WalletID { transfer.fromWalletID }
    var toWalletID: WalletID { transfer.toWalletID }
    var amountSent: Money { transfer.amountSent }
    var amountReceived: Money { transfer.amountReceived }
    var date: LocalDate { transfer.date }
}

// Package access (the engine's validation state reads the book), so the archive's witnesses are
// spelled out at that access.
extension TransferRecord: ArchiveCodable, StateCodable {
    package func writeArchive(to writer: inout BinaryWriter) { encode(to: &writer) }
    package init(archive reader: inout BinaryReader) throws(EventCodecError) { self = try Self.decodeArchived(from: &reader) }
}
