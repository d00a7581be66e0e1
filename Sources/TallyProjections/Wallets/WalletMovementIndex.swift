import HashTreeCollections
import TallyModel

/// The live movements of every wallet summed per business day, kept as events apply: an index
/// derived from the projection's transactions and transfers (written in checkpoints beside
/// them), so that a balance, a total or a net-worth point costs O(wallets x days with
/// movements), not O(every transaction ever recorded).
///
/// Sums are raw (income and money received positive, expenses and money sent negative); the
/// wallet's current kind gives the sign when a balance is read (W1), so a kind change needs no
/// rewrite. Days whose sum is zero are removed, so the index is the same whatever order built it.
struct WalletMovementIndex: Hashable, Sendable {
    private(set) var dailySums: [WalletID: TreeDictionary<LocalDate, Int128>] = [:]
    private(set) var liveTransactionCounts: [WalletID: Int] = [:]
    /// How many live transfers touch each wallet (W4: a wallet's kind changes only without
    /// any live transaction or transfer).
    private(set) var liveTransferCounts: [WalletID: Int] = [:]
    /// How many live transactions and transfers each business day has (the months a net-worth
    /// series spans, N2).
    private(set) var liveDays: TreeDictionary<LocalDate, Int> = [:]
    /// The sum of every day of each wallet (derived from `dailySums`, not written): a wallet's
    /// value after everything in O(1).
    private(set) var totals: [WalletID: Int128] = [:]

    /// Adds (`direction` +1) or removes (-1) a live transaction's movement.
    mutating func add(_ details: TransactionDetails, direction: Int) {
        let raw = Int128(details.amount.minorUnits) * (details.kind == .income ? 1 : -1)
        add(raw * Int128(direction), to: details.walletID, on: details.date)
        let count = liveTransactionCounts[details.walletID, default: 0] + direction
        liveTransactionCounts[details.walletID] = count == 0 ? nil : count
        countDay(details.date, direction)
    }

    /// Adds (`direction` +1) or removes (-1) a live transfer's two movements.
    mutating func add(_ transfer: TransferRecord, direction: Int) {
        add(-Int128(transfer.amountSent.minorUnits) * Int128(direction), to: transfer.fromWalletID, on: transfer.date)
        add(Int128(transfer.amountReceived.minorUnits) * Int128(direction), to: transfer.toWalletID, on: transfer.date)
        for walletID in [transfer.fromWalletID, transfer.toWalletID] {
            let count = liveTransferCounts[walletID, default: 0] + direction
            liveTransferCounts[walletID] = count == 0 ? nil : count
        }
        countDay(transfer.date, direction)
    }

    private mutating func add(_ raw: Int128, to walletID: WalletID, on date: LocalDate) {
        let total = totals[walletID, default: 0] + raw
        totals[walletID] = total == 0 ? nil : total
        let sum = dailySums[walletID, default: [:]][date, default: 0] + raw
        dailySums[walletID, default: [:]][date] = sum == 0 ? nil : sum
        if dailySums[walletID]?.isEmpty == true { dailySums[walletID] = nil }
    }

    private mutating func countDay(_ date: LocalDate, _ direction: Int) {
        let count = liveDays[date, default: 0] + direction
        liveDays[date] = count == 0 ? nil : count
    }
}

extension WalletMovementIndex: StateCodable {
    func encode(to writer: inout BinaryWriter) {
        writer.write(dailySums)
        writer.write(liveTransactionCounts)
        writer.write(liveTransferCounts)
        writer.write(liveDays)
    }

    init(from reader: inout StateReader) throws(ProjectionError) {
        dailySums = try reader.read()
        liveTransactionCounts = try reader.read()
        liveTransferCounts = try reader.read()
        liveDays = try reader.read()
        for (walletID, days) in dailySums {
            // Checked: damaged bytes can decode to sums no history adds up to.
            var total = Int128(0)
            for sum in days.values {
                let (added, overflow) = total.addingReportingOverflow(sum)
                guard !overflow else { throw .invalidCheckpoint(reason: "the daily sums of wallet \(walletID) overflow") }
                total = added
            }
            if total != 0 { totals[walletID] = total }
        }
    }
}
