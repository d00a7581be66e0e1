import SystemPackage
import Tally
import TallyModel
import TallyTestSupport
import Testing

/// G6 input limits (``LedgerLimits``): a note, tag or list over its bound is rejected with
/// `inputTooLarge` naming the field and the limit, and nothing is appended; at the bound the
/// command passes the size check.
@Suite("Command input limits (G6)")
struct CommandInputLimitTests {
    /// A household of 100 members (Alice, Bob and 98 more) and one contact.
    static func household() async throws -> (TestLedger, Scenario, members: [PersonID], contact: PersonID) {
        let test = try await TestLedger.make("limits")
        var s = Scenario()
        try await test.ledger.execute(s.setup())
        var members = [s.alice, s.bob]
        var commands: [Command] = []
        for index in 0..<(LedgerLimits.listEntriesMax - 2) {
            let person: PersonID = s.ids.next()
            members.append(person)
            commands.append(s.command(.addMember(personID: person, name: "Member \(index)")))
        }
        let contact: PersonID = s.ids.next()
        commands.append(s.command(.addPerson(personID: contact, name: "Contact")))
        try await test.ledger.execute(commands)
        return (test, s, members, contact)
    }

    static func equalRatios(_ s: Scenario, _ people: [PersonID]) -> [MemberRatio] {
        people.map { s.ratio($0, 10_000 / Int64(people.count)) }
    }

    static func expectTooLarge(_ ledger: Ledger, _ command: Command, field: String, limit: Int,
                               sourceLocation: SourceLocation = #_sourceLocation) async {
        await expectRejection(ledger, command, code: "inputTooLarge", rule: "G6", sourceLocation: sourceLocation)
        do {
            try await ledger.execute(command)
        } catch {
            #expect(error.message.contains("\"\(field)\"") && error.message.contains("\(limit)"), "\(error)",
                    sourceLocation: sourceLocation)
        }
    }

    @Test("G6: a note of noteBytesMax UTF-8 bytes is accepted, one byte more is inputTooLarge naming note (transaction, transfer, group expense)")
    func noteLimit() async throws {
        let (test, s0, members, _) = try await Self.household()
        var s = s0
        let atLimit = String(repeating: "é", count: LedgerLimits.noteBytesMax / 2)
        let over = atLimit + "a"
        var entry = s.expense(1200)
        entry.note = over
        await Self.expectTooLarge(test.ledger, s.command(.recordTransaction(transactionID: s.ids.next(), entry: entry)), field: "note", limit: LedgerLimits.noteBytesMax)
        entry.note = atLimit
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: entry)))

        let transfer = { (note: String, s: inout Scenario) in
            s.command(.recordTransfer(transferID: s.ids.next(), fromWalletID: s.joint, toWalletID: s.euroCard, amountSent: Scenario.chf(1000),
                                      amountReceived: Scenario.eur(1050), date: Scenario.date("2026-01-05"), note: note))
        }
        await Self.expectTooLarge(test.ledger, transfer(over, &s), field: "note", limit: LedgerLimits.noteBytesMax)
        try await test.ledger.execute(transfer(atLimit, &s))

        let group: TallyModel.GroupID = s.ids.next()
        try await test.ledger.execute(s.command(.createGroup(groupID: group, name: "Trip", members: [members[0], members[1]])))
        let expense = { (note: String, s: inout Scenario) in
            s.command(.recordGroupExpense(expenseID: s.ids.next(), groupID: group, paidBy: members[0], amount: Scenario.chf(3000),
                                          date: Scenario.date("2026-01-05"), note: note, split: .equal([members[0], members[1]])))
        }
        await Self.expectTooLarge(test.ledger, expense(over, &s), field: "note", limit: LedgerLimits.noteBytesMax)
        try await test.ledger.execute(expense(atLimit, &s))
    }

    @Test("G6: tagsPerTransactionMax tags of tagBytesMax bytes are accepted; one tag more, or one byte more in a tag, is inputTooLarge")
    func tagLimits() async throws {
        let test = try await TestLedger.make("tags")
        var s = Scenario()
        try await test.ledger.execute(s.setup())
        let longest = String(repeating: "t", count: LedgerLimits.tagBytesMax)
        var entry = s.expense(800)
        entry.tags = (0..<(LedgerLimits.tagsPerTransactionMax + 1)).map { "tag\($0)" }
        await Self.expectTooLarge(test.ledger, s.command(.recordTransaction(transactionID: s.ids.next(), entry: entry)), field: "tags", limit: LedgerLimits.tagsPerTransactionMax)
        entry.tags = [longest + "x"]
        await Self.expectTooLarge(test.ledger, s.command(.createTemplate(templateID: s.ids.next(), frequency: .monthly, entry: entry)), field: "tags[0]", limit: LedgerLimits.tagBytesMax)
        entry.tags = (0..<LedgerLimits.tagsPerTransactionMax).map { _ in longest }
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: entry)))
        #expect(await test.ledger.state.transactions.allEntries.count == 1)
    }

    @Test("G6: listEntriesMax ratios, override ratios, group members and split people are accepted; one entry more is inputTooLarge naming the list")
    func listLimits() async throws {
        let (test, s0, members, contact) = try await Self.household()
        var s = s0
        let limit = LedgerLimits.listEntriesMax
        let ratios = Self.equalRatios(s, members)
        await Self.expectTooLarge(test.ledger, s.command(.setSplitRatio(mode: .manual, ratios: ratios + [ratios[0]])), field: "ratios", limit: limit)
        try await test.ledger.execute(s.command(.setSplitRatio(mode: .manual, ratios: ratios)))

        var entry = s.expense(10_000, shared: true, override: ratios + [ratios[1]])
        await Self.expectTooLarge(test.ledger, s.command(.recordTransaction(transactionID: s.ids.next(), entry: entry)), field: "ratioOverride", limit: limit)
        entry.ratioOverride = ratios
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: entry)))

        let group: TallyModel.GroupID = s.ids.next()
        await Self.expectTooLarge(test.ledger, s.command(.createGroup(groupID: group, name: "Everyone", members: members + [contact])), field: "members", limit: limit)
        try await test.ledger.execute(s.command(.createGroup(groupID: group, name: "Everyone", members: members)))

        let expense = { (people: [PersonID], s: inout Scenario) in
            s.command(.recordGroupExpense(expenseID: s.ids.next(), groupID: group, paidBy: members[0], amount: Scenario.chf(100_000),
                                          date: Scenario.date("2026-01-05"), note: nil, split: .equal(people)))
        }
        await Self.expectTooLarge(test.ledger, expense(members + [members[0]], &s), field: "split.people", limit: limit)
        try await test.ledger.execute(expense(members, &s))
    }

    @Test("G6: settlementCoversMax covers and listEntriesMax income categories pass the size check; one more is inputTooLarge")
    func coversAndIncomeCategoryLimits() async throws {
        let test = try await TestLedger.make("covers")
        var s = Scenario()
        try await test.ledger.execute(s.setup())
        let settlement = { (count: Int, s: inout Scenario) in
            s.command(.recordSettlement(
                settlementID: s.ids.next(), from: s.bob, to: s.alice, amount: Scenario.chf(100), date: Scenario.date("2026-01-05"),
                covers: (0..<count).map { _ in SettledItem.transaction(s.ids.next()) }, isAdvance: false, groupID: nil))
        }
        await Self.expectTooLarge(test.ledger, settlement(LedgerLimits.settlementCoversMax + 1, &s), field: "covers", limit: LedgerLimits.settlementCoversMax)
        // At the limit the size check passes; the unknown items then break S6.
        await expectRejection(test.ledger, settlement(LedgerLimits.settlementCoversMax, &s), code: "settlementItemInvalid", rule: "S6")

        let income = { (count: Int, s: inout Scenario) in
            s.command(.setIncomeSettings(mode: .auto, monthlyIncome: Scenario.chf(0),
                                         incomeCategoryIDs: (0..<count).map { _ in s.salary }, graceDays: 3))
        }
        await Self.expectTooLarge(test.ledger, income(LedgerLimits.listEntriesMax + 1, &s), field: "incomeCategoryIDs", limit: LedgerLimits.listEntriesMax)
        do {
            try await test.ledger.execute(income(LedgerLimits.listEntriesMax, &s))
        } catch {
            #expect(error.code != "inputTooLarge", "\(error)")
        }
    }
}
