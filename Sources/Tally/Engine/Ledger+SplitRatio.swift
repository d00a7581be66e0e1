import TallyModel

/// The household split ratio as a settings screen shows it (S1, S4, Flow US-027/067): the mode,
/// the ratios in force, the manual ratios and the latest income-based recalculation.
public struct SplitRatioStatus: Sendable, Hashable {
    /// Manual or income-based.
    public let mode: SplitRatioMode
    /// The ratios shared expenses split by now, sorted by person id.
    public let ratios: [MemberRatio]
    /// The ratios the household gave (S1): in income-based mode the fallback when no income
    /// is known; equal parts before any `setSplitRatio`.
    public let manualRatios: [MemberRatio]
    /// The start of the period whose payday last recalculated the ratios, `nil` when they were
    /// last computed on request or the mode is manual.
    public let recalculatedForPeriodStart: LocalDate?
    /// Whether the latest recalculation found no income and fell back to ``manualRatios``
    /// ("Could not detect income. Using manual split ratio").
    public let isFallback: Bool
}

extension Ledger {
    /// The household split ratio (S1, S4): the ratio shared expenses split by, and in
    /// income-based mode how it was reached. Ratios are the household's (every member splits by
    /// them, Docs/Privacy.md); the incomes behind them are not listed, so any member may read it.
    public func splitRatio() -> SplitRatioStatus {
        let state = shownState
        let inForce = state.effectiveRatios() ?? []
        let setting = state.splitRatioSetting ?? state.splitRatio
        let recalculation = setting?.mode == .incomeBased ? state.lastRatioRecalculation : nil
        return SplitRatioStatus(
            mode: setting?.mode ?? .manual, ratios: inForce.sorted { $0.person < $1.person },
            manualRatios: (setting?.ratios ?? inForce).sorted { $0.person < $1.person },
            recalculatedForPeriodStart: recalculation?.periodStart, isFallback: recalculation?.isFallback ?? false)
    }
}
