import Tally

// Sources/Tally/Tally.docc/GettingStarted.md, "2. Record, read, observe, undo, close": the article's block verbatim
// (EmbeddingGuideTests checks it), compiled here and in Examples/External with its own imports.
extension GuideBlocks {
    public static func recordReadObserve(ledger: Ledger, alice: PersonID, joint: WalletID, today: LocalDate, show: @escaping @Sendable ([WalletBalance]) -> Void) async throws -> (balances: [WalletBalance], lunch: ExecutedCommand) {
        let categories = try await ledger.read { db in try db.categoryNames() }
        guard let groceries = categories.first(where: { $0.value == "Groceries" })?.key else {
            throw LedgerError.invalidQuery("no category is named Groceries")  // a preset (C2)
        }
        let lunch = try await ledger.execute(
            .recordTransaction(
                transactionID: .random(),
                entry: TransactionEntry(kind: .expense, amount: Money(minorUnits: 2_340, currency: .chf),
                                        walletID: joint, categoryID: groceries, date: today, note: "Lunch")),
            as: alice)
        // Reads see every command whose execute returned; an observation follows the later ones.
        let balances = try await ledger.read { db in try db.walletBalances(visibleTo: .member(alice)) }
        let live = await ledger.observe { db in try db.walletBalances(visibleTo: .member(alice)) }
        let screen = Task { for try await wallets in live { show(wallets) } }
        try await ledger.execute(.undo(targetCommandID: lunch.commandID), as: alice)
        try await ledger.close()                                      // ends the observation
        try await screen.value
        return (balances, lunch)
    }
}
