import TallyModel

/// What the issue-15 measurements ask a subject, through what a host app calls: pages of a
/// transaction list, the category x month report, and an observation of the balances.
protocol QuerySubject: LedgerSubject {
    /// One page of `query`, newest business date first (ties: the one recorded last first),
    /// starting after `cursor` (the `next` of the page before; nil: the first page).
    func page(_ query: ListQuery, after cursor: String?) async throws -> ListPage
    /// The totals per month, category, kind and currency of the business dates in `months`.
    func categoryMonthReport(_ months: ClosedRange<YearMonth>) async throws -> ReportFigures
    /// Starts observing every wallet's balance; the probe stamps each value as it arrives,
    /// the current one first.
    func observeBalances() async throws -> ObservationProbe
}

/// A list screen's question in terms both subjects answer: its filters, `pageRows` rows a
/// page, newest first.
struct ListQuery: Sendable, Hashable {
    var walletID: WalletID?
    var categoryID: CategoryID?
    var dates: ClosedRange<LocalDate>?
    var minorUnits: ClosedRange<Int64>?
    /// Every word must start a word of the note or the tags, case and accents ignored.
    var text: String?

    static let pageRows = 50
}

/// What a subject listed, reduced to what the harness checks: both subjects must list the
/// same rows in the same order for the same query.
struct ListPage: Sendable {
    let rowCount: Int
    /// Sum over the rows of (position + 1) x amount in minor units: changes when a row or the
    /// order differs.
    let digest: Int64
    /// Where the next page starts (the subject's own cursor, printed); nil after the last row.
    let next: String?

    /// The digest of amounts in list order.
    static func digest(_ minorUnits: [Int64]) -> Int64 {
        minorUnits.enumerated().reduce(Int64(0)) { $0 &+ Int64($1.offset + 1) &* $1.element }
    }
}

/// A report reduced to what the harness checks: its cells, and a digest of their totals in
/// report order.
struct ReportFigures: Sendable {
    let cells: Int
    let digest: Int64
}
