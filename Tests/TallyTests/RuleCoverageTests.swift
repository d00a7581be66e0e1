import Foundation
import Tally
import TallyModel
import TallyTestSupport
import Testing

/// One test for every `RuleViolation.Code` not asserted elsewhere, every ``LedgerLimits`` bound
/// on amounts, names, period closes and template occurrences, and the batch limits. Each checks
/// the code, the rule id and that nothing was appended (``expectRejection``).
///
/// Adding a `RuleViolation.Code` requires adding a test that asserts it with
/// `expectRejection(..., code: "<code>", rule: ...)` somewhere under `Tests/TallyTests`:
/// `everyRuleCodeHasATest` fails otherwise.
@Suite("Rule coverage")
struct RuleCoverageTests {
    /// The Scenario household plus a ledger.
    static func household() async throws -> (TestLedger, Scenario) {
        var s = Scenario()
        let test = try await TestLedger.make("rules")
        try await test.ledger.execute(s.setup())
        return (test, s)
    }

    static func name(bytes: Int) -> String { String(repeating: "n", count: bytes) }

    // MARK: General (H1, G5, G6)

    @Test("H1: a command before createHousehold is noHousehold; a second createHousehold is householdExists")
    func householdMustExistOnce() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("h1")
        await expectRejection(test.ledger, s.command(.addMember(personID: s.bob, name: "Bob")), code: "noHousehold", rule: "H1")
        try await test.ledger.execute(s.setup())
        await expectRejection(
            test.ledger, s.command(.createHousehold(householdID: s.ids.next(), name: "Other", baseCurrency: .eur, adminName: "Alice")),
            code: "householdExists", rule: "H1")
    }

    @Test("G5: an id already in use for a person, wallet, transaction or group is duplicateID")
    func reusedEntityIDIsDuplicateID() async throws {
        var (test, s) = try await Self.household()
        await expectRejection(test.ledger, s.command(.addMember(personID: s.bob, name: "Bob 2")), code: "duplicateID", rule: "G5")
        await expectRejection(
            test.ledger, s.command(.openWallet(walletID: s.joint, name: "Other", kind: .cash, openingBalance: Scenario.chf(0),
                                               openedOn: Scenario.date("2026-01-01"), owner: nil)),
            code: "duplicateID", rule: "G5")
        let transaction: TransactionID = s.ids.next()
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: transaction, entry: s.expense(500))))
        await expectRejection(test.ledger, s.command(.recordTransaction(transactionID: transaction, entry: s.expense(700))), code: "duplicateID", rule: "G5")
        let group: GroupID = s.ids.next()
        try await test.ledger.execute(s.command(.createGroup(groupID: group, name: "Trip", members: [s.alice, s.bob])))
        await expectRejection(test.ledger, s.command(.createGroup(groupID: group, name: "Trip 2", members: [s.alice, s.bob])),
                              code: "duplicateID", rule: "G5")
    }

    @Test("G5: a command id executed before is duplicateCommandID, alone or later in the same batch")
    func reusedCommandIDIsDuplicateCommandID() async throws {
        var (test, s) = try await Self.household()
        let rename = s.command(.renameWallet(walletID: s.joint, name: "Joint account"))
        try await test.ledger.execute(rename)
        await expectRejection(test.ledger, rename, code: "duplicateCommandID", rule: "G5")
        let first = s.command(.renameWallet(walletID: s.joint, name: "Shared"))
        let repeated = Command(commandID: first.commandID, actor: s.alice, recordedAt: first.recordedAt,
                               action: .renameWallet(walletID: s.joint, name: "Shared again"))
        await expectRejection(test.ledger, [first, repeated], code: "duplicateCommandID", rule: "G5")
        #expect(await test.ledger.state.wallets[s.joint]?.name == "Joint account")
    }

    @Test("G6: an empty or blank name is nameRequired")
    func blankNameIsNameRequired() async throws {
        var (test, s) = try await Self.household()
        await expectRejection(test.ledger, s.command(.renameWallet(walletID: s.joint, name: "")), code: "nameRequired", rule: "G6")
        await expectRejection(test.ledger, s.command(.addPerson(personID: s.ids.next(), name: "  ")), code: "nameRequired", rule: "G6")
        await expectRejection(test.ledger, s.command(.createGroup(groupID: s.ids.next(), name: "\t", members: [s.alice, s.bob])),
                              code: "nameRequired", rule: "G6")
    }

    @Test("G6: a name of nameBytesMax UTF-8 bytes is accepted, one byte more is invalidValue")
    func nameLongerThanLimitIsInvalidValue() async throws {
        var (test, s) = try await Self.household()
        let limit = LedgerLimits.nameBytesMax
        await expectRejection(test.ledger, s.command(.renameWallet(walletID: s.joint, name: Self.name(bytes: limit + 1))),
                              code: "invalidValue", rule: "G6")
        await expectRejection(test.ledger, s.command(.addPerson(personID: s.ids.next(), name: Self.name(bytes: limit - 1) + "é")),
                              code: "invalidValue", rule: "G6")
        try await test.ledger.execute(s.command(.renameWallet(walletID: s.joint, name: Self.name(bytes: limit))))
        try await test.ledger.execute(s.command(.addPerson(personID: s.ids.next(), name: Self.name(bytes: limit - 2) + "é")))
    }

    @Test("G6: an amount of amountMinorUnitsMax is accepted, one minor unit more is invalidValue")
    func amountOverLimitIsInvalidValue() async throws {
        var (test, s) = try await Self.household()
        let limit = LedgerLimits.amountMinorUnitsMax
        let open = { (s: inout Scenario, units: Int64) in
            s.command(.openWallet(walletID: s.ids.next(), name: "Vault \(units)", kind: .savings,
                                  openingBalance: Scenario.chf(units), openedOn: Scenario.date("2026-01-01"), owner: nil))
        }
        await expectRejection(test.ledger, open(&s, limit + 1), code: "invalidValue", rule: "G6")
        await expectRejection(test.ledger, open(&s, -limit - 1), code: "invalidValue", rule: "G6")
        await expectRejection(test.ledger, s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(limit + 1))),
                              code: "invalidValue", rule: "G6")
        await expectRejection(test.ledger, s.command(.recordBalance(walletID: s.joint, date: Scenario.date("2026-01-06"), balance: Scenario.chf(limit + 1))),
                              code: "invalidValue", rule: "G6")
        try await test.ledger.execute(open(&s, limit))
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(limit))))
    }

    @Test("G6: a recordedAt outside years 1...9999 is invalidValue")
    func recordedAtOutOfRangeIsInvalidValue() async throws {
        var (test, s) = try await Self.household()
        let payday = Command(commandID: s.ids.next(), actor: s.alice, recordedAt: Timestamp(millisecondsSinceEpoch: .max),
                             action: .setPayday(day: 25))
        await expectRejection(test.ledger, payday, code: "invalidValue", rule: "G6")
    }

    // MARK: Household and people (H3)

    @Test("H3: archiving an active member is notAMember; archiving twice is personArchived; a removed payer is notAMember")
    func archiveAndMembershipRules() async throws {
        var (test, s) = try await Self.household()
        await expectRejection(test.ledger, s.command(.archivePerson(personID: s.bob)), code: "notAMember", rule: "H3")
        let carol: PersonID = s.ids.next()
        try await test.ledger.execute(s.command(.addPerson(personID: carol, name: "Carol")))
        try await test.ledger.execute(s.command(.archivePerson(personID: carol)))
        await expectRejection(test.ledger, s.command(.archivePerson(personID: carol)), code: "personArchived", rule: "H3")
        try await test.ledger.execute(s.command(.removeMember(personID: s.bob, acknowledgeUnsettled: false)))
        await expectRejection(test.ledger, s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(500, payer: s.bob))),
                              code: "notAMember", rule: "H3")
        await expectRejection(test.ledger, s.command(.transferAdmin(to: s.bob)), code: "notAMember", rule: "H3")
    }

    // MARK: Wallets (W1, W4, W6)

    @Test("W1: a wallet id that does not exist is unknownWallet")
    func missingWalletIsUnknownWallet() async throws {
        var (test, s) = try await Self.household()
        await expectRejection(test.ledger, s.command(.renameWallet(walletID: s.ids.next(), name: "Ghost")), code: "unknownWallet", rule: "W1")
        var entry = s.expense(500)
        entry.walletID = s.ids.next()
        await expectRejection(test.ledger, s.command(.recordTransaction(transactionID: s.ids.next(), entry: entry)), code: "unknownWallet", rule: "W1")
    }

    @Test("W4: a deactivated or closed wallet takes no entries (walletInactive); deactivating twice or reactivating an active one is walletStateUnchanged")
    func inactiveWalletRules() async throws {
        var (test, s) = try await Self.household()
        await expectRejection(test.ledger, s.command(.reactivateWallet(walletID: s.joint)), code: "walletStateUnchanged", rule: "W4")
        try await test.ledger.execute(s.command(.deactivateWallet(walletID: s.joint)))
        await expectRejection(test.ledger, s.command(.deactivateWallet(walletID: s.joint)), code: "walletStateUnchanged", rule: "W4")
        await expectRejection(test.ledger, s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(500))), code: "walletInactive", rule: "W4")
        try await test.ledger.execute(s.command(.closeWallet(walletID: s.euroCard, closedOn: Scenario.date("2026-01-06"))))
        await expectRejection(test.ledger, s.command(.closeWallet(walletID: s.euroCard, closedOn: Scenario.date("2026-01-07"))),
                              code: "walletInactive", rule: "W4")
    }

    @Test("W6: an amount in another currency than its wallet is currencyMismatch")
    func amountInOtherCurrencyIsCurrencyMismatch() async throws {
        var (test, s) = try await Self.household()
        var entry = s.expense(500)
        entry.amount = Scenario.eur(500)
        await expectRejection(test.ledger, s.command(.recordTransaction(transactionID: s.ids.next(), entry: entry)), code: "currencyMismatch", rule: "W6")
        await expectRejection(test.ledger, s.command(.recordBalance(walletID: s.euroCard, date: Scenario.date("2026-01-06"), balance: Scenario.chf(0))),
                              code: "currencyMismatch", rule: "W6")
        await expectRejection(test.ledger, s.command(.allocateBudget(categoryID: s.groceries, amount: Scenario.eur(100), fromPeriod: nil)),
                              code: "currencyMismatch", rule: "W6")
    }

    @Test("W6: a transfer to the same wallet, different amounts in one currency, and deleting an unknown transfer are rejected")
    func transferRules() async throws {
        var (test, s) = try await Self.household()
        let cash: WalletID = s.ids.next()
        try await test.ledger.execute(s.command(.openWallet(walletID: cash, name: "Cash", kind: .cash, openingBalance: Scenario.chf(0),
                                                            openedOn: Scenario.date("2026-01-01"), owner: nil)))
        let transfer = { (s: inout Scenario, to: WalletID, sent: Int64, received: Int64) in
            s.command(.recordTransfer(transferID: s.ids.next(), fromWalletID: s.joint, toWalletID: to, amountSent: Scenario.chf(sent),
                                      amountReceived: Scenario.chf(received), date: Scenario.date("2026-01-05"), note: nil))
        }
        await expectRejection(test.ledger, transfer(&s, s.joint, 1000, 1000), code: "transferToSameWallet", rule: "W6")
        await expectRejection(test.ledger, transfer(&s, cash, 1000, 900), code: "transferAmountsDiffer", rule: "W6")
        await expectRejection(test.ledger, s.command(.deleteTransfer(transferID: s.ids.next())), code: "unknownTransfer", rule: "W6")
        let id: TransferID = s.ids.next()
        try await test.ledger.execute(s.command(.recordTransfer(transferID: id, fromWalletID: s.joint, toWalletID: cash, amountSent: Scenario.chf(1000),
                                                                amountReceived: Scenario.chf(1000), date: Scenario.date("2026-01-05"), note: nil)))
        try await test.ledger.execute(s.command(.deleteTransfer(transferID: id)))
        await expectRejection(test.ledger, s.command(.deleteTransfer(transferID: id)), code: "unknownTransfer", rule: "W6")
    }

    // MARK: Categories (C1, C3)

    @Test("C1: an unknown category is unknownCategory; a shared transaction in a non-shareable category is categoryNotShareable")
    func categoryExistenceAndSharing() async throws {
        var (test, s) = try await Self.household()
        await expectRejection(test.ledger, s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(500, category: s.ids.next()))),
                              code: "unknownCategory", rule: "C1")
        await expectRejection(test.ledger, s.command(.renameCategory(categoryID: s.ids.next(), name: "Ghost")), code: "unknownCategory", rule: "C1")
        let personal: CategoryID = s.ids.next()
        try await test.ledger.execute(s.command(.createCategory(categoryID: personal, name: "Hobby", group: .expense, budgetType: .wants,
                                                                shareable: false, icon: nil, color: nil)))
        await expectRejection(test.ledger, s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(500, shared: true, category: personal))),
                              code: "categoryNotShareable", rule: "C1")
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(500, category: personal))))
    }

    @Test("C3: a deactivated category takes no new entries (categoryInactive); deactivating twice or reactivating an active one is categoryStateUnchanged")
    func inactiveCategoryRules() async throws {
        var (test, s) = try await Self.household()
        await expectRejection(test.ledger, s.command(.reactivateCategory(categoryID: s.groceries)), code: "categoryStateUnchanged", rule: "C3")
        try await test.ledger.execute(s.command(.deactivateCategory(categoryID: s.groceries)))
        await expectRejection(test.ledger, s.command(.deactivateCategory(categoryID: s.groceries)), code: "categoryStateUnchanged", rule: "C3")
        await expectRejection(test.ledger, s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(500))), code: "categoryInactive", rule: "C3")
        try await test.ledger.execute(s.command(.reactivateCategory(categoryID: s.groceries)))
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(500))))
    }

    // MARK: Transactions and templates (T1, T4)

    @Test("T1: editing, deleting or restoring a transaction id that does not exist is unknownTransaction")
    func missingTransactionIsUnknownTransaction() async throws {
        var (test, s) = try await Self.household()
        await expectRejection(test.ledger, s.command(.deleteTransaction(transactionID: s.ids.next())), code: "unknownTransaction", rule: "T1")
        await expectRejection(test.ledger, s.command(.editTransaction(transactionID: s.ids.next(), entry: s.expense(500))), code: "unknownTransaction", rule: "T1")
        await expectRejection(test.ledger, s.command(.restoreTransaction(transactionID: s.ids.next())), code: "unknownTransaction", rule: "T1")
    }

    @Test("T4: an unknown template is unknownTemplate; pausing a paused or resuming a running one, or activating a paused one, is templateStateUnchanged")
    func templateStateRules() async throws {
        var (test, s) = try await Self.household()
        await expectRejection(test.ledger, s.command(.pauseTemplate(templateID: s.ids.next())), code: "unknownTemplate", rule: "T4")
        let template: TemplateID = s.ids.next()
        try await test.ledger.execute(s.command(.createTemplate(templateID: template, frequency: .monthly, entry: s.expense(5000))))
        await expectRejection(test.ledger, s.command(.resumeTemplate(templateID: template)), code: "templateStateUnchanged", rule: "T4")
        try await test.ledger.execute(s.command(.pauseTemplate(templateID: template)))
        await expectRejection(test.ledger, s.command(.pauseTemplate(templateID: template)), code: "templateStateUnchanged", rule: "T4")
        await expectRejection(test.ledger, s.command(.activateTemplate(templateID: template, transactionID: s.ids.next(), date: Scenario.date("2026-02-05"))),
                              code: "templateStateUnchanged", rule: "T4")
    }

    @Test("T4: a date that is not an occurrence is notAnOccurrence; the search stops after templateOccurrencesMax occurrences")
    func templateOccurrenceRules() async throws {
        var (test, s) = try await Self.household()
        let template: TemplateID = s.ids.next()
        try await test.ledger.execute(s.command(.createTemplate(templateID: template, frequency: .weekly, entry: s.expense(5000))))  // anchored 2026-01-05
        let activate = { (s: inout Scenario, date: LocalDate) in
            s.command(.activateTemplate(templateID: template, transactionID: s.ids.next(), date: date))
        }
        await expectRejection(test.ledger, activate(&s, Scenario.date("2026-01-06")), code: "notAnOccurrence", rule: "T4")
        await expectRejection(test.ledger, activate(&s, Scenario.date("2026-01-04")), code: "notAnOccurrence", rule: "T4")
        let anchor = Scenario.date("2026-01-05")
        let lastSearched = try anchor.adding(days: Int64(7 * (LedgerLimits.templateOccurrencesMax - 1)))
        let beyond = try anchor.adding(days: Int64(7 * LedgerLimits.templateOccurrencesMax))
        await expectRejection(test.ledger, activate(&s, beyond), code: "notAnOccurrence", rule: "T4")
        try await test.ledger.execute(activate(&s, lastSearched))
        try await test.ledger.execute(activate(&s, Scenario.date("2026-01-12")))
    }

    // MARK: Sharing (S1, S2, S6, S7)

    @Test("S1: a split ratio that does not list every member exactly once is splitRatioMembersMismatch")
    func splitRatioMustListMembers() async throws {
        var (test, s) = try await Self.household()
        await expectRejection(test.ledger, s.command(.setSplitRatio(mode: .manual, ratios: [s.ratio(s.alice, 10_000)])),
                              code: "splitRatioMembersMismatch", rule: "S1")
        await expectRejection(test.ledger, s.command(.setSplitRatio(mode: .manual, ratios: [s.ratio(s.alice, 5000), s.ratio(s.alice, 5000)])),
                              code: "splitRatioMembersMismatch", rule: "S1")
        let carol: PersonID = s.ids.next()
        try await test.ledger.execute(s.command(.addPerson(personID: carol, name: "Carol")))
        await expectRejection(
            test.ledger, s.command(.setSplitRatio(mode: .manual, ratios: [s.ratio(s.alice, 4000), s.ratio(s.bob, 3000), s.ratio(carol, 3000)])),
            code: "splitRatioMembersMismatch", rule: "S1")
        try await test.ledger.execute(s.command(.setSplitRatio(mode: .manual, ratios: [s.ratio(s.alice, 6000), s.ratio(s.bob, 4000)])))
    }

    @Test("S2: a shared transaction in a one-member household is sharingNeedsTwoMembers")
    func sharingNeedsTwoMembers() async throws {
        var (test, s) = try await Self.household()
        try await test.ledger.execute(s.command(.removeMember(personID: s.bob, acknowledgeUnsettled: false)))
        await expectRejection(test.ledger, s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(500, shared: true))),
                              code: "sharingNeedsTwoMembers", rule: "S2")
    }

    @Test("S6: a settlement from a person to themselves is settlementToSelf")
    func settlementToSelf() async throws {
        var (test, s) = try await Self.household()
        await expectRejection(
            test.ledger, s.command(.recordSettlement(settlementID: s.ids.next(), from: s.alice, to: s.alice, amount: Scenario.chf(100),
                                                     date: Scenario.date("2026-01-05"), covers: nil, isAdvance: true, groupID: nil)),
            code: "settlementToSelf", rule: "S6")
    }

    @Test("S7: unknown groups, groups of fewer than two people, outsiders and empty or zero-weight splits are rejected")
    func groupRules() async throws {
        var (test, s) = try await Self.household()
        let carol: PersonID = s.ids.next()
        try await test.ledger.execute(s.command(.addPerson(personID: carol, name: "Carol")))
        await expectRejection(test.ledger, s.command(.createGroup(groupID: s.ids.next(), name: "Solo", members: [s.alice])),
                              code: "groupNeedsTwoMembers", rule: "S7")
        await expectRejection(test.ledger, s.command(.createGroup(groupID: s.ids.next(), name: "Twice", members: [s.alice, s.alice])),
                              code: "groupNeedsTwoMembers", rule: "S7")
        let group: GroupID = s.ids.next()
        try await test.ledger.execute(s.command(.createGroup(groupID: group, name: "Trip", members: [s.alice, s.bob])))
        let expense = { (s: inout Scenario, group: GroupID, payer: PersonID, split: GroupSplit) in
            s.command(.recordGroupExpense(expenseID: s.ids.next(), groupID: group, paidBy: payer, amount: Scenario.chf(3000),
                                          date: Scenario.date("2026-01-05"), note: nil, split: split))
        }
        await expectRejection(test.ledger, expense(&s, s.ids.next(), s.alice, .equal([s.alice, s.bob])), code: "unknownGroup", rule: "S7")
        await expectRejection(test.ledger, expense(&s, group, carol, .equal([s.alice, s.bob])), code: "notInGroup", rule: "S7")
        await expectRejection(test.ledger, expense(&s, group, s.alice, .equal([s.alice, carol])), code: "notInGroup", rule: "S7")
        await expectRejection(test.ledger, expense(&s, group, s.alice, .equal([])), code: "invalidShares", rule: "S7")
        await expectRejection(test.ledger, expense(&s, group, s.alice, .equal([s.bob, s.bob])), code: "invalidShares", rule: "S7")
        await expectRejection(test.ledger, expense(&s, group, s.alice, .shares([MemberWeight(person: s.alice, weight: 1),
                                                                                  MemberWeight(person: s.bob, weight: 0)])),
                              code: "invalidShares", rule: "S7")
        await expectRejection(
            test.ledger, s.command(.recordSettlement(settlementID: s.ids.next(), from: s.bob, to: s.alice, amount: Scenario.chf(100),
                                                     date: Scenario.date("2026-01-05"), covers: nil, isAdvance: true, groupID: s.ids.next())),
            code: "unknownGroup", rule: "S7")
        await expectRejection(
            test.ledger, s.command(.recordSettlement(settlementID: s.ids.next(), from: carol, to: s.alice, amount: Scenario.chf(100),
                                                     date: Scenario.date("2026-01-05"), covers: nil, isAdvance: true, groupID: group)),
            code: "notInGroup", rule: "S7")
        try await test.ledger.execute(expense(&s, group, s.alice, .equal([s.alice, s.bob])))
    }

    // MARK: Budgets (B2, B6, B7)

    @Test("B2: a negative budget is budgetMustNotBeNegative")
    func negativeBudget() async throws {
        var (test, s) = try await Self.household()
        await expectRejection(test.ledger, s.command(.allocateBudget(categoryID: s.groceries, amount: Scenario.chf(-1), fromPeriod: nil)),
                              code: "budgetMustNotBeNegative", rule: "B2")
        try await test.ledger.execute(s.command(.allocateBudget(categoryID: s.groceries, amount: Scenario.chf(0), fromPeriod: nil)))
    }

    @Test("B6: a command that would close more than periodsClosedPerCommandMax periods is periodGapTooLarge; exactly the limit closes")
    func periodGapLimit() async throws {
        var (test, s) = try await Self.household()
        try await test.ledger.execute(s.command(.setPayday(day: 25)))  // open period 2025-12-25 ... 2026-01-24
        let before = await test.ledger.lastSequenceNumber
        // Period k (0-based) ends on the 24th, k months after 2026-01: period 1199 ends 2125-12-24.
        s.advance(to: "2126-02-05")  // after the end of period 1200: 1201 closes
        await expectRejection(test.ledger, s.command(.closePeriod), code: "periodGapTooLarge", rule: "B6")
        s.advance(to: "2126-01-05")  // after the end of period 1199, before the end of period 1200: 1200 closes
        try await test.ledger.execute(s.command(.closePeriod))
        #expect(await test.ledger.lastSequenceNumber - before == UInt64(LedgerLimits.periodsClosedPerCommandMax))
    }

    @Test("B7: grace days outside 0...31 or a negative income are invalidIncomeSettings; confirming an expense as a bonus is notAnIncome")
    func incomeRules() async throws {
        var (test, s) = try await Self.household()
        let settings = { (s: inout Scenario, income: Int64, grace: Int) in
            s.command(.setIncomeSettings(mode: .manual, monthlyIncome: Scenario.chf(income), incomeCategoryIDs: [s.salary], graceDays: grace))
        }
        await expectRejection(test.ledger, settings(&s, 500_000, 32), code: "invalidIncomeSettings", rule: "B7")
        await expectRejection(test.ledger, settings(&s, 500_000, -1), code: "invalidIncomeSettings", rule: "B7")
        await expectRejection(test.ledger, settings(&s, -1, 3), code: "invalidIncomeSettings", rule: "B7")
        try await test.ledger.execute(settings(&s, 500_000, 31))
        let expense: TransactionID = s.ids.next()
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: expense, entry: s.expense(500))))
        await expectRejection(test.ledger, s.command(.confirmBonus(transactionID: expense)), code: "notAnIncome", rule: "B7")
    }

    // MARK: Batches

    @Test("G6: an empty batch and a batch over commandsPerBatchMax are invalidBatch naming the limit; nothing is appended")
    func batchSizeLimits() async throws {
        var (test, s) = try await Self.household()
        let limit = LedgerOptions().commandsPerBatchMax
        let before = await test.ledger.lastSequenceNumber
        let people = (0...limit).map { index in s.command(.addPerson(personID: s.ids.next(), name: "Person \(index)")) }
        for batch in [[], people] {
            do {
                try await test.ledger.execute(batch)
                Issue.record("a batch of \(batch.count) commands was accepted")
            } catch {
                #expect(error == .invalidBatch(commandCount: batch.count, limit: limit))
                #expect(error.code == "invalidBatch" && error.rule == nil)
                #expect(error.message.contains("\(limit)"), "\(error)")
            }
            #expect(await test.ledger.lastSequenceNumber == before)
        }
        try await test.ledger.execute(Array(people.prefix(limit)))
        #expect(await test.ledger.lastSequenceNumber == before + UInt64(limit))
    }

    // MARK: Coverage

    @Test("every RuleViolation.Code is asserted by an expectRejection(code:) in Tests/TallyTests")
    func everyRuleCodeHasATest() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        #expect(files.count > 5, "the test sources were not found at \(directory.path)")
        var asserted: Set<String> = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: /code: "(\w+)", rule: "/) { asserted.insert(String(match.output.1)) }
        }
        let missing = RuleViolation.Code.allCases.map(\.rawValue).filter { !asserted.contains($0) }
        #expect(missing.isEmpty, "rule codes without a test: \(missing.joined(separator: ", "))")
    }
}
