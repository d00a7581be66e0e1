import Tally

// Sources/Tally/Tally.docc/Embedding.md, "Screens from queries": the guide's block verbatim (EmbeddingGuideTests
// checks it), compiled here and in Examples/External, against the public API with its own imports.
extension GuideBlocks {
    public static func screensFromQueries(ledger: Ledger, me: PersonID, joint: WalletID, today: LocalDate) async throws -> Screens {
        var query = TransactionQuery(visibleTo: .member(me))  // who is signed in (G7)
        query.walletIDs = [joint]
        query.limit = 5
        let firstPage = try await ledger.transactions(query)   // rows with wallet, category and payer names
        var secondPage: TransactionPage?
        if let next = firstPage.next {                           // nil after the last row
            query.after = next
            secondPage = try await ledger.transactions(query)
        }
        var february = TransactionQuery(visibleTo: .member(me))
        february.restrict(to: try YearMonth(year: 2026, month: 2))
        let days = try await ledger.dayTotals(february)                      // a list grouped by day
        let spending = try await ledger.categoryTotals(byMonth: february)    // category x month cells
        let table = try spending.pivoted()               // rows by category, a column per month
        let debts = try await ledger.debts(visibleTo: .member(me))  // what I owe and am owed, with names
        // The household's budget: its figures, not anyone's entries.
        let budget = try await ledger.budget(containing: today)
        return Screens(firstPage: firstPage, secondPage: secondPage, days: days, spending: spending, table: table, debts: debts, budget: budget)
    }
}
