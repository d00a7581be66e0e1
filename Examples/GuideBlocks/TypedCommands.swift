import Tally

// Sources/Tally/Tally.docc/Embedding.md, "Typed commands": the guide's block verbatim (EmbeddingGuideTests
// checks it), compiled here and in Examples/External, against the public API with its own imports.
extension GuideBlocks {
    public static func typedCommands(ledger: Ledger, alice: PersonID, joint: WalletID, food: CategoryID, today: LocalDate, log: inout [String]) async throws -> TransactionID {
        let groceries = TransactionID.random()
        let expense = TransactionEntry(
            kind: .expense, amount: Money(minorUnits: 8_450, currency: .chf), walletID: joint,
            categoryID: food, date: today, note: "Migros", shared: true)  // payer: the actor
        try await ledger.execute(.recordTransaction(transactionID: groceries, entry: expense), as: alice)

        // A command built whole carries its own envelope; its JSON line is what `tally apply` replays.
        let delete = Command(commandID: .random(), actor: alice, recordedAt: .now(),
                             action: .deleteTransaction(transactionID: groceries))
        try await ledger.execute(delete)
        log.append(delete.jsonLine)
        try await ledger.execute(.undo(targetCommandID: delete.commandID), as: alice)
        return groceries
    }
}
