import TallyModel

extension HistoryGenerator {
    static let merchants = ["Migros", "Coop", "SBB", "Denner", "Galaxus", "Apotheke", "Swisscom", "Zalando", "Lidl", nil, nil, nil]
    static let tagSets: [[String]] = [[], [], [], [], ["vacation"], ["kids"], ["work", "reimbursable"]]

    /// A personal expense paid from one of the spending wallets by its owner.
    mutating func recordExpense() {
        let walletIndex = random.pick(WalletSlot.spending)
        let wallet = wallets[walletIndex]
        let payer = wallet.owner ?? random.pick([admin, member])
        beginCommand(by: payer)
        let details = TransactionDetails(
            kind: .expense, amount: wallet.money(expenseAmount()), walletID: wallet.id,
            categoryID: random.pick(expenseCategories), date: date, note: note(random.pick(Self.merchants)),
            tags: random.pick(Self.tagSets), payer: payer, split: nil)
        record(details, walletIndex: walletIndex)
    }

    /// An income: salaries come on payday (see `closePeriod`); these are freelance and gifts.
    mutating func recordIncome() {
        let walletIndex = random.pick([WalletSlot.checking, WalletSlot.euro, WalletSlot.cash])
        let wallet = wallets[walletIndex]
        let payer = wallet.owner ?? admin
        beginCommand(by: payer)
        let details = TransactionDetails(
            kind: .income, amount: wallet.money(random.value(in: 5_000...250_000)), walletID: wallet.id,
            categoryID: random.pick(incomeCategories), date: date, note: note(random.chance(percent: 50) ? "Invoice" : nil),
            tags: [], payer: payer, split: nil)
        record(details, walletIndex: walletIndex)
    }

    mutating func recordSalary(of person: PersonID, into walletIndex: Int, amount: Int64) {
        let wallet = wallets[walletIndex]
        beginCommand(by: person)
        record(TransactionDetails(
            kind: .income, amount: wallet.money(amount), walletID: wallet.id, categoryID: salaryCategory,
            date: date, note: note("Salary"), tags: [], payer: person, split: nil), walletIndex: walletIndex)
    }

    /// A shared expense in CHF split by the household ratio (sometimes an override), with the
    /// shares resolved by the model's largest-remainder `Allocation` (S3).
    mutating func recordSharedExpense() {
        let walletIndex = random.chance(percent: 70) ? WalletSlot.shared : WalletSlot.checking
        let wallet = wallets[walletIndex]
        let payer = wallet.owner ?? random.pick([admin, member])
        beginCommand(by: payer)
        let amount = wallet.money(expenseAmount() * 2 + 1)
        let isOverride = random.chance(percent: 15)
        let splitRatios = isOverride
            ? [admin, member].map { MemberRatio(person: $0, ratio: Self.checked { () throws(ModelError) in try Ratio(basisPoints: 5_000) }) }
            : ratios
        let shares = Self.checked { () throws(ModelError) in try Allocation.split(amount, ratios: splitRatios, payer: payer) }
        for share in shares where share.person != payer {
            memberOwesAdmin += payer == admin ? share.amount.minorUnits : -share.amount.minorUnits
        }
        let details = TransactionDetails(
            kind: .expense, amount: amount, walletID: wallet.id, categoryID: random.pick(expenseCategories.prefix(9).map { $0 }),
            date: date, note: note(random.pick(Self.merchants)), tags: [], payer: payer,
            split: TransactionSplit(ratios: splitRatios, isOverride: isOverride, shares: shares))
        // Shared transactions are never edited here, so a settlement never covers an edited one (T2).
        applyToBalance(details, walletIndex: walletIndex, sign: 1)
        emit(.transactionRecorded(TransactionRecorded(transactionID: ids.next(), details: details)))
    }

    /// Records a personal transaction and remembers it for later edits and deletes.
    mutating func record(_ details: TransactionDetails, walletIndex: Int) {
        let id: TransactionID = ids.next()
        applyToBalance(details, walletIndex: walletIndex, sign: 1)
        emit(.transactionRecorded(TransactionRecorded(transactionID: id, details: details)))
        remember(LiveTransaction(id: id, details: details, walletIndex: walletIndex))
    }

    mutating func remember(_ transaction: LiveTransaction) {
        // Full: the newcomer takes a random slot (O(1), no shifting of the array).
        if live.count == Self.liveTransactionsMax {
            live[random.below(live.count)] = transaction
        } else {
            live.append(transaction)
        }
    }

    /// Edits an earlier personal transaction: new amount and note, same wallet and category (T2).
    mutating func editTransaction() {
        guard !live.isEmpty else { return recordExpense() }
        let index = random.below(live.count)
        var transaction = live[index]
        applyToBalance(transaction.details, walletIndex: transaction.walletIndex, sign: -1)
        let old = transaction.details.amount.minorUnits
        transaction.details.amount.minorUnits = max(5, old + random.value(in: -(old / 5)...(old / 5)))
        // The edit's actor is the payer (below), so the new note is theirs (P1).
        transaction.details.note = PersonalText("corrected", owner: transaction.details.payer)
        applyToBalance(transaction.details, walletIndex: transaction.walletIndex, sign: 1)
        live[index] = transaction
        beginCommand(by: transaction.details.payer)
        emit(.transactionEdited(TransactionEdited(transactionID: transaction.id, details: transaction.details)))
    }

    /// Soft-deletes an earlier personal transaction (T3).
    mutating func deleteTransaction() {
        guard !live.isEmpty else { return recordExpense() }
        live.swapAt(random.below(live.count), live.count - 1)
        let transaction = live.removeLast()
        applyToBalance(transaction.details, walletIndex: transaction.walletIndex, sign: -1)
        if deleted.count == Self.deletedTransactionsMax {
            deleted[random.below(deleted.count)] = transaction
        } else {
            deleted.append(transaction)
        }
        beginCommand(by: transaction.details.payer)
        emit(.transactionDeleted(TransactionDeleted(transactionID: transaction.id)))
    }

    /// Restores the most recently deleted transaction (T3).
    mutating func restoreTransaction() {
        guard let transaction = deleted.popLast() else { return recordExpense() }
        applyToBalance(transaction.details, walletIndex: transaction.walletIndex, sign: 1)
        remember(transaction)
        beginCommand(by: transaction.details.payer)
        emit(.transactionRestored(TransactionRestored(transactionID: transaction.id)))
    }

    /// Keeps the tracked balance of the wallet: income adds, expense subtracts (a card owes more).
    mutating func applyToBalance(_ details: TransactionDetails, walletIndex: Int, sign: Int64) {
        var delta = details.kind == .income ? details.amount.minorUnits : -details.amount.minorUnits
        if wallets[walletIndex].kind.isLiability { delta = -delta }
        wallets[walletIndex].balance += sign * delta
    }

    /// Mostly small amounts (2 to 80), sometimes large ones (80 to 600), in minor units.
    mutating func expenseAmount() -> Int64 {
        random.chance(percent: 85) ? random.value(in: 200...8_000) : random.value(in: 8_000...60_000)
    }
}
