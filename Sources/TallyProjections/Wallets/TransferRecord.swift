import TallyModel

/// A transfer as the wallet projection keeps it (W6): both amounts, and whether it is live.
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

extension TransferRecord: ArchivedState {
    func encode(to writer: inout BinaryWriter) {
        fromWalletID.encode(to: &writer)
        toWalletID.encode(to: &writer)
        amountSent.encode(to: &writer)
        amountReceived.encode(to: &writer)
        date.encode(to: &writer)
        isLive.encode(to: &writer)
        sequenceNumber.encode(to: &writer)
    }

    init(from reader: inout StateReader) throws(ProjectionError) {
        self.init(
            fromWalletID: try reader.read(), toWalletID: try reader.read(), amountSent: try reader.read(),
            amountReceived: try reader.read(), date: try reader.read(), isLive: try reader.read(), sequenceNumber: try reader.read())
    }
}
