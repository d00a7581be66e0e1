import TallyModel

/// Something an event creates, changes or relies on; the unit of undo dependencies (T5).
///
/// An event *owns* the keys it changes and *references* the keys it relies on. Undoing a
/// command is blocked when a later, still effective event of another command owns or references
/// a key the command owns.
package enum EntityKey: Sendable, Hashable {
    /// The household itself.
    case household
    /// The base currency (transactions reference it, H2).
    case baseCurrency
    /// The admin role.
    case admin
    /// A person.
    case person(PersonID)
    /// A wallet.
    case wallet(WalletID)
    /// A wallet name, lowercased (W2).
    case walletName(String)
    /// A category.
    case category(CategoryID)
    /// A category name, lowercased (C2).
    case categoryName(String)
    /// A transaction.
    case transaction(TransactionID)
    /// A transfer.
    case transfer(TransferID)
    /// A template.
    case template(TemplateID)
    /// The household split ratio.
    case splitRatio
    /// A settlement.
    case settlement(SettlementID)
    /// A group.
    case group(GroupID)
    /// A group expense.
    case groupExpense(GroupExpenseID)
    /// The payday schedule and periods.
    case periods
    /// A category's budget allocations.
    case budget(CategoryID)
    /// The income settings.
    case incomeSettings
    /// An exchange rate pair.
    case exchangeRate(Currency, Currency)
    /// A wallet's balance points.
    case balancePoints(WalletID)
    /// The display order of the categories.
    case categoryOrder
    /// A wallet's flow designations (N5).
    case walletDesignation(WalletID)
    /// A goal's definition and standing (R2).
    case goal(GoalID)
    /// A goal's amounts set by hand (R2).
    case goalAmounts(GoalID)
    /// A saved scenario (R3).
    case scenario(ScenarioID)
    /// Which scenario is active (R3).
    case activeScenario
    /// The alert settings (R6).
    case alertSettings
    /// The household's first day of the week (B5, Swiff 2.4.1).
    case firstWeekday
    /// A category's tax class (`CategoryTaxClassSet`): apart from the category, so that the
    /// category's transactions do not block the undo of a class.
    case categoryTaxClass(CategoryID)
    /// A wallet's balance alert (R6).
    case balanceAlert(WalletID)
    /// A saved CSV import mapping, by lowercased name (section 9).
    case importMapping(String)
    /// A file attached to a transaction or group expense, by digest (T6).
    case attachment(AttachedItem, ContentHash)
    /// A saved view: a filter or report template (Flow US-058).
    case view(ViewID)
    /// An invitation to join the household (H6, Flow US-005).
    case invitation(InvitationID)
}

extension EntityKey {
    /// The entity as the activity feed names it (R5): `kind/id`, e.g. `wallet/<id>`,
    /// `transaction/<id>`, `household`; a name key (W2, C2) is its entity's name claim and is
    /// left out (`nil`): the entity itself is listed by id.
    var activityName: String? {
        switch self {
        case .household: "household"
        case .baseCurrency: "baseCurrency"
        case .admin: "admin"
        case .person(let id): "person/\(id)"
        case .wallet(let id): "wallet/\(id)"
        case .walletName, .categoryName: nil
        case .category(let id): "category/\(id)"
        case .transaction(let id): "transaction/\(id)"
        case .transfer(let id): "transfer/\(id)"
        case .template(let id): "template/\(id)"
        case .splitRatio: "splitRatio"
        case .settlement(let id): "settlement/\(id)"
        case .group(let id): "group/\(id)"
        case .groupExpense(let id): "groupExpense/\(id)"
        case .periods: "periods"
        case .budget(let id): "budget/\(id)"
        case .incomeSettings: "incomeSettings"
        case .exchangeRate(let base, let quote): "exchangeRate/\(base.code)/\(quote.code)"
        case .balancePoints(let id): "balancePoints/\(id)"
        case .categoryOrder: "categoryOrder"
        case .walletDesignation(let id): "walletDesignation/\(id)"
        case .goal(let id): "goal/\(id)"
        case .goalAmounts(let id): "goalAmounts/\(id)"
        case .scenario(let id): "scenario/\(id)"
        case .activeScenario: "activeScenario"
        case .alertSettings: "alertSettings"
        case .firstWeekday: "firstWeekday"
        case .categoryTaxClass(let id): "categoryTaxClass/\(id)"
        case .balanceAlert(let id): "balanceAlert/\(id)"
        case .importMapping(let name): "importMapping/\(name)"
        case .attachment(.transaction(let id), let hash): "attachment/transaction/\(id)/\(hash)"
        case .attachment(.groupExpense(let id), let hash): "attachment/groupExpense/\(id)/\(hash)"
        case .view(let id): "view/\(id)"
        case .invitation(let id): "invitation/\(id)"
        }
    }
}
