/// The measurements of issue 15, each run in a fresh child process per subject on the ledger
/// built at each size, with its target (at 1M).
enum QueryKind: String, CaseIterable, Codable, Sendable {
    /// The first 50-row page of one wallet (one of the four).
    case walletPage
    /// The first page of one expense category (one of the ten).
    case categoryPage
    /// The first page of one month (one of the 24).
    case monthPage
    /// The first page of a wallet + an expense category + three months + CHF 10-60.
    case combinedPage
    /// The first page of a search for a common payee ("Migros", "Coop", "SBB", "coffee", "rent").
    case commonWordSearch
    /// The first page of a search for a rare word (about one transaction in 8,000 each).
    case rareWordSearch
    /// Page 2 by cursor of a wallet's or a category's list (page 1 read just before, untimed).
    case secondPage
    /// Page 100 by cursor of the whole list or a wallet's (the last page when it has fewer):
    /// the cursors are found first by walking the pages, untimed.
    case hundredthPage
    /// Totals per month, category, kind and currency over 12 consecutive months.
    case categoryMonthReport
    /// From `execute` returning to the balance observer receiving the new balances.
    case balanceObservation

    var label: String {
        switch self {
        case .walletPage: "First page, one wallet"
        case .categoryPage: "First page, one category"
        case .monthPage: "First page, one month"
        case .combinedPage: "First page, wallet + category + 3 months + amount range"
        case .commonWordSearch: "Text search, a common word (first page)"
        case .rareWordSearch: "Text search, a rare word (first page)"
        case .secondPage: "Next page by cursor: page 2 (wallet or category)"
        case .hundredthPage: "Next page by cursor: page 100 (all, or a wallet)"
        case .categoryMonthReport: "Category x month report, 12 months"
        case .balanceObservation: "`execute` returned -> observer has the new balances"
        }
    }

    /// The target for this measurement: a bound in milliseconds on one percentile.
    var target: (percentile: Percentile, milliseconds: Double) {
        switch self {
        case .walletPage, .categoryPage, .monthPage, .combinedPage, .commonWordSearch, .rareWordSearch,
             .secondPage, .hundredthPage:
            (.p95, 5)
        case .categoryMonthReport: (.p95, 20)
        case .balanceObservation: (.p50, 1)
        }
    }

    /// Which percentile a target bounds.
    enum Percentile: String, Sendable {
        case p50
        case p95

        var fraction: Double { self == .p50 ? 0.5 : 0.95 }
    }

    /// The figure keys a child reports for this measurement.
    var p50Key: String { rawValue + ".p50Milliseconds" }
    var p95Key: String { rawValue + ".p95Milliseconds" }
    /// Order-sensitive digest of what the first queries listed (pages, reports): equal for both subjects.
    var digestKey: String { rawValue + ".digest" }
    /// Timed queries (fewer than asked when the time budget ran out).
    var samplesKey: String { rawValue + ".samples" }
    /// Mean rows per page (cells per report).
    var rowsKey: String { rawValue + ".rows" }
    /// Peer only: mean number of transactions a searched word matches.
    var matchesKey: String { rawValue + ".matches" }
    /// Observation only: values that arrived before `execute` returned (counted as 0 ms).
    var earlyKey: String { rawValue + ".arrivedBeforeReturn" }
}
