import TallyModel

/// Indexes of the wallets opened during setup.
enum WalletSlot {
    static let checking = 0
    static let shared = 1
    static let euro = 2
    static let card = 3
    static let property = 4
    static let cash = 5
    /// Wallets that expenses are paid from.
    static let spending = [checking, checking, shared, euro, card, card, cash]
}

extension HistoryGenerator {
    static let chf = checked { () throws(ModelError) in try Currency("CHF") }
    static let eur = checked { () throws(ModelError) in try Currency("EUR") }

    /// The first events of every history: household, presets, member, ratio, wallets, custom
    /// categories, payday, income settings, a first rate and budgets.
    mutating func enqueueSetup() {
        beginCommand(by: admin)
        emit(.householdCreated(HouseholdCreated(
            householdID: householdID, name: "Muster Household", baseCurrency: Self.chf,
            admin: admin, adminName: PersonalText("Anna", owner: admin))))
        for preset in CategoryPresets.all {
            emit(.categoryCreated(preset.creationEvent(in: householdID)))
            let id = preset.categoryID(in: householdID)
            if preset.group == .expense { expenseCategories.append(id) } else { incomeCategories.append(id) }
        }
        beginCommand(by: admin)
        emit(.memberAdded(MemberAdded(personID: member, name: PersonalText("Ben", owner: member), role: .member)))
        ratios = [
            MemberRatio(person: admin, ratio: Self.checked { () throws(ModelError) in try Ratio(basisPoints: 6_000) }),
            MemberRatio(person: member, ratio: Self.checked { () throws(ModelError) in try Ratio(basisPoints: 4_000) }),
        ]
        beginCommand(by: admin)
        emit(.splitRatioSet(SplitRatioSet(mode: .manual, ratios: ratios)))

        openWallet("UBS Checking", .bank, Self.chf, opening: 1_250_000, owner: admin)
        openWallet("Shared Household", .bank, Self.chf, opening: 300_000, owner: nil)
        openWallet("N26 Euro", .bank, Self.eur, opening: 480_000, owner: member)
        openWallet("Visa Card", .card, Self.chf, opening: 45_000, owner: admin)
        openWallet("Apartment", .property, Self.chf, opening: propertyValue, owner: nil)
        openWallet("Ben's Cash", .cash, Self.chf, opening: 20_000, owner: member)

        createCategory("Daycare", .expense, .needs, shareable: true)
        createCategory("Pet Care", .expense, .wants, shareable: true)
        createCategory("Side Project", .income, .none, shareable: false)

        beginCommand(by: admin)
        emit(.paydaySet(PaydaySet(day: 25, effectiveFrom: periodStart)))
        beginCommand(by: admin)
        emit(.incomeSettingsSet(IncomeSettingsSet(
            mode: .auto, monthlyIncome: Money(minorUnits: 950_000, currency: Self.chf),
            incomeCategoryIDs: [salaryCategory], graceDays: 3)))
        setExchangeRate()
        for category in expenseCategories.prefix(6) {
            beginCommand(by: admin)
            emit(.budgetAllocated(BudgetAllocated(
                categoryID: category, amount: Money(minorUnits: 20_000 + random.value(in: 0...80_000), currency: Self.chf),
                fromPeriod: periodStart)))
        }
    }

    mutating func openWallet(_ name: String, _ kind: WalletKind, _ currency: Currency, opening: Int64, owner: PersonID?) {
        let wallet = WalletState(id: ids.next(), kind: kind, currency: currency, owner: owner, balance: opening)
        wallets.append(wallet)
        beginCommand(by: owner ?? admin)
        emit(.walletOpened(WalletOpened(
            walletID: wallet.id, name: name, kind: kind, currency: currency, openingBalance: wallet.money(opening),
            openedOn: periodStart, owner: owner)))
    }

    mutating func createCategory(_ name: String, _ group: CategoryGroup, _ budgetType: BudgetType, shareable: Bool) {
        let id: CategoryID = ids.next()
        if group == .expense { expenseCategories.append(id) } else { incomeCategories.append(id) }
        beginCommand(by: admin)
        emit(.categoryCreated(CategoryCreated(
            categoryID: id, name: name, group: group, budgetType: budgetType, shareable: shareable,
            icon: nil, color: "#8BC34A", isPreset: false)))
    }
}
