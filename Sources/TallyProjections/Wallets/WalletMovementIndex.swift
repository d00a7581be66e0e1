import HashTreeCollections
import TallyModel

/// The live movements of every wallet summed per business day, kept as events apply: an index
/// derived from the projection's transactions and transfers (rebuilt from them after a
/// checkpoint), so that a balance, a total or a net-worth point costs O(wallets x days with
/// movements), not O(every transaction ever recorded).
///
/// Sums are raw (income and money received positive, expenses and money sent negative); the
/// wallet's current kind gives the sign when a balance is read (W1), so a kind change needs no
/// rewrite. Days whose sum is zero are removed, so the index built live equals the one rebuilt.
struct WalletMovementIndex: Hashable, Sendable {
    private(set) var dailySums: [WalletID: TreeDictionary<LocalDate, Int128>] = [:]
    private(set) var liveTransactionCounts: [WalletID: Int] = [:]

    /// Adds (`direction` +1) or removes (-1) a live transaction's movement.
    mutating func add(_ details: TransactionDetails, direction: Int) {
        let raw = Int128(details.amount.minorUnits) * (details.kind == .income ? 1 : -1)
        add(raw * Int128(direction), to: details.walletID, on: details.date)
        let count = liveTransactionCounts[details.walletID, default: 0] + direction
        liveTransactionCounts[details.walletID] = count == 0 ? nil : count
    }

    /// Adds (`direction` +1) or removes (-1) a live transfer's two movements.
    mutating func add(_ transfer: TransferRecord, direction: Int) {
        add(-Int128(transfer.amountSent.minorUnits) * Int128(direction), to: transfer.fromWalletID, on: transfer.date)
        add(Int128(transfer.amountReceived.minorUnits) * Int128(direction), to: transfer.toWalletID, on: transfer.date)
    }

    private mutating func add(_ raw: Int128, to walletID: WalletID, on date: LocalDate) {
        let sum = dailySums[walletID, default: [:]][date, default: 0] + raw
        dailySums[walletID, default: [:]][date] = sum == 0 ? nil : sum
        if dailySums[walletID]?.isEmpty == true { dailySums[walletID] = nil }
    }

    /// The index of `transactions` and `transfers`, built from scratch.
    init(transactions: some Sequence<TransactionRecord>, transfers: some Sequence<TransferRecord>) {
        for record in transactions where record.isLive { add(record.details, direction: 1) }
        for transfer in transfers where transfer.isLive { add(transfer, direction: 1) }
    }

    init() {}
}
