import Tally

/// The swift blocks of the embedding guide (Sources/Tally/Tally.docc/Embedding.md), one file each
/// with exactly the block's imports, as functions of what the guide's prose gives them
/// (`directory`, `jsonLine`, `ledger`...). The main package builds them for EmbeddingGuideTests,
/// which runs each and checks that every block of the guide is here verbatim; Examples/External
/// builds the same files as a package outside Tally, so a block that needs anything not public,
/// or an import it does not show, fails CI.
public enum GuideBlocks {
    /// What the "Screens from queries" block computes.
    public struct Screens: Sendable {
        public let firstPage: TransactionPage
        public let secondPage: TransactionPage?
        public let days: [DayTotal]
        public let spending: [MonthTotal]
        public let table: SpanReport<YearMonth>
        public let debts: [DebtRow]
        public let budget: BudgetReport
    }
}
