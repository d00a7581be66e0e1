import TallyModel
import TallyProjections

extension CommandExecutor {
    func validateWallet(_ command: Command) throws(LedgerError) -> [EventPayload] {
        switch command.action {
        case .openWallet(let id, let name, let kind, let opening, let openedOn, let owner, let valuation):
            guard state.wallets[id] == nil else { throw .violation(.duplicateID, "wallet id \(id) is already used") }
            try requireName(name, of: "wallet")
            try requireUniqueWalletName(name, except: nil)
            try requireWithinLimit(opening, "opening balance")
            if let owner { try requireActiveMember(owner, role: "the wallet owner") }
            // A valuation given is the wallet's own choice (W5): recorded even when it is the
            // kind's default, so a later kind change keeps it.
            return [.walletOpened(WalletOpened(
                walletID: id, name: name, kind: kind, currency: opening.currency, openingBalance: opening,
                openedOn: openedOn, owner: owner))]
                + (valuation.map { [.walletValuationSet(WalletValuationSet(walletID: id, valuation: $0))] } ?? [])
        case .renameWallet(let id, let name):
            _ = try existingWallet(id)
            try requireName(name, of: "wallet")
            try requireUniqueWalletName(name, except: id)
            return [.walletRenamed(WalletRenamed(walletID: id, name: name))]
        case .changeWalletKind(let id, let kind):
            let wallet = try existingWallet(id)
            let entries = state.readModels.wallets.liveEntryCount(of: id)
            guard entries == 0 else {
                throw .violation(.walletHasTransactions, "the kind of \(wallet.name) cannot change: it has \(entries) live transactions or transfers")
            }
            return [.walletKindChanged(WalletKindChanged(walletID: id, kind: kind))]
        case .setWalletValuation(let id, let valuation):
            let wallet = try openWallet(id, for: "have its valuation set (W5)")
            guard wallet.valuation != valuation || wallet.valuationSet == nil else {
                throw .violation(.walletStateUnchanged, "\(wallet.name) is \(valuation) already")
            }
            return [.walletValuationSet(WalletValuationSet(walletID: id, valuation: valuation))]
        case .setWalletConnection(let id, let institution, let externalAccountID, let status):
            // G7: another member's own wallet is unknown to the actor.
            guard let wallet = state.wallets[id], Viewer.member(command.actor).sees(walletOwnedBy: wallet.owner) else {
                throw .violation(.unknownWallet, "no wallet you see has id \(id)")
            }
            try requireOpen(wallet, for: "have its bank connection set")
            for (field, text) in [("institution", institution), ("externalAccountID", externalAccountID)] {
                guard let text, text.allSatisfy(\.isWhitespace) else { continue }
                throw .violation(.invalidValue, "\(field) is blank: give it, or leave it out to remove it")
            }
            let set = WalletConnectionSet(
                walletID: id, institution: try entered(institution, by: command.actor),
                externalAccountID: try entered(externalAccountID, by: command.actor), status: status)
            guard set != (wallet.connection ?? .none(of: id)) else {
                throw .violation(.walletStateUnchanged, "\(wallet.name)'s bank connection is that already")
            }
            return [.walletConnectionSet(set)]
        case .deactivateWallet(let id):
            let wallet = try openWallet(id, for: "be deactivated")
            guard wallet.isActive else { throw .violation(.walletStateUnchanged, "\(wallet.name) is inactive already") }
            return [.walletDeactivated(WalletDeactivated(walletID: id))]
        case .reactivateWallet(let id):
            let wallet = try openWallet(id, for: "be reactivated")
            guard !wallet.isActive else { throw .violation(.walletStateUnchanged, "\(wallet.name) is active already") }
            return [.walletReactivated(WalletReactivated(walletID: id))]
        case .closeWallet(let id, let closedOn, let acknowledgeGoals):
            return try closeWallet(id, closedOn: closedOn, acknowledgeGoals: acknowledgeGoals, actor: command.actor)
        case .reopenWallet(let id):
            let wallet = try existingWallet(id)
            // Its name stayed reserved while it was closed (W2 counts every wallet).
            guard wallet.isClosed else { throw .violation(.walletStateUnchanged, "\(wallet.name) is open; only a closed wallet can be reopened") }
            return [.walletReopened(WalletReopened(walletID: id))]
        case .recordBalance(let id, let date, let balance):
            let wallet = try openWallet(id, for: "take a balance point")
            try requireCurrency(balance, of: wallet)
            try requireWithinLimit(balance, "balance")
            return [.balanceRecorded(BalanceRecorded(walletID: id, date: date, balance: balance))]
        case .editBalance(let id, let date, let newDate, let balance):
            let wallet = try balancePointWallet(id, date: date, verb: "edited")
            try requireCurrency(balance, of: wallet)
            try requireWithinLimit(balance, "balance")
            return [.balanceRemoved(BalanceRemoved(walletID: id, date: date)),
                    .balanceRecorded(BalanceRecorded(walletID: id, date: newDate ?? date, balance: balance))]
        case .removeBalance(let id, let date):
            _ = try balancePointWallet(id, date: date, verb: "removed")
            return [.balanceRemoved(BalanceRemoved(walletID: id, date: date))]
        case .setWalletDesignation(let id, let designation, let fromMonth):
            _ = try openWallet(id, for: "have its flows designated (N5)")
            return [.walletDesignationSet(WalletDesignationSet(walletID: id, designation: designation, fromMonth: fromMonth))]
        case .recordTransfer(let id, let from, let to, let sent, let receivedIfOther, let date, let note):
            let received = receivedIfOther ?? sent
            guard state.transfers[id] == nil else { throw .violation(.duplicateID, "transfer id \(id) is already used") }
            try requireValidTransfer(from: from, to: to, sent: sent, received: received)
            return [.transferRecorded(TransferRecorded(
                transferID: id, fromWalletID: from, toWalletID: to, amountSent: sent, amountReceived: received,
                date: date, note: try entered(note, by: command.actor)))]
        case .editTransfer(let id, let from, let to, let sent, let receivedIfOther, let date, let note):
            let received = receivedIfOther ?? sent
            let old = try liveTransfer(id, verb: "edited")
            try requireValidTransfer(from: from, to: to, sent: sent, received: received)
            // P1: a note left as it was keeps its author; a new note is the actor's.
            let text = try entered(note, by: command.actor, keeping: old.note)
            return [.transferEdited(TransferEdited(transfer: TransferRecorded(
                transferID: id, fromWalletID: from, toWalletID: to, amountSent: sent, amountReceived: received,
                date: date, note: text)))]
        case .deleteTransfer(let id):
            _ = try liveTransfer(id, verb: "deleted")
            return [.transferDeleted(TransferDeleted(transferID: id))]
        default:
            return []
        }
    }

    /// W6: two different usable wallets, positive amounts in their currencies, equal when the
    /// currencies are.
    private func requireValidTransfer(from: WalletID, to: WalletID, sent: Money, received: Money) throws(LedgerError) {
        guard from != to else { throw .violation(.transferToSameWallet, "a transfer needs two different wallets") }
        let source = try usableWallet(from)
        let target = try usableWallet(to)
        try requirePositive(sent, "amount sent")
        try requirePositive(received, "amount received")
        try requireCurrency(sent, of: source)
        try requireCurrency(received, of: target)
        guard source.currency != target.currency || sent == received else {
            throw .violation(.transferAmountsDiffer, "both wallets are in \(source.currency); the amount received must equal the amount sent (\(sent.formatted()))")
        }
    }

    /// The live transfer with `id` (W6), none of whose wallets is closed (W4: a closed wallet
    /// keeps the zero balance it closed with).
    private func liveTransfer(_ id: TransferID, verb: String) throws(LedgerError) -> TransferRecorded {
        guard let transfer = state.transfers[id], !transfer.isDeleted else {
            throw .violation(.unknownTransfer, "no live transfer has id \(id)")
        }
        for walletID in [transfer.transfer.fromWalletID, transfer.transfer.toWalletID] {
            if let wallet = state.wallets[walletID] { try requireOpen(wallet, for: "have transfer \(id) \(verb)") }
        }
        return transfer.transfer
    }

    /// The wallet of the balance point on `date` (W5): it must exist, and the wallet must not
    /// be closed (W4: a closed wallet keeps the value it closed with).
    private func balancePointWallet(_ id: WalletID, date: LocalDate, verb: String) throws(LedgerError) -> WalletRecord {
        let wallet = try existingWallet(id)
        guard state.readModels.wallets.balancePoint(of: id, on: date) != nil else {
            throw .violation(.unknownBalancePoint, "\(wallet.name) has no balance point on \(date); record one with recordBalance")
        }
        try requireOpen(wallet, for: "have a balance point \(verb)")
        return wallet
    }

    private func closeWallet(_ id: WalletID, closedOn: LocalDate, acknowledgeGoals: Bool, actor: PersonID) throws(LedgerError) -> [EventPayload] {
        let wallet = try openWallet(id, for: "be closed again")
        // The value the read model shows (W3; for an observed kind its latest point and what
        // moved after it, W5), in Int128: a balance past Int64 is not zero either.
        let value = state.readModels.wallets.value(of: id, asOf: nil) ?? 0
        guard value == 0 else {
            let shown = Int64(exactly: value).map { Money(minorUnits: $0, currency: wallet.currency).formatted() } ?? "\(value) minor units of \(wallet.currency)"
            throw .violation(.walletBalanceNotZero, "\(wallet.name) has a balance of \(shown); move it out before closing")
        }
        let transactions = state.readModels.wallets.liveTransactionCount(of: id)
        guard transactions == 0 else {
            throw .violation(.walletHasTransactions, "\(wallet.name) has \(transactions) live transactions; delete or move them, or deactivate the wallet instead")
        }
        // E6-S2: a goal that counts the wallet would count it as zero from now on; confirm.
        let goals = state.readModels.goals.goalIDs(countingWallet: id)
        guard goals.isEmpty || acknowledgeGoals else {
            // G7: the goals the actor sees by name, the others only counted.
            let definitions = goals.compactMap { state.goals[$0]?.goal }
            let seen = definitions.filter { GoalProjection.isSeen($0, by: .member(actor), wallets: state.readModels.wallets) }
            let names = seen.map { "\"\($0.name)\"" } + (definitions.count > seen.count ? ["\(definitions.count - seen.count) of another member"] : [])
            throw .violation(.walletUsedByGoals, "\(wallet.name) is counted by the goals \(names.joined(separator: ", ")); send acknowledgeGoals: true to close it anyway (they then count it as zero), or take it off the goals first")
        }
        return [.walletClosed(WalletClosed(walletID: id, closedOn: closedOn))]
    }

    /// W2: names are unique among the household's wallets, ignoring case.
    private func requireUniqueWalletName(_ name: String, except id: WalletID?) throws(LedgerError) {
        let lowered = name.lowercased()
        if let (_, other) = state.wallets.first(where: { $0.key != id && $0.value.name.lowercased() == lowered }) {
            throw .violation(.walletNameTaken, "a wallet named \"\(other.name)\" exists already; choose another name")
        }
    }

    /// The wallet with `id`, whatever its state.
    func existingWallet(_ id: WalletID) throws(LedgerError) -> WalletRecord {
        guard let wallet = state.wallets[id] else { throw .violation(.unknownWallet, "no wallet has id \(id)") }
        return wallet
    }

    /// W4, the one closed-wallet rule: a closed wallet is closed for good. It keeps the value
    /// it closed with and takes no change: no transaction, transfer or balance point, no
    /// deactivation, reactivation or designation, and no undo that would change its value.
    /// - Parameter change: what was asked of it, completing "it cannot ...".
    func requireOpen(_ wallet: WalletRecord, for change: @autoclosure () -> String) throws(LedgerError) {
        guard wallet.isClosed else { return }
        throw .violation(.walletInactive, "\(wallet.name) is closed for good (W4): it cannot \(change())")
    }

    /// The wallet with `id` if it is not closed (``requireOpen(_:for:)``).
    func openWallet(_ id: WalletID, for change: @autoclosure () -> String) throws(LedgerError) -> WalletRecord {
        let wallet = try existingWallet(id)
        try requireOpen(wallet, for: change())
        return wallet
    }

    /// The wallet with `id` if it is active and not closed (W4).
    func usableWallet(_ id: WalletID) throws(LedgerError) -> WalletRecord {
        let wallet = try openWallet(id, for: "take new entries; pick another wallet")
        guard wallet.isActive else {
            throw .violation(.walletInactive, "\(wallet.name) is deactivated; reactivate it or pick another wallet")
        }
        return wallet
    }

    /// Throws unless `amount` is in the wallet's currency.
    func requireCurrency(_ amount: Money, of wallet: WalletRecord) throws(LedgerError) {
        guard amount.currency == wallet.currency else {
            throw .violation(.currencyMismatch, "\(wallet.name) holds \(wallet.currency); the amount \(amount.formatted()) is in \(amount.currency)")
        }
    }
}
