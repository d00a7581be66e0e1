import Tally

/// The one command the example executes to show the observed balances move: the newest
/// expense recorded again, as an app's "repeat" button does (same wallet, category, payer,
/// amount and business date; the payer acts).
///
/// An app passes the clock's time as `recordedAt` and new random ids (G3, G5). The example
/// derives both from the expense it repeats instead, so that its output is the same on every
/// run: `recordedAt` is noon UTC of the business date, and the ids are derived from the
/// repeated transaction's id, so running it again on the same ledger repeats the expense it
/// recorded the time before, with new ids.
struct RepeatedExpense {
    /// The expense repeated, as the store lists it.
    let original: TransactionRow

    /// The `recordTransaction` command.
    var command: Command {
        let namespace = original.transaction.transactionID.value
        let transaction = original.transaction
        let entry = TransactionEntry(
            kind: .expense, amount: transaction.amount, walletID: transaction.walletID, categoryID: transaction.categoryID,
            date: transaction.date, payer: transaction.payer)
        return Command(
            commandID: .derived(namespace: namespace, name: "host example: command"), actor: transaction.payer,
            recordedAt: Timestamp(millisecondsSinceEpoch: transaction.date.daysSinceEpoch * 86_400_000 + 12 * 3_600_000),
            action: .recordTransaction(transactionID: .derived(namespace: namespace, name: "host example: transaction"), entry: entry))
    }

    /// What the command does, in the store's words.
    var summary: String {
        let transaction = original.transaction
        return "expense \(transaction.amount.formatted()) in \(original.walletName), \(original.categoryName ?? "\(transaction.categoryID)"), "
            + "\(transaction.date), paid by \(original.payerName ?? "\(transaction.payer)")"
    }

    /// The newest live expense `viewer` sees (newest business date, then newest recorded), if any.
    static func newest(on ledger: Ledger, visibleTo viewer: Viewer) async throws(LedgerError) -> RepeatedExpense? {
        var query = TransactionQuery(visibleTo: viewer)
        query.kinds = [.expense]
        query.limit = 1
        let page = try await ledger.transactions(query)
        return page.rows.first.map(RepeatedExpense.init(original:))
    }
}
