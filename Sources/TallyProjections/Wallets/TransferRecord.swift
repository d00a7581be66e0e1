import TallyModel

/// A transfer as the wallet projection keeps it (W6): both amounts, and whether it is live.
@StateFields
struct TransferRecord: Hashable, Sendable {
    let fromWalletID: WalletID
    let toWalletID: WalletID
    let amountSent: Money
    let amountReceived: Money
    let date: LocalDate
    var isLive: Bool
    /// The sequence number of the event that recorded it: orders a day's movements.
    let sequenceNumber: UInt64
}

extension TransferRecord: ArchivedState {}
