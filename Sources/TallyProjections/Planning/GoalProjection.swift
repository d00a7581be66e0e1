import TallyModel

/// Savings goals (R2): each goal's definition, its amounts set by hand and the milestones it
/// reached, folded from the journal; progress and the finish estimate are derived when asked
/// (``GoalProjection/progress(on:wallets:)``).
///
/// Milestones (25, 50, 75 and 100% of the target) are facts of the fold: after every event that
/// can move a goal (its own events, a movement or balance point of any wallet, an exchange
/// rate), each live goal's progress over everything recorded is compared with the milestones it
/// has not reached yet, and each one passed is added, in order, with the sequence number and
/// time of the event that passed it. A milestone is reached once: a goal that falls back and
/// rises again does not reach it a second time (Docs/Planning.md).
public struct GoalProjection: Hashable, Sendable {
    /// Every goal ever created, deleted ones included: the one book of goals, which the engine's
    /// validation state reads too (R2).
    package internal(set) var goals: [GoalID: GoalRecord] = [:]
    /// Events this projection could not apply, in journal order.
    public internal(set) var problems: [ProjectionProblem] = []

    /// How many goals are live (not deleted).
    package var liveGoalCount: Int { goals.values.count { !$0.isDeleted } }

    /// The milestone percentages, in the order they are reached (R2).
    public static let milestonePercents: [Int64] = [25, 50, 75, 100]

    /// An empty projection, before any event.
    public init() {}

    /// Whether `viewer` sees `goal` (G7): every wallet it saves in is one they see.
    package static func isSeen(_ goal: GoalDefinition, by viewer: Viewer, wallets: WalletProjection) -> Bool {
        goal.walletIDs.allSatisfy { viewer.sees(walletOwnedBy: wallets.wallets[$0]?.owner) }
    }

    /// The live goals that count `walletID` among their wallets, by id (R2): what closing the
    /// wallet asks to confirm (Drishti E6-S2, `closeWallet`'s `acknowledgeGoals`).
    public func goalIDs(countingWallet walletID: WalletID) -> [GoalID] {
        goals.filter { !$0.value.isDeleted && $0.value.goal.walletIDs.contains(walletID) }.keys.sorted()
    }

    /// Folds one event; `wallets` is the wallet read model after it.
    public mutating func apply(_ event: Event, sequenceNumber: UInt64, wallets: WalletProjection) {
        switch event.payload {
        case .goalCreated(let created):
            guard goals[created.goalID] == nil else { return problem(sequenceNumber, "goal \(created.goalID) is created twice") }
            goals[created.goalID] = GoalRecord(goal: created.goal)
            passMilestones(of: created.goalID, event, sequenceNumber, wallets)
        case .goalUpdated(let updated):
            guard goals[updated.goalID] != nil else { return problem(sequenceNumber, "unknown goal \(updated.goalID)") }
            goals[updated.goalID]?.goal = updated.goal
            passMilestones(of: updated.goalID, event, sequenceNumber, wallets)
        case .goalAmountSet(let set):
            guard goals[set.goalID] != nil else { return problem(sequenceNumber, "unknown goal \(set.goalID)") }
            goals[set.goalID]?.amounts.set(set)
            passMilestones(of: set.goalID, event, sequenceNumber, wallets)
        case .goalDeleted(let deleted):
            goals[deleted.goalID]?.isDeleted = true
        case .goalRestored(let restored):
            goals[restored.goalID]?.isDeleted = false
            passMilestones(of: restored.goalID, event, sequenceNumber, wallets)
        case .walletOpened, .walletKindChanged, .walletClosed, .balanceRecorded, .balanceRemoved, .transferRecorded,
             .transferEdited, .transferDeleted, .transactionRecorded, .templateActivated, .transactionEdited,
             .transactionDeleted, .transactionRestored, .exchangeRateSet:
            for (id, entry) in goals where !entry.isDeleted && entry.goal.isLinked {
                passMilestones(of: id, event, sequenceNumber, wallets)
            }
        default:
            break
        }
    }

    private mutating func problem(_ sequenceNumber: UInt64, _ message: String) {
        problems.append(ProjectionProblem(sequenceNumber: sequenceNumber, rule: "R2", message: message))
    }

    /// Adds the milestones goal `id` passed with `event`, in order, each once.
    private mutating func passMilestones(of id: GoalID, _ event: Event, _ sequenceNumber: UInt64, _ wallets: WalletProjection) {
        guard let entry = goals[id], !entry.isDeleted else { return }
        let next = Self.milestonePercents.filter { percent in !entry.milestones.contains { $0.percent == percent } }
        guard !next.isEmpty, let saved = try? entry.saved(on: nil, wallets: wallets).total else { return }
        let basisPoints = Self.basisPoints(Int128(saved.minorUnits), of: entry.goal.target)
        for percent in next where basisPoints >= percent * 100 {
            goals[id]?.milestones.append(GoalMilestone(
                goalID: id, percent: percent, sequenceNumber: sequenceNumber, recordedAtMilliseconds: event.recordedAt.millisecondsSinceEpoch))
        }
    }

    /// `saved / target` in basis points, rounded down (10000 = reached; more when over).
    static func basisPoints(_ saved: Int128, of target: Money) -> Int64 {
        guard target.minorUnits > 0 else { return 0 }
        let points = saved * 10_000 / Int128(target.minorUnits)
        return Int64(clamping: points)
    }
}

/// A goal (R2), the one record of it: its definition, the amounts set by hand (what undo puts
/// back), whether it is deleted (a restore brings it back whole) and the milestones it reached.
/// One book of them (``GoalProjection``'s) serves the read model and the engine's validation.
@StateFields
package struct GoalRecord: Hashable, Sendable {
    /// What the goal is.
    package internal(set) var goal: GoalDefinition
    /// Amounts set by hand, one per date, by date.
    package internal(set) var amounts: [GoalAmountSet] = []
    /// Whether it is deleted.
    package internal(set) var isDeleted = false
    /// The milestones reached, in order.
    var milestones: [GoalMilestone] = []

    init(goal: GoalDefinition) { self.goal = goal }

    /// The amount set for `date`, if any.
    package func amount(on date: LocalDate) -> Money? { amounts.first { $0.date == date }?.amount }

    /// What is saved at the end of `date` (`nil`: after everything recorded), in the target's
    /// currency: the linked wallets' values signed as net worth, converted exactly and rounded
    /// once (G2), or the latest amount set by hand on or before the date.
    /// - Parameter startingValues: a wallet not open yet at `date` counts its opening balance, a
    ///   goal without an amount by `date` its first amount after it (the base of an estimate:
    ///   an opening balance or a first amount is not a saving).
    func saved(on date: LocalDate?, wallets: WalletProjection, startingValues: Bool = false) throws(ProjectionError) -> (total: Money, missingRates: [Currency]) {
        let currency = goal.target.currency
        guard goal.isLinked else {
            let entry = amounts.last { entry in date.map { entry.date <= $0 } ?? true } ?? (startingValues ? amounts.first : nil)
            return (entry?.amount ?? Money(minorUnits: 0, currency: currency), [])
        }
        let parts = goal.walletIDs.compactMap { id -> (units: Int128, currency: Currency)? in
            guard let wallet = wallets.wallets[id] else { return nil }
            let opening = startingValues ? Int128(wallet.openingBalance.minorUnits) : nil
            guard let units = wallets.value(of: id, asOf: date) ?? opening else { return nil }
            return (NetWorthProjection.signed(units, wallet), wallet.currency)
        }
        return try wallets.convertedTotal(parts, dividedBy: 1, into: currency, on: date ?? .max, rule: "R2")
    }
}

/// A goal milestone reached (R2): 25, 50, 75 or 100% of its target, with the event that passed it.
@StateFields
public struct GoalMilestone: Hashable, Sendable {
    /// The goal.
    public let goalID: GoalID
    /// The percentage of the target reached.
    public let percent: Int64
    /// The sequence number of the event that passed it.
    public let sequenceNumber: UInt64
    let recordedAtMilliseconds: Int64

    /// When the event that passed it was recorded.
    public var recordedAt: Timestamp { Timestamp(millisecondsSinceEpoch: recordedAtMilliseconds) }
}

extension GoalProjection: StateCodable {
    func encode(to writer: inout BinaryWriter) {
        writer.write(goals)
        writer.write(problems)
    }

    init(from reader: inout StateReader) throws(ProjectionError) {
        goals = try reader.read()
        problems = try reader.read()
    }

    /// The read model as canonical JSON: `{"goals","problems"}`, each live goal with its
    /// definition, what is saved after everything recorded and its milestones.
    /// - Throws: ``ProjectionError/overflow(rule:subject:)``.
    public func canonicalJSON(wallets: WalletProjection) throws(ProjectionError) -> CanonicalJSON {
        var list: [CanonicalJSON] = []
        for (id, entry) in goals.sorted(by: { $0.key < $1.key }) where !entry.isDeleted {
            let saved = try entry.saved(on: nil, wallets: wallets)
            list.append(.object([
                "goalID": CanonicalJSON(id), "name": .string(entry.goal.name), "target": CanonicalJSON(entry.goal.target),
                "targetDate": CanonicalJSON(entry.goal.targetDate), "walletIDs": .array(entry.goal.walletIDs.map(CanonicalJSON.init)),
                "saved": CanonicalJSON(saved.total), "missingRates": .array(saved.missingRates.map { .string($0.code) }),
                "milestones": .array(entry.milestones.map { milestone in
                    .object(["percent": .integer(milestone.percent), "sequenceNumber": .integer(Int64(clamping: milestone.sequenceNumber))])
                }),
            ]))
        }
        return .object(["goals": .array(list), "problems": .array(problems.map(CanonicalJSON.init))])
    }
}

extension GoalRecord: StateCodable {}
extension GoalMilestone: StateCodable {}
