import Tally
import TallyModel

/// The ledger state the CSV import target plans against: a household, one cash wallet per
/// currency exponent and a few categories, folded from events (no journal, no disk).
enum CSVImportLedger {
    struct Wallet {
        var name: String
        var currency: Currency
    }

    static let wallets = [
        Wallet(name: "Cash CHF", currency: .chf),
        Wallet(name: "Cash JPY", currency: .jpy),
        Wallet(name: "Cash BHD", currency: .bhd),
    ]

    static let state: LedgerState = {
        let admin = PersonID(UUIDValue(high: 2, low: 1))
        var payloads: [EventPayload] = [
            .householdCreated(HouseholdCreated(
                householdID: HouseholdID(UUIDValue(high: 1, low: 1)), name: "Fuzz", baseCurrency: .chf,
                admin: admin, adminName: PersonalText("Alice", owner: admin))),
        ]
        for (index, wallet) in wallets.enumerated() {
            payloads.append(.walletOpened(WalletOpened(
                walletID: WalletID(UUIDValue(high: 3, low: UInt64(index + 1))), name: wallet.name, kind: .cash,
                currency: wallet.currency, openingBalance: Money(minorUnits: 0, currency: wallet.currency),
                openedOn: .min, owner: nil)))
        }
        let categories: [(String, CategoryGroup)] = [("Groceries", .expense), ("Rent", .expense), ("Salary", .income)]
        for (index, (name, group)) in categories.enumerated() {
            payloads.append(.categoryCreated(CategoryCreated(
                categoryID: CategoryID(UUIDValue(high: 4, low: UInt64(index + 1))), name: name, group: group,
                budgetType: group == .income ? .none : .needs, shareable: false, icon: nil, color: nil, isPreset: false)))
        }
        var state = LedgerState()
        for (index, payload) in payloads.enumerated() {
            state.apply(Event(
                commandID: CommandID(UUIDValue(high: 12, low: UInt64(index + 1))), actor: admin,
                recordedAt: Timestamp(millisecondsSinceEpoch: 1_767_261_600_000), payload: payload))
        }
        return state
    }()
}
