import TallyModel
import TallyWorkload

/// The varied parameters of one measurement: a stream of queries drawn from the workload's
/// wallets, categories, months and words, the same for both subjects (seeded by the run's seed
/// and the measurement), so their listings can be compared.
struct QueryPlan {
    let wallets: [WalletID]
    let expenseCategories: [CategoryID]
    private var choices: SplitMix64

    /// Amounts the combined filter keeps: CHF 10.00-60.00.
    static let combinedMinorUnits: ClosedRange<Int64> = 1_000...6_000
    static let combinedMonths = 3
    static let reportMonths = 12

    init(seed: UInt64, kind: QueryKind) {
        let workload = ScaleWorkload(seed: seed, phase: .build)
        wallets = workload.wallets
        expenseCategories = ScaleVocabulary.expenses.map { ScaleVocabulary.categoryID($0.presetKey, in: workload.household) }
        let salt = kind.rawValue.utf8.reduce(UInt64(0xCBF2_9CE4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
        choices = SplitMix64(seed: seed ^ salt)
    }

    /// The next first-page query of `kind` (a page kind).
    mutating func nextQuery(_ kind: QueryKind) -> ListQuery {
        var query = ListQuery()
        switch kind {
        case .walletPage:
            query.walletID = choices.pick(wallets)
        case .categoryPage:
            query.categoryID = choices.pick(expenseCategories)
        case .monthPage:
            query.dates = Self.dates(of: nextMonths(1))
        case .combinedPage:
            query.walletID = choices.pick(wallets)
            query.categoryID = choices.pick(expenseCategories)
            query.dates = Self.dates(of: nextMonths(Self.combinedMonths))
            query.minorUnits = Self.combinedMinorUnits
        case .commonWordSearch:
            query.text = choices.pick(ScaleVocabulary.commonWords)
        case .rareWordSearch:
            query.text = choices.pick(ScaleVocabulary.rareWords)
        case .secondPage:
            if choices.chance(percent: 50) {
                query.walletID = choices.pick(wallets)
            } else {
                query.categoryID = choices.pick(expenseCategories)
            }
        case .hundredthPage, .categoryMonthReport, .balanceObservation:
            preconditionFailure("\(kind) has no first-page query")
        }
        return query
    }

    /// The lists whose page 100 is measured: every transaction, then each wallet.
    var deepLists: [ListQuery] {
        [ListQuery()] + wallets.map { wallet in
            var query = ListQuery()
            query.walletID = wallet
            return query
        }
    }

    /// The next 12 consecutive months of the history for the report.
    mutating func nextReportMonths() -> ClosedRange<YearMonth> {
        nextMonths(Self.reportMonths)
    }

    /// `count` consecutive months inside the 24 of the history, starting anywhere they fit.
    private mutating func nextMonths(_ count: Int) -> ClosedRange<YearMonth> {
        let months = ScaleVocabulary.historyMonths
        let first = choices.below(months.count - count + 1)
        return months[first]...months[first + count - 1]
    }

    private static func dates(of months: ClosedRange<YearMonth>) -> ClosedRange<LocalDate> {
        months.lowerBound.firstDay...months.upperBound.lastDay
    }
}
