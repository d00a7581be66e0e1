import Tally
import TallyModel
import TallyTestSupport
import Testing

/// R1 on a ledger: creating recurring items with terms, price changes, pause and resume with
/// dates, cancel, posting due occurrences (idempotent), and the subscription queries.
@Suite("Subscriptions (R1)")
struct SubscriptionTests {
    static func household() async throws -> (TestLedger, Scenario) {
        var s = Scenario()
        let test = try await TestLedger.make("subscriptions")
        try await test.ledger.execute(s.setup())
        return (test, s)
    }

    /// A CHF expense entry of `minorUnits` anchored on `anchor`.
    static func entry(_ s: Scenario, _ minorUnits: Int64, anchor: String, wallet: WalletID? = nil, currency: Currency = .chf) -> TransactionEntry {
        var entry = s.expense(minorUnits)
        entry.date = Scenario.date(anchor)
        entry.amount = Money(minorUnits: minorUnits, currency: currency)
        if let wallet { entry.walletID = wallet }
        return entry
    }

    static func post(_ test: TestLedger, _ s: inout Scenario, through: String) async throws -> [EventPosition] {
        try await test.ledger.execute(s.command(.postDueOccurrences(through: Scenario.date(through))))
    }

    static func history(_ test: TestLedger, _ id: TemplateID) async throws -> [(String, Int64)] {
        try await test.ledger.billingHistory(of: id, visibleTo: .audit).map { ($0.date.isoString, $0.amount.minorUnits) }
    }

    @Test("R1: posting through a date records each billed occurrence once; posting again records nothing; balances see them")
    func postingIsIdempotent() async throws {
        var (test, s) = try await Self.household()
        let template: TemplateID = s.ids.next()
        try await test.ledger.execute(s.command(.createTemplate(templateID: template, frequency: .monthly, entry: Self.entry(s, 1990, anchor: "2026-01-31"))))
        let first = try await Self.post(test, &s, through: "2026-04-30")
        #expect(first.count == 4)
        #expect(try await Self.history(test, template).map(\.0) == ["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30"])
        let before = await test.ledger.lastSequenceNumber
        #expect(try await Self.post(test, &s, through: "2026-04-30").isEmpty)
        #expect(await test.ledger.lastSequenceNumber == before, "the second post appends nothing")
        let balance = try await test.ledger.readModels.wallets.balance(of: s.joint)
        #expect(balance == Scenario.chf(100_000 - 4 * 1990))
        // The same occurrence by hand is refused; after a reopen the key still holds.
        await expectRejection(test.ledger, s.command(.activateTemplate(templateID: template, transactionID: s.ids.next(), date: Scenario.date("2026-02-28"))),
                              code: "occurrenceAlreadyPosted", rule: "R1")
        try await test.ledger.close()
        let reopened = try await test.reopen()
        #expect(try await reopened.execute(s.command(.postDueOccurrences(through: Scenario.date("2026-04-30")))).isEmpty)
        #expect(try await reopened.execute(s.command(.postDueOccurrences(through: Scenario.date("2026-05-31")))).count == 1)
        try await reopened.close()
    }

    @Test("R1: a price change between two occurrences: the earlier keeps the old price, the later uses the new; no change reaches back over a posted one")
    func priceChangeBetweenOccurrences() async throws {
        var (test, s) = try await Self.household()
        let template: TemplateID = s.ids.next()
        try await test.ledger.execute(s.command(.createTemplate(templateID: template, frequency: .monthly, entry: Self.entry(s, 1000, anchor: "2026-01-05"))))
        try await test.ledger.execute(s.command(.changeTemplatePrice(templateID: template, amount: Scenario.chf(1500), effectiveFrom: Scenario.date("2026-02-10"))))
        _ = try await Self.post(test, &s, through: "2026-03-31")
        #expect(try await Self.history(test, template).map(\.1) == [1000, 1000, 1500])
        await expectRejection(
            test.ledger, s.command(.changeTemplatePrice(templateID: template, amount: Scenario.chf(900), effectiveFrom: Scenario.date("2026-03-05"))),
            code: "occurrenceAlreadyPosted", rule: "R1")
        try await test.ledger.execute(s.command(.changeTemplatePrice(templateID: template, amount: Scenario.chf(900), effectiveFrom: Scenario.date("2026-03-06"))))
        let item = try #require(await test.ledger.subscriptions(on: Scenario.date("2026-03-20"), visibleTo: .audit).first)
        #expect(item.price.minorUnits == 900)
        #expect(item.next?.date == Scenario.date("2026-04-05"))
        #expect(item.schedule.priceChanges.map(\.amount.minorUnits) == [1500, 900])
    }

    @Test("R1: a pause with a resume date skips the occurrences inside it; an open pause ends at a dated resume")
    func pauseAndResumeAcrossOccurrences() async throws {
        var (test, s) = try await Self.household()
        let template: TemplateID = s.ids.next()
        try await test.ledger.execute(s.command(.createTemplate(templateID: template, frequency: .monthly, entry: Self.entry(s, 1000, anchor: "2026-01-05"))))
        try await test.ledger.execute(s.command(.pauseTemplate(templateID: template, from: Scenario.date("2026-02-01"), resumesOn: Scenario.date("2026-03-10"))))
        try await test.ledger.execute(s.command(.pauseTemplate(templateID: template, from: Scenario.date("2026-05-01"))))
        await expectRejection(test.ledger, s.command(.pauseTemplate(templateID: template)), code: "templateStateUnchanged", rule: "T4")
        #expect(await test.ledger.subscriptions(on: Scenario.date("2026-05-02"), visibleTo: .audit).first?.standing == .paused)
        try await test.ledger.execute(s.command(.resumeTemplate(templateID: template, on: Scenario.date("2026-06-01"))))
        _ = try await Self.post(test, &s, through: "2026-06-30")
        #expect(try await Self.history(test, template).map(\.0) == ["2026-01-05", "2026-04-05", "2026-06-05"])
        await expectRejection(test.ledger, s.command(.pauseTemplate(templateID: template, from: Scenario.date("2026-08-01"), resumesOn: Scenario.date("2026-07-01"))),
                              code: "recurringTermsInvalid", rule: "R1")
    }

    @Test("R1: a pause and a resume without dates take the command's date: what was posted stays billed, and resuming never bills the months the pause skipped")
    func undatedPauseAndResumeUseTheCommandDate() async throws {
        var (test, s) = try await Self.household()
        let template: TemplateID = s.ids.next()
        try await test.ledger.execute(s.command(.createTemplate(templateID: template, frequency: .monthly, entry: Self.entry(s, 1500, anchor: "2026-01-05"))))
        #expect(try await Self.post(test, &s, through: "2026-02-10").count == 2)
        s.advance(to: "2026-02-20")
        try await test.ledger.execute(s.command(.pauseTemplate(templateID: template)))
        let calendar = try await test.ledger.renewalCalendar(for: YearMonth(year: 2026, month: 2), visibleTo: .audit)
        #expect(calendar.map(\.date.isoString) == ["2026-02-05"], "the posted February charge is still listed after the pause")
        s.advance(to: "2026-06-15")
        try await test.ledger.execute(s.command(.resumeTemplate(templateID: template)))
        #expect(try await Self.post(test, &s, through: "2026-06-30").isEmpty, "June 5 fell in the pause")
        #expect(try await Self.post(test, &s, through: "2026-07-31").count == 1)
        #expect(try await Self.history(test, template).map(\.0) == ["2026-01-05", "2026-02-05", "2026-07-05"])
        await expectRejection(test.ledger, s.command(.pauseTemplate(templateID: template, from: Scenario.date("2026-07-05"))),
                              code: "occurrenceAlreadyPosted", rule: "R1")
    }

    @Test("R1: posting past a template's last possible occurrence (templateOccurrencesMax) is refused by name, never cut short silently")
    func postingPastTheOccurrenceCapIsRefused() async throws {
        var (test, s) = try await Self.household()
        let template: TemplateID = s.ids.next()
        try await test.ledger.execute(s.command(.createTemplate(templateID: template, frequency: .daily, entry: Self.entry(s, 100, anchor: "1990-01-01"))))
        do {
            _ = try await test.ledger.execute(s.command(.postDueOccurrences(through: Scenario.date("2026-01-01"))))
            Issue.record("posting 13,150 daily occurrences was accepted")
        } catch {
            #expect(error.code == "inputTooLarge" && error.message.contains("templateOccurrencesMax") && error.message.contains("2017-05-18"), "\(error)")
        }
    }

    @Test("R1: an end count posts that many occurrences; an end date with a count is recurringTermsInvalid")
    func endCount() async throws {
        var (test, s) = try await Self.household()
        let template: TemplateID = s.ids.next()
        try await test.ledger.execute(s.command(.createTemplate(templateID: template, frequency: .weekly, entry: Self.entry(s, 500, anchor: "2026-01-05"),
                                                                terms: TemplateTerms(occurrenceCount: 3))))
        #expect(try await Self.post(test, &s, through: "2026-12-31").count == 3)
        let item = try #require(await test.ledger.subscriptions(on: Scenario.date("2026-02-01"), visibleTo: .audit).first)
        #expect(item.standing == .ended)
        #expect(item.next == nil)
        await expectRejection(
            test.ledger,
            s.command(.createTemplate(templateID: s.ids.next(), frequency: .weekly, entry: Self.entry(s, 500, anchor: "2026-01-05"),
                                      terms: TemplateTerms(endDate: Scenario.date("2026-06-01"), occurrenceCount: 3))),
            code: "recurringTermsInvalid", rule: "R1")
    }

    @Test("R1: occurrences in the free trial are not posted or counted; the first charge is the first occurrence on or after the trial's end")
    func freeTrial() async throws {
        var (test, s) = try await Self.household()
        let template: TemplateID = s.ids.next()
        try await test.ledger.execute(s.command(.createTemplate(templateID: template, frequency: .monthly, entry: Self.entry(s, 1000, anchor: "2026-01-05"),
                                                                terms: TemplateTerms(trialEndsOn: Scenario.date("2026-02-20")))))
        let inTrial = try #require(await test.ledger.subscriptions(on: Scenario.date("2026-01-10"), visibleTo: .audit).first)
        #expect(inTrial.standing == .trial)
        #expect(inTrial.next?.date == Scenario.date("2026-03-05"))
        #expect(try await test.ledger.subscriptionTotals(on: Scenario.date("2026-01-10"), visibleTo: .audit).count == 0)
        await expectRejection(test.ledger, s.command(.activateTemplate(templateID: template, transactionID: s.ids.next(), date: Scenario.date("2026-02-05"))),
                              code: "notAnOccurrence", rule: "T4")
        _ = try await Self.post(test, &s, through: "2026-03-31")
        #expect(try await Self.history(test, template).map(\.0) == ["2026-03-05"])
        #expect(try await test.ledger.subscriptionTotals(on: Scenario.date("2026-03-10"), visibleTo: .audit).monthly.minorUnits == 1000)
    }

    @Test("R1: cancel ends the item from its date and keeps its history; a cancelled item takes no pause or price change")
    func cancelKeepsHistory() async throws {
        var (test, s) = try await Self.household()
        let template: TemplateID = s.ids.next()
        try await test.ledger.execute(s.command(.createTemplate(templateID: template, frequency: .monthly, entry: Self.entry(s, 1000, anchor: "2026-01-05"))))
        _ = try await Self.post(test, &s, through: "2026-01-31")
        await expectRejection(test.ledger, s.command(.cancelTemplate(templateID: template, effectiveOn: Scenario.date("2026-01-05"))),
                              code: "occurrenceAlreadyPosted", rule: "R1")
        try await test.ledger.execute(s.command(.cancelTemplate(templateID: template, effectiveOn: Scenario.date("2026-03-01"))))
        _ = try await Self.post(test, &s, through: "2026-06-30")
        #expect(try await Self.history(test, template).map(\.0) == ["2026-01-05", "2026-02-05"])
        #expect(await test.ledger.subscriptions(on: Scenario.date("2026-03-01"), visibleTo: .audit).first?.standing == .cancelled)
        await expectRejection(test.ledger, s.command(.pauseTemplate(templateID: template)), code: "templateCancelled", rule: "R1")
        await expectRejection(
            test.ledger, s.command(.changeTemplatePrice(templateID: template, amount: Scenario.chf(1), effectiveFrom: Scenario.date("2026-04-01"))),
            code: "templateCancelled", rule: "R1")
    }

    @Test("R1, S3: a split among members (equal, exact, percent) re-splits each occurrence's price with zero residue")
    func splitAmongMembers() async throws {
        var (test, s) = try await Self.household()
        let equal: TemplateID = s.ids.next()
        let exact: TemplateID = s.ids.next()
        let percent: TemplateID = s.ids.next()
        let weights = { (first: Int64, second: Int64) in [MemberWeight(person: s.alice, weight: first), MemberWeight(person: s.bob, weight: second)] }
        try await test.ledger.execute([
            s.command(.createTemplate(templateID: equal, frequency: .monthly, entry: Self.entry(s, 1001, anchor: "2026-01-05"),
                                      terms: TemplateTerms(sharing: TemplateSharing(kind: .equal, weights: weights(1, 1))))),
            s.command(.createTemplate(templateID: exact, frequency: .monthly, entry: Self.entry(s, 1001, anchor: "2026-01-05"),
                                      terms: TemplateTerms(sharing: TemplateSharing(kind: .exact, weights: weights(700, 301))))),
            s.command(.createTemplate(templateID: percent, frequency: .monthly, entry: Self.entry(s, 999, anchor: "2026-01-05"),
                                      terms: TemplateTerms(sharing: TemplateSharing(kind: .percent, weights: weights(6000, 4000))))),
        ])
        try await test.ledger.execute(s.command(.changeTemplatePrice(templateID: exact, amount: Scenario.chf(2002), effectiveFrom: Scenario.date("2026-02-01"))))
        _ = try await Self.post(test, &s, through: "2026-02-28")
        let state = await test.ledger.state
        func shares(_ id: TemplateID, _ date: String) -> [Int64] {
            let transaction = TransactionID.occurrence(of: id, on: Scenario.date(date))
            return state.transactions[transaction]?.details.split?.shares.map(\.amount.minorUnits) ?? []
        }
        #expect(shares(equal, "2026-01-05") == [501, 500], "the payer takes the leftover unit in a tie (S3)")
        #expect(shares(exact, "2026-01-05") == [700, 301])
        #expect(shares(exact, "2026-02-05") == [1400, 602], "after a price change, exact amounts split it in proportion")
        #expect(shares(percent, "2026-02-05") == [599, 400])
        await expectRejection(
            test.ledger,
            s.command(.createTemplate(templateID: s.ids.next(), frequency: .monthly, entry: Self.entry(s, 1001, anchor: "2026-01-05"),
                                      terms: TemplateTerms(sharing: TemplateSharing(kind: .exact, weights: weights(700, 300))))),
            code: "exactSplitMustSumToTotal", rule: "S7")
    }

    @Test("R1, G2: monthly equivalents per cycle are rounded once: seven items of 0.01 total 0.38 a month, not the 0.37 of rounded parts")
    func monthlyEquivalentsRoundOnce() async throws {
        var (test, s) = try await Self.household()
        var commands: [Command] = []
        for frequency in [RecurrenceFrequency.daily, .weekly, .biweekly, .monthly, .quarterly, .semiannual, .yearly] {
            commands.append(s.command(.createTemplate(templateID: s.ids.next(), frequency: frequency, entry: Self.entry(s, 1, anchor: "2026-01-05"))))
        }
        try await test.ledger.execute(commands)
        let on = Scenario.date("2026-01-10")
        let items = await test.ledger.subscriptions(on: on, visibleTo: .audit)
        let perCycle = Dictionary(uniqueKeysWithValues: items.map { ($0.schedule.frequency, $0.monthlyEquivalent.minorUnits) })
        #expect(perCycle == [.daily: 30, .weekly: 4, .biweekly: 2, .monthly: 1, .quarterly: 0, .semiannual: 0, .yearly: 0])
        let totals = try await test.ledger.subscriptionTotals(on: on, visibleTo: .audit)
        #expect(totals.count == 7)
        #expect(totals.monthly == Scenario.chf(38), "462 / 12 = 38.5, half to even")
        #expect(totals.annual == Scenario.chf(462))
    }

    @Test("R1, G2: items in another currency are converted exactly into the base currency before the one rounding")
    func mixedCurrencyTotals() async throws {
        var (test, s) = try await Self.household()
        try await test.ledger.execute([
            s.command(.setExchangeRate(exchangeRate: try ExchangeRate(base: .eur, quote: .chf, scaledRate: 94_120_000), asOf: Scenario.date("2026-01-01"))),
            s.command(.createTemplate(templateID: s.ids.next(), frequency: .monthly, entry: Self.entry(s, 1000, anchor: "2026-01-05"))),
            s.command(.createTemplate(templateID: s.ids.next(), frequency: .weekly, entry: Self.entry(s, 100, anchor: "2026-01-05", wallet: s.euroCard, currency: .eur))),
        ])
        let totals = try await test.ledger.subscriptionTotals(on: Scenario.date("2026-01-10"), visibleTo: .audit)
        #expect(totals.monthly == Scenario.chf(1408), "1000 + 5200 x 0.9412 / 12 = 1407.85")
        #expect(totals.annual == Scenario.chf(16_894), "12000 + 4894.24")
        #expect(totals.missingRates.isEmpty)
    }

    @Test("R1: upcoming occurrences in N days and the renewal calendar of a month list billed occurrences by date")
    func upcomingAndCalendar() async throws {
        var (test, s) = try await Self.household()
        let monthly: TemplateID = s.ids.next()
        let weekly: TemplateID = s.ids.next()
        try await test.ledger.execute([
            s.command(.createTemplate(templateID: monthly, frequency: .monthly, entry: Self.entry(s, 1000, anchor: "2026-01-31"))),
            s.command(.createTemplate(templateID: weekly, frequency: .weekly, entry: Self.entry(s, 200, anchor: "2026-02-02"))),
        ])
        let upcoming = await test.ledger.upcomingOccurrences(from: Scenario.date("2026-02-01"), days: 10, visibleTo: .audit)
        #expect(upcoming.map(\.date.isoString) == ["2026-02-02", "2026-02-09"])
        let calendar = await test.ledger.renewalCalendar(for: try YearMonth(iso: "2026-02"), visibleTo: .audit)
        #expect(calendar.map(\.date.isoString) == ["2026-02-02", "2026-02-09", "2026-02-16", "2026-02-23", "2026-02-28"])
        #expect(calendar.last?.templateID == monthly)
        _ = try await Self.post(test, &s, through: "2026-02-05")
        #expect(await test.ledger.upcomingOccurrences(from: Scenario.date("2026-02-01"), days: 10, visibleTo: .audit).first?.transactionID != nil)
    }

    @Test("R1, T5: undoing a post deletes its transactions; the occurrences stay recorded, so posting again adds nothing")
    func undoOfAPost() async throws {
        var (test, s) = try await Self.household()
        let template: TemplateID = s.ids.next()
        try await test.ledger.execute(s.command(.createTemplate(templateID: template, frequency: .monthly, entry: Self.entry(s, 1000, anchor: "2026-01-05"))))
        let post = s.command(.postDueOccurrences(through: Scenario.date("2026-02-28")))
        try await test.ledger.execute(post)
        try await test.ledger.execute(s.command(.undo(targetCommandID: post.commandID)))
        #expect(try await test.ledger.billingHistory(of: template, visibleTo: .audit).map(\.isDeleted) == [true, true])
        #expect(try await Self.post(test, &s, through: "2026-02-28").isEmpty)
        #expect(try await test.ledger.readModels.wallets.balance(of: s.joint)?.minorUnits == 100_000)
    }

    @Test("R1: schedules, prices, pauses, cancels and posted occurrences survive a checkpoint and reopen, equal to a replay of the journal")
    func checkpointKeepsSchedules() async throws {
        var (test, s) = try await Self.household()
        let template: TemplateID = s.ids.next()
        let shared: TemplateID = s.ids.next()
        try await test.ledger.execute([
            s.command(.createTemplate(templateID: template, frequency: .biweekly, entry: Self.entry(s, 1000, anchor: "2026-01-05"),
                                      terms: TemplateTerms(endDate: Scenario.date("2026-12-31"), trialEndsOn: Scenario.date("2026-01-20")))),
            s.command(.createTemplate(templateID: shared, frequency: .semiannual, entry: Self.entry(s, 3001, anchor: "2026-01-31"),
                                      terms: TemplateTerms(occurrenceCount: 4, sharing: TemplateSharing(kind: .equal, weights: [
                                          MemberWeight(person: s.alice, weight: 1), MemberWeight(person: s.bob, weight: 1)])))),
            s.command(.changeTemplatePrice(templateID: template, amount: Scenario.chf(1100), effectiveFrom: Scenario.date("2026-03-01"))),
            s.command(.pauseTemplate(templateID: template, from: Scenario.date("2026-04-01"), resumesOn: Scenario.date("2026-05-01"))),
            s.command(.cancelTemplate(templateID: shared, effectiveOn: Scenario.date("2027-01-01"))),
            s.command(.postDueOccurrences(through: Scenario.date("2026-06-30"))),
        ])
        try await test.ledger.checkpoint()
        let on = Scenario.date("2026-06-30")
        let before = await test.ledger.subscriptions(on: on, visibleTo: .audit)
        try await test.ledger.close()
        let reopened = try await test.reopen()
        #expect(reopened.openReport.rejectedCheckpoints.isEmpty && reopened.openReport.eventsReplayed == 0,
                "the reopen starts from the checkpoint (a template record that did not read back would be passed over and replayed): \(reopened.openReport)")
        #expect(await reopened.subscriptions(on: on, visibleTo: .audit) == before)
        #expect(await reopened.state == (try LedgerReplay.replay(at: test.directory.appending("ledger"))).state)
        #expect(try await reopened.execute(s.command(.postDueOccurrences(through: on))).isEmpty)
        try await reopened.close()
    }

    @Test("R1, T5: undoing a price change sets the earlier price again; undoing a dated pause bills its occurrences again")
    func undoOfPriceChangeAndPause() async throws {
        var (test, s) = try await Self.household()
        let template: TemplateID = s.ids.next()
        try await test.ledger.execute(s.command(.createTemplate(templateID: template, frequency: .monthly, entry: Self.entry(s, 1000, anchor: "2026-01-05"))))
        let change = s.command(.changeTemplatePrice(templateID: template, amount: Scenario.chf(1500), effectiveFrom: Scenario.date("2026-02-01")))
        let pause = s.command(.pauseTemplate(templateID: template, from: Scenario.date("2026-03-01"), resumesOn: Scenario.date("2026-05-01")))
        try await test.ledger.execute([change, pause])
        try await test.ledger.execute(s.command(.undo(targetCommandID: pause.commandID)))
        try await test.ledger.execute(s.command(.undo(targetCommandID: change.commandID)))
        _ = try await Self.post(test, &s, through: "2026-04-30")
        #expect(try await Self.history(test, template).map(\.0) == ["2026-01-05", "2026-02-05", "2026-03-05", "2026-04-05"])
        #expect(try await Self.history(test, template).map(\.1) == [1000, 1000, 1000, 1000])
    }

    @Test("R1: the JSON command line carries the terms: end count, trial end and an exact split, in the price's currency")
    func parsesTerms() throws {
        let header = #""commandID":"0000000c-0000-4000-8000-000000000001","actor":"00000002-0000-4000-8000-000000000001","recordedAt":"2026-01-05T10:00:00.000Z""#
        let line = #"{"command":"createTemplate",\#(header),"templateID":"00000007-0000-4000-8000-000000000009","frequency":"semiannual","kind":"expense","amount":"CHF 10.01","walletID":"00000003-0000-4000-8000-000000000001","categoryID":"00000004-0000-4000-8000-000000000001","date":"2026-01-31","occurrenceCount":4,"trialEndsOn":"2026-03-01","sharing":{"kind":"exact","amounts":[{"person":"00000002-0000-4000-8000-000000000001","amount":"CHF 7.00"},{"person":"00000002-0000-4000-8000-000000000002","amount":"CHF 3.01"}]}}"#
        let command = try CommandParser.parse(line: line)
        guard case .createTemplate(_, let frequency, _, let terms?) = command.action else {
            Issue.record("not a createTemplate with terms: \(command.action)")
            return
        }
        #expect(frequency == .semiannual)
        #expect(terms.occurrenceCount == 4 && terms.trialEndsOn == Scenario.date("2026-03-01") && terms.endDate == nil)
        #expect(terms.sharing?.kind == .exact && terms.sharing?.weights.map(\.weight) == [700, 301])
        let euro = line.replacingOccurrences(of: "CHF 3.01", with: "EUR 3.01")
        #expect(throws: CommandParseError.self) { try CommandParser.parse(line: euro) }
        let daily = line.replacingOccurrences(of: "semiannual", with: "daily")
        guard case .createTemplate(_, .daily, _, _) = try CommandParser.parse(line: daily).action else {
            Issue.record("daily was not parsed")
            return
        }
    }
}
