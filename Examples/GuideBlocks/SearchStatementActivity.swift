import Tally

// Sources/Tally/Tally.docc/Embedding.md, "Screens from queries" (search, statement, activity): the guide's block verbatim (EmbeddingGuideTests
// checks it), compiled here and in Examples/External, against the public API with its own imports.
extension GuideBlocks {
    public static func searchStatementActivity(ledger: Ledger, me: PersonID, joint: WalletID) async throws -> (found: TransactionPage, statement: StatementPage, recent: ActivityPage, undoable: [ActivityEntry]) {
        var search = TransactionQuery(visibleTo: .member(me))
        search.text = "migros shop"                    // every word starts a word of a note or a tag
        let found = try await ledger.transactions(search)
        let statement = try await ledger.statement(StatementQuery(walletID: joint, visibleTo: .member(me)))  // each row with the balance after it
        let recent = try await ledger.activity(ActivityQuery(visibleTo: .member(me)))  // commands I may see, newest first
        let undoable = recent.entries.filter { $0.undo == .undoable }  // what an Undo button may offer (T5)
        return (found, statement, recent, undoable)
    }
}
