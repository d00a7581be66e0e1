import Tally
import TallyModel
import TallyProjections

extension CSVExporter {
    /// The columns of ``goals(_:on:visibleTo:numberFormat:)``, in order.
    public static let goalHeader = [
        "id", "title", "target", "currency", "target_date", "saved", "progress_percent", "estimated_finish", "wallets", "wallet_ids",
    ]

    /// The CSV text of the live goals `viewer` sees with their progress at the end of `date`
    /// (Drishti E14-S2, R2), by title then id: the planning view's `goals(on:visibleTo:)`, so a
    /// member never gets a goal saved in another member's own wallet (G7).
    ///
    /// `saved` is in the target's currency (linked wallets converted, G2); `progress_percent` is
    /// saved / target in percent with two decimals, rounded down; `estimated_finish`
    /// the 90-day pace's date (empty when none, R2). `wallets` names the linked wallets and
    /// `wallet_ids` their ids, each joined by `; ` in the goal's order; both are empty for a goal
    /// tracked by hand.
    ///
    /// - Throws: `InterchangeError` with the engine's code when a converted total does not fit (G1).
    public static func goals(
        _ history: LedgerHistory, on date: LocalDate, visibleTo viewer: Viewer, numberFormat: NumberFormat = .plain
    ) throws(InterchangeError) -> String {
        let goals: [GoalProgress]
        do {
            goals = try PlanningView(state: history.state, models: history.readModels, store: nil).goals(on: date, visibleTo: viewer)
        } catch {
            throw InterchangeError(code: error.code, message: error.message)
        }
        let rows = goals.map { progress in
            let goal = progress.goal
            return [
                progress.goalID.description, goal.name, numberFormat.text(goal.target), goal.target.currency.code,
                goal.targetDate?.isoString ?? "", numberFormat.text(progress.saved), percent(basisPoints: progress.basisPoints),
                progress.estimatedFinish?.isoString ?? "", goal.walletIDs.map(history.walletName).joined(separator: "; "),
                goal.walletIDs.map(\.description).joined(separator: "; "),
            ]
        }
        return text(header: goalHeader, rows: rows)
    }
}
