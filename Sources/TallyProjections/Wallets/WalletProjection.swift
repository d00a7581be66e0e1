import HashTreeCollections
import TallyModel

/// Wallet balances (W1-W6, T2, T3): a pure fold of events into each wallet's balance, balance
/// as of any date, totals per currency and in the base currency (N3), and reconciliation of
/// balance points (W5).
///
/// The state keeps the facts (wallets, live and deleted transactions, transfers, balance points,
/// exchange rates) and an index of their movements per day (``WalletMovementIndex``); balances
/// are derived from the index when queried, so an edit (T2), a delete or a restore (T3) is a
/// change of one record and "balance as of a date" needs no extra history. Transactions and
/// transfers grow with history: in a ledger with a store they live there.
public struct WalletProjection: Hashable, Sendable {
    /// The household's base currency (H1, H2), once known.
    public internal(set) var baseCurrency: Currency?
    /// The one book of wallets (W1, W4), which the engine's validation reads too.
    package internal(set) var wallets: [WalletID: WalletRecord] = [:]
    /// The read models' one transaction book, lent by ``Projections`` (which alone writes it).
    var transactions = ArchivedMap<TransactionID, TransactionRecord>(space: .transactions)
    /// In the store's history once a checkpoint wrote them (``ArchivedMap``).
    package internal(set) var transfers = ArchivedMap<TransferID, TransferRecord>(space: .walletTransfers)
    var balancePoints: [WalletID: [BalancePoint]] = [:]
    /// Flow designations per wallet (N5): one per `fromMonth`, `nil` first then by month
    /// (``WalletDesignation/timeline(_:adding:)``).
    var designations: [WalletID: [WalletDesignationSet]] = [:]
    var rates = ExchangeRateBook()
    /// Live movements per wallet and day, derived from `transactions` and `transfers`.
    var movementIndex = WalletMovementIndex()
    /// Events this projection could not apply, in journal order (see ``ProjectionProblem``).
    public internal(set) var problems: [ProjectionProblem] = []

    /// An empty read model, before any event (``Projections`` folds it).
    init() {}

    /// Folds one event into the projection, after ``Projections`` applied it to the transaction
    /// book. Never throws or traps: an event that cannot apply is skipped and listed in
    /// ``problems``.
    /// - Parameters:
    ///   - event: the event, in journal order.
    ///   - sequenceNumber: its journal sequence number.
    ///   - before: the transaction the event changes, as it was before the event.
    mutating func apply(_ event: Event, sequenceNumber: UInt64, before: TransactionRecord?) {
        switch event.payload {
        case .householdCreated(let created): baseCurrency = created.baseCurrency
        case .baseCurrencyChanged(let changed): baseCurrency = changed.baseCurrency
        case .walletOpened(let opened): open(opened, sequenceNumber)
        case .walletRenamed(let renamed): update(renamed.walletID, sequenceNumber) { $0.name = renamed.name }
        case .walletKindChanged(let changed): update(changed.walletID, sequenceNumber) { $0.kind = changed.kind }
        case .walletValuationSet(let set): update(set.walletID, sequenceNumber) { $0.valuationSet = set.valuation }
        case .walletConnectionSet(let set): update(set.walletID, sequenceNumber) { $0.connection = set.isEmpty ? nil : set }
        case .walletDeactivated(let event): update(event.walletID, sequenceNumber) { $0.isActive = false }
        case .walletReactivated(let event): update(event.walletID, sequenceNumber) { $0.isActive = true }
        case .walletClosed(let closed): update(closed.walletID, sequenceNumber) { $0.closedOn = closed.closedOn }
        case .walletReopened(let reopened): update(reopened.walletID, sequenceNumber) { $0.closedOn = nil }
        case .balanceRecorded(let point): recordBalance(point, sequenceNumber)
        case .balanceRemoved(let removed): removeBalance(removed, sequenceNumber)
        case .walletDesignationSet(let set):
            guard wallets[set.walletID] != nil else { return problem(sequenceNumber, "N5", "unknown wallet \(set.walletID)") }
            designations[set.walletID] = WalletDesignation.timeline(designations[set.walletID] ?? [], adding: set)
        case .transferRecorded(let transfer): recordTransfer(transfer, sequenceNumber)
        case .transferEdited(let edited): editTransfer(edited, sequenceNumber)
        case .transferDeleted(let deleted):
            guard let transfer = transfers[deleted.transferID] else {
                return problem(sequenceNumber, "W3", "unknown transfer \(deleted.transferID)")
            }
            if transfer.isLive { movementIndex.add(transfer, direction: -1) }
            transfers.update(deleted.transferID) {
                $0.isLive = false
                $0.lastChanged = sequenceNumber
            }
        case .transactionRecorded(let recorded): record(recorded.transactionID, recorded.details, before, sequenceNumber)
        case .templateActivated(let activated): record(activated.transactionID, activated.details, before, sequenceNumber)
        case .transactionEdited(let edited): edit(edited, before, sequenceNumber)
        case .transactionDeleted(let deleted): setLive(deleted.transactionID, before, sequenceNumber)
        case .transactionRestored(let restored): setLive(restored.transactionID, before, sequenceNumber)
        case .exchangeRateSet(let rate): rates.add(rate, sequenceNumber: sequenceNumber)
        default: break
        }
    }

    mutating func problem(_ sequenceNumber: UInt64, _ rule: String, _ message: String) {
        problems.append(ProjectionProblem(sequenceNumber: sequenceNumber, rule: rule, message: message))
    }

    private mutating func open(_ opened: WalletOpened, _ sequenceNumber: UInt64) {
        guard wallets[opened.walletID] == nil else {
            return problem(sequenceNumber, "W1", "wallet \(opened.walletID) is opened twice")
        }
        guard opened.openingBalance.currency == opened.currency else {
            return problem(sequenceNumber, "W1", "opening balance of \(opened.walletID) is not in \(opened.currency)")
        }
        wallets[opened.walletID] = WalletRecord(
            walletID: opened.walletID, name: opened.name, kind: opened.kind, currency: opened.currency,
            openingBalance: opened.openingBalance, openedOn: opened.openedOn, owner: opened.owner,
            isActive: true, closedOn: nil)
    }

    private mutating func update(_ walletID: WalletID, _ sequenceNumber: UInt64, _ change: (inout WalletRecord) -> Void) {
        guard var wallet = wallets[walletID] else { return problem(sequenceNumber, "W4", "unknown wallet \(walletID)") }
        change(&wallet)
        wallets[walletID] = wallet
    }

    private mutating func recordBalance(_ point: BalanceRecorded, _ sequenceNumber: UInt64) {
        guard let wallet = wallets[point.walletID], wallet.currency == point.balance.currency else {
            return problem(sequenceNumber, "W5", "balance point for unknown wallet or wrong currency \(point.walletID)")
        }
        var points = balancePoints[point.walletID, default: []]
        points.append(BalancePoint(date: point.date, balance: point.balance, sequenceNumber: sequenceNumber))
        points.sort { ($0.date, $0.sequenceNumber) < ($1.date, $1.sequenceNumber) }
        balancePoints[point.walletID] = points
    }

    /// W5: every point of the wallet on that date goes (the later of two on one date is the one
    /// that counted; neither counts once removed).
    private mutating func removeBalance(_ removed: BalanceRemoved, _ sequenceNumber: UInt64) {
        guard let points = balancePoints[removed.walletID], points.contains(where: { $0.date == removed.date }) else {
            return problem(sequenceNumber, "W5", "no balance point of wallet \(removed.walletID) on \(removed.date) to remove")
        }
        let kept = points.filter { $0.date != removed.date }
        balancePoints[removed.walletID] = kept.isEmpty ? nil : kept
    }

    private mutating func recordTransfer(_ transfer: TransferRecorded, _ sequenceNumber: UInt64) {
        guard transfers[transfer.transferID] == nil else {
            return problem(sequenceNumber, "W6", "transfer \(transfer.transferID) is recorded twice")
        }
        guard let source = wallets[transfer.fromWalletID], let target = wallets[transfer.toWalletID],
              source.currency == transfer.amountSent.currency, target.currency == transfer.amountReceived.currency,
              transfer.amountSent.isPositive, transfer.amountReceived.isPositive
        else {
            return problem(sequenceNumber, "W6", "transfer \(transfer.transferID) names an unknown wallet, a wrong currency or a non-positive amount")
        }
        let record = TransferRecord(transfer: transfer, isLive: true, sequenceNumber: sequenceNumber, lastChanged: sequenceNumber)
        transfers[transfer.transferID] = record
        movementIndex.add(record, direction: 1)
    }

    /// W6: the transfer's movements move to its new wallets, amounts and date; it keeps its place
    /// in the journal order (the sequence number that recorded it).
    private mutating func editTransfer(_ edited: TransferEdited, _ sequenceNumber: UInt64) {
        guard let old = transfers[edited.transfer.transferID] else {
            return problem(sequenceNumber, "W6", "unknown transfer \(edited.transfer.transferID)")
        }
        guard let source = wallets[edited.transfer.fromWalletID], let target = wallets[edited.transfer.toWalletID],
              source.currency == edited.transfer.amountSent.currency, target.currency == edited.transfer.amountReceived.currency,
              edited.transfer.amountSent.isPositive, edited.transfer.amountReceived.isPositive
        else {
            return problem(sequenceNumber, "W6", "edit of transfer \(edited.transfer.transferID) names an unknown wallet, a wrong currency or a non-positive amount")
        }
        let record = TransferRecord(transfer: edited.transfer, isLive: old.isLive, sequenceNumber: old.sequenceNumber, lastChanged: sequenceNumber)
        if old.isLive { movementIndex.add(old, direction: -1) }
        transfers.update(edited.transfer.transferID) { $0 = record }
        if record.isLive { movementIndex.add(record, direction: 1) }
    }

    /// Why a transaction with `details` cannot count in a wallet, or `nil`.
    func invalidReason(_ details: TransactionDetails) -> String? {
        guard let wallet = wallets[details.walletID] else { return "unknown wallet \(details.walletID)" }
        guard wallet.currency == details.amount.currency else { return "amount not in \(wallet.currency)" }
        guard details.amount.isPositive else { return "amount is not positive" }
        return nil
    }

    private mutating func record(
        _ transactionID: TransactionID, _ details: TransactionDetails, _ before: TransactionRecord?, _ sequenceNumber: UInt64
    ) {
        guard before == nil else {
            return problem(sequenceNumber, "T1", "transaction \(transactionID) is recorded twice")
        }
        if let reason = invalidReason(details) {
            return problem(sequenceNumber, "T1", "transaction \(transactionID): \(reason)")
        }
        move(before, to: transactions[transactionID])
    }

    private mutating func edit(_ edited: TransactionEdited, _ before: TransactionRecord?, _ sequenceNumber: UInt64) {
        guard before != nil else {
            return problem(sequenceNumber, "T2", "unknown transaction \(edited.transactionID)")
        }
        if let reason = invalidReason(edited.details) {
            return problem(sequenceNumber, "T2", "edit of \(edited.transactionID): \(reason)")
        }
        move(before, to: transactions[edited.transactionID])
    }

    private mutating func setLive(_ transactionID: TransactionID, _ before: TransactionRecord?, _ sequenceNumber: UInt64) {
        guard before != nil else {
            return problem(sequenceNumber, "T3", "unknown transaction \(transactionID)")
        }
        move(before, to: transactions[transactionID])
    }

    /// Replaces what a transaction's record `before` moved (nothing unless live) with what
    /// `after` moves: the book's record before and after the event (T2, T3).
    private mutating func move(_ before: TransactionRecord?, to after: TransactionRecord?) {
        guard before != after else { return }
        if let before, before.isLive { movementIndex.add(before.details, direction: -1) }
        if let after, after.isLive { movementIndex.add(after.details, direction: 1) }
    }
}
