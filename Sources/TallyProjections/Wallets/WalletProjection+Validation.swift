import TallyModel

/// What the engine's validation reads of the one wallet book (W3-W5, N5): the same records,
/// values and counts the read model shows, so a rule and a screen never disagree.
extension WalletProjection {
    /// Live transactions booked on the wallet (W4: a wallet closes only without any).
    package func liveTransactionCount(of walletID: WalletID) -> Int {
        movementIndex.liveTransactionCounts[walletID] ?? 0
    }

    /// Live transactions and transfers touching the wallet (W4: its kind changes only without any).
    package func liveEntryCount(of walletID: WalletID) -> Int {
        liveTransactionCount(of: walletID) + (movementIndex.liveTransferCounts[walletID] ?? 0)
    }

    /// The balance point that counts on `date` (the later of two on one date, W5), or nil:
    /// what removing, editing or undoing one puts back.
    package func balancePoint(of walletID: WalletID, on date: LocalDate) -> Money? {
        balancePoints[walletID]?.last { $0.date == date }?.balance
    }
}
