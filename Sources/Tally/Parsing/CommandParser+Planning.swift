import TallyModel

extension CommandParser {
    static let planningActions: [String: ActionParser] = [
        "createGoal": { fields, _ throws(CommandParseError) in .createGoal(try fields.id("goalID"), try goal(fields)) },
        "updateGoal": { fields, _ throws(CommandParseError) in .updateGoal(try fields.id("goalID"), try goal(fields)) },
        "setGoalAmount": { fields, _ throws(CommandParseError) in
            .setGoalAmount(try fields.id("goalID"), date: try fields.date("date"), amount: fields.has("amount") ? try fields.money("amount") : nil)
        },
        "deleteGoal": { fields, _ throws(CommandParseError) in .deleteGoal(try fields.id("goalID")) },
        "saveScenario": { fields, _ throws(CommandParseError) in
            let lumpSums = fields.has("lumpSums") ? try fields.objects("lumpSums") : []
            return .saveScenario(ScenarioSaved(
                scenarioID: try fields.id("scenarioID"), name: try fields.string("name"),
                monthlyIncomeDelta: try fields.money("monthlyIncomeDelta"), monthlyExpenseDelta: try fields.money("monthlyExpenseDelta"),
                lumpSums: try lumpSums.map { lump throws(CommandParseError) in
                    ScenarioLumpSum(date: try lump.date("date"), amount: try lump.money("amount"))
                }))
        },
        "deleteScenario": { fields, _ throws(CommandParseError) in .deleteScenario(try fields.id("scenarioID")) },
        "activateScenario": { fields, _ throws(CommandParseError) in .activateScenario(try fields.optionalID("scenarioID")) },
        "setAlertSettings": { fields, _ throws(CommandParseError) in
            let defaults = AlertSettingsSet.defaults
            let thresholds = fields.has("budgetThresholds")
                ? try fields.array("budgetThresholds").enumerated().map { index, value throws(CommandParseError) in
                    guard case .integer(let percent) = value else {
                        throw .bad(fields.name("budgetThresholds[\(index)]"), "expected a whole percentage like 80")
                    }
                    return percent
                }
                : defaults.budgetThresholds
            return .setAlertSettings(AlertSettingsSet(
                budgetThresholds: thresholds,
                upcomingDays: fields.has("upcomingDays") ? try fields.integer("upcomingDays") : defaults.upcomingDays,
                staleBalanceDays: fields.has("staleBalanceDays") ? try fields.integer("staleBalanceDays") : defaults.staleBalanceDays,
                largeTransaction: fields.has("largeTransaction") ? try fields.money("largeTransaction") : nil))
        },
    ]

    /// A goal's fields: `name`, `target`, `targetDate?`, `walletIDs?`.
    private static func goal(_ fields: JSONFields) throws(CommandParseError) -> GoalDefinition {
        GoalDefinition(
            name: try fields.string("name"), target: try fields.money("target"), targetDate: try fields.optionalDate("targetDate"),
            walletIDs: fields.has("walletIDs") ? try fields.ids("walletIDs") : [])
    }
}
