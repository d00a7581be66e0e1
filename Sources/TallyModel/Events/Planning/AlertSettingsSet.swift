/// The household's alert settings (R6): which budget usage crossings, how far ahead recurring
/// items, which transaction amount and how old a balance point are reported.
///
/// Tag 640, schema version 3 (see ``EventTag/alertSettingsSet`` and `Docs/Events.md`). Every
/// field is the setting after the change; a household that never set them uses
/// ``AlertSettingsSet/defaults``. Version 2 added `priceIncreaseDays` and `settleUpThreshold`,
/// version 3 `spikePercent`.
@WireFields
public struct AlertSettingsSet: Hashable, Sendable {
    /// Budget usage thresholds in percent of the allocation, ascending (80 and 100 by default).
    public let budgetThresholds: [Int64]
    /// How many days ahead a recurring item's occurrence is reported (0 turns it off).
    public let upcomingDays: Int64
    /// How many days after its latest balance point a value-observed wallet is reported
    /// (0 turns it off).
    public let staleBalanceDays: Int64
    /// A transaction of at least this amount (in its currency, or converted to it, G2) is
    /// reported; `nil` turns it off.
    public let largeTransaction: Money?
    /// How many days before and after it takes effect a recurring item's price increase is
    /// reported (0 turns it off); `nil` (settings of version 1) is 7.
    @WireSince(2) public let priceIncreaseDays: Int64?
    /// A balance with a person (across the household and groups) of at least this amount, in
    /// its currency, is a reminder to settle up; `nil` turns it off.
    @WireSince(2) public let settleUpThreshold: Money?
    /// A category's expenses in the month of the date asked, through that date, of at least
    /// this percent of its monthly average over the three whole months before are a spending
    /// spike (Swiff 4.3.1, 101...10000); `nil` (and settings before version 3) turns it off.
    @WireSince(3) public let spikePercent: Int64?

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(
        budgetThresholds: [Int64], upcomingDays: Int64, staleBalanceDays: Int64, largeTransaction: Money?,
        priceIncreaseDays: Int64? = nil, settleUpThreshold: Money? = nil, spikePercent: Int64? = nil
    ) {
        self.budgetThresholds = budgetThresholds
        self.upcomingDays = upcomingDays
        self.staleBalanceDays = staleBalanceDays
        self.largeTransaction = largeTransaction
        self.priceIncreaseDays = priceIncreaseDays
        self.settleUpThreshold = settleUpThreshold
        self.spikePercent = spikePercent
    }

    /// The settings of a household that never set them: 80% and 100%, 7 days ahead, balance
    /// points older than 30 days, no large-transaction alert, price increases 7 days around
    /// their date, no settle-up reminder, no spending-spike alert.
    public static let defaults = AlertSettingsSet(
        budgetThresholds: [80, 100], upcomingDays: 7, staleBalanceDays: 30, largeTransaction: nil, priceIncreaseDays: 7, settleUpThreshold: nil)

    /// The price-increase window in force: `priceIncreaseDays`, or 7 for settings of version 1.
    public var priceIncreaseWindow: Int64 { priceIncreaseDays ?? 7 }
}
