import TallyModel

/// A goal's standing on a date (R2, Drishti E8): what is saved, how far that is, the milestones
/// reached and when, at the pace of the last 90 days, the target is reached.
public struct GoalProgress: Hashable, Sendable {
    /// The goal.
    public let goalID: GoalID
    /// What it is.
    public let goal: GoalDefinition
    /// What is saved at the end of the date, in the target's currency (G2 for linked wallets).
    public let saved: Money
    /// `saved / target` in basis points, rounded down (10000 = reached).
    public let basisPoints: Int64
    /// The net change of `saved` over the 90 days up to the date.
    public let changeOver90Days: Money
    /// When the target is reached at that pace: `nil` when the change is not positive, or the
    /// target is reached already.
    public let estimatedFinish: LocalDate?
    /// The milestones reached so far, in order.
    public let milestones: [GoalMilestone]
    /// Currencies of linked wallets without a rate (N3): those wallets are not in `saved`.
    public let missingRates: [Currency]

    /// Whether the target is reached on the date.
    public var isReached: Bool { basisPoints >= 10_000 }
    /// What is left to save (zero once reached).
    public var remaining: Money {
        Money(minorUnits: max(0, goal.target.minorUnits - saved.minorUnits), currency: goal.target.currency)
    }
}

extension GoalProjection {
    /// The days the finish estimate looks back (R2).
    public static let estimateWindowDays: Int64 = 90

    /// Every live goal's progress at the end of `date`, by name then id.
    /// - Throws: ``ProjectionError/overflow(rule:subject:)`` when a converted total does not fit.
    public func progress(on date: LocalDate, wallets: WalletProjection) throws(ProjectionError) -> [GoalProgress] {
        var result: [GoalProgress] = []
        for (id, entry) in goals where !entry.isDeleted {
            result.append(try progress(id, entry, on: date, wallets: wallets))
        }
        return result.sorted { ($0.goal.name, $0.goalID) < ($1.goal.name, $1.goalID) }
    }

    /// One live goal's progress, `nil` when no live goal has that id.
    public func progress(of id: GoalID, on date: LocalDate, wallets: WalletProjection) throws(ProjectionError) -> GoalProgress? {
        guard let entry = goals[id], !entry.isDeleted else { return nil }
        return try progress(id, entry, on: date, wallets: wallets)
    }

    /// Every milestone reached by a live goal, in the order they were reached.
    public var milestones: [GoalMilestone] {
        goals.values.filter { !$0.isDeleted }.flatMap(\.milestones).sorted { ($0.sequenceNumber, $0.goalID, $0.percent) < ($1.sequenceNumber, $1.goalID, $1.percent) }
    }

    private func progress(_ id: GoalID, _ entry: GoalRecord, on date: LocalDate, wallets: WalletProjection) throws(ProjectionError) -> GoalProgress {
        let now = try entry.saved(on: date, wallets: wallets)
        let start = (try? date.adding(days: -Self.estimateWindowDays)) ?? .min
        let base = try entry.saved(on: start, wallets: wallets, startingValues: true).total
        let target = entry.goal.target
        let change = Int128(now.total.minorUnits) - Int128(base.minorUnits)
        let remaining = Int128(target.minorUnits) - Int128(now.total.minorUnits)
        var estimate: LocalDate?
        if change > 0, remaining > 0 {
            // Whole days at the window's average pace, rounded up: remaining / (change / 90).
            let days = (remaining * Int128(Self.estimateWindowDays) + change - 1) / change
            estimate = Int64(exactly: days).flatMap { try? date.adding(days: $0) }
        }
        return GoalProgress(
            goalID: id, goal: entry.goal, saved: now.total, basisPoints: Self.basisPoints(Int128(now.total.minorUnits), of: target),
            changeOver90Days: try MoneySum(units: change, currency: target.currency).money(rule: "R2", subject: "the change of goal \(id)"),
            estimatedFinish: estimate, milestones: entry.milestones, missingRates: now.missingRates)
    }
}
