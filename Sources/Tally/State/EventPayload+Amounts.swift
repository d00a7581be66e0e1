import TallyModel

extension EventPayload {
    /// Every amount the event records that a read model may sum (G1): opening balances,
    /// balance points, both legs of a transfer, transaction and template amounts, settlements,
    /// group expenses, budget allocations and income settings. A restored transaction's amount
    /// comes from `state`. The one list ``MoneyExposure`` and validation both use.
    func recordedAmounts(in state: LedgerState) -> [Money] {
        switch self {
        case .walletOpened(let event): [event.openingBalance]
        case .balanceRecorded(let event): [event.balance]
        case .transferRecorded(let event): [event.amountSent, event.amountReceived]
        case .transferEdited(let event): [event.transfer.amountSent, event.transfer.amountReceived]
        case .transactionRecorded(let event): [event.details.amount]
        case .transactionEdited(let event): [event.details.amount]
        case .transactionRestored(let event): state.transactions[event.transactionID].map { [$0.details.amount] } ?? []
        case .templateCreated(let event): [event.details.amount]
        case .templateActivated(let event): [event.details.amount]
        case .templatePriceChanged(let event): [event.amount]
        case .settlementRecorded(let event): [event.amount]
        case .groupExpenseRecorded(let event): [event.amount] + event.owed.map(\.amount)
        case .groupExpenseEdited(let event): [event.expense.amount] + event.expense.owed.map(\.amount)
        case .groupExpenseRestored(let event):
            state.groupExpenses[event.expenseID].map { [$0.expense.amount] + $0.expense.owed.map(\.amount) } ?? []
        case .budgetAllocated(let event): [event.amount]
        case .incomeSettingsSet(let event): [event.monthlyIncome]
        default: []
        }
    }

    /// The amounts a planning event names (R2, R3, R6): bounded like recorded amounts (G1), but
    /// never summed into a balance, so not in ``recordedAmounts(in:)``.
    var plannedAmounts: [Money] {
        switch self {
        case .goalCreated(let event): [event.goal.target]
        case .goalUpdated(let event): [event.goal.target]
        case .goalAmountSet(let event): event.amount.map { [$0] } ?? []
        case .scenarioSaved(let event): [event.monthlyIncomeDelta, event.monthlyExpenseDelta] + event.lumpSums.map(\.amount)
        case .alertSettingsSet(let event): event.largeTransaction.map { [$0] } ?? []
        case .walletBalanceAlertSet(let event): [event.below, event.above].compactMap { $0 }
        default: []
        }
    }

    /// Every currency the event names (amounts, a wallet's or household's currency, a rate's
    /// pair): what must be ISO 4217 when a command produces it (G1).
    func namedCurrencies(in state: LedgerState) -> [Currency] {
        switch self {
        case .householdCreated(let event): [event.baseCurrency]
        case .baseCurrencyChanged(let event): [event.baseCurrency]
        case .walletOpened(let event): [event.currency, event.openingBalance.currency]
        case .exchangeRateSet(let event): [event.rate.base, event.rate.quote]
        default: (recordedAmounts(in: state) + plannedAmounts).map(\.currency)
        }
    }
}
