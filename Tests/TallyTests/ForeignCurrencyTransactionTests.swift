import Tally
import TallyModel
import TallyTestSupport
import Testing

/// T7 (Swiff Phase 5 currency): a transaction charged in another currency than its wallet's
/// keeps the original beside the amount the wallet moved; the wallet counts only the latter;
/// `ledger.converted(_:into:on:)` gives an amount at the household's rates (N3, G2).
@Suite("Foreign-currency transactions (T7, Swiff Phase 5 currency)")
struct ForeignCurrencyTransactionTests {
    static func household(_ label: String) async throws -> (TestLedger, Scenario) {
        var s = Scenario()
        let test = try await TestLedger.make(label, durability: .synchronous)
        try await test.ledger.execute(s.setup())
        return (test, s)
    }

    static func dinner(_ s: Scenario, charged: Int64 = 4_735, original: Money? = Scenario.eur(5_000)) -> TransactionEntry {
        var entry = s.expense(charged, category: s.restaurants)
        entry.originalAmount = original
        return entry
    }

    static func row(_ ledger: Ledger, _ id: TransactionID) async throws -> StoredTransaction? {
        try await ledger.transactions(TransactionQuery(visibleTo: .audit)).rows.first { $0.transaction.transactionID == id }?.transaction
    }

    @Test("T7: the original amount is kept beside the wallet's amount; the wallet moves by the booked amount only; kept across a checkpoint, a reopen and a rebuild")
    func recordKeepsTheOriginal() async throws {
        var (test, s) = try await Self.household("foreign-record")
        let id: TransactionID = s.ids.next()
        let joint = s.joint
        let before = try await test.ledger.auditRead { try $0.wallets.balance(of: joint) }
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: id, entry: Self.dinner(s))))
        let row = try #require(try await Self.row(test.ledger, id))
        #expect(row.amount == Scenario.chf(4_735) && row.originalAmount == Scenario.eur(5_000))
        let after = try await test.ledger.auditRead { try $0.wallets.balance(of: joint) }
        #expect(after?.minorUnits == (before?.minorUnits ?? 0) - 4_735, "the wallet moves by what it was charged, in its currency")

        try await test.ledger.checkpoint()
        _ = try await test.ledger.rebuildReadSide()
        #expect(try await Self.row(test.ledger, id)?.originalAmount == Scenario.eur(5_000), "the rebuilt store has it from the journal")
        try await test.ledger.close()
        let reopened = try await test.reopen()
        #expect(try await Self.row(reopened, id)?.originalAmount == Scenario.eur(5_000))
        try await reopened.close()
    }

    @Test("T7: an original in the wallet's own currency or on a template is originalAmountInvalid; a non-positive one is T1 amountMustBePositive")
    func rejections() async throws {
        var (test, s) = try await Self.household("foreign-rejections")
        let sameCurrency = s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.dinner(s, original: Scenario.chf(5_000))))
        await expectRejection(test.ledger, sameCurrency, code: "originalAmountInvalid", rule: "T7")
        let zero = s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.dinner(s, original: Scenario.eur(0))))
        await expectRejection(test.ledger, zero, code: "amountMustBePositive", rule: "T1")
        let template = s.command(.createTemplate(templateID: s.ids.next(), frequency: .monthly, entry: Self.dinner(s)))
        await expectRejection(test.ledger, template, code: "originalAmountInvalid", rule: "T7")
        let control = s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.dinner(s)))
        try await test.ledger.execute(control)
    }

    @Test("T2/T5: an edit replaces or removes the original; undoing the edit puts it back")
    func editAndUndo() async throws {
        var (test, s) = try await Self.household("foreign-edit")
        let id: TransactionID = s.ids.next()
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: id, entry: Self.dinner(s))))
        let edit = s.command(.editTransaction(transactionID: id, entry: Self.dinner(s, charged: 4_800, original: Money(minorUnits: 5_500, currency: .usd))))
        try await test.ledger.execute(edit)
        #expect(try await Self.row(test.ledger, id)?.originalAmount == Money(minorUnits: 5_500, currency: .usd))
        try await test.ledger.execute(s.command(.undo(targetCommandID: edit.commandID)))
        let undone = try await Self.row(test.ledger, id)
        #expect(undone?.originalAmount == Scenario.eur(5_000) && undone?.amount == Scenario.chf(4_735), "the undo puts the old original back")
        try await test.ledger.execute(s.command(.editTransaction(transactionID: id, entry: Self.dinner(s, original: nil))))
        #expect(try await Self.row(test.ledger, id)?.originalAmount == nil, "an edit without it removes it")
    }

    @Test("N3/G2: converted uses the latest rate on or before the date, direct or inverse, rounded half to even once; no rate is nil, never 1.0")
    func conversionAtTheHouseholdsRates() async throws {
        var (test, s) = try await Self.household("foreign-convert")
        #expect(try await test.ledger.converted(Scenario.eur(5_000), into: .chf, on: Scenario.date("2026-01-20")) == nil, "no rate yet")
        try await test.ledger.execute([
            s.command(.setExchangeRate(exchangeRate: try ExchangeRate.parse(base: .eur, quote: .chf, "0.9412"), asOf: Scenario.date("2026-01-01"))),
            s.command(.setExchangeRate(exchangeRate: try ExchangeRate.parse(base: .eur, quote: .chf, "0.95"), asOf: Scenario.date("2026-02-01"))),
        ])
        #expect(try await test.ledger.converted(Scenario.eur(5_000), into: .chf, on: Scenario.date("2025-12-31")) == nil, "before the first rate")
        #expect(try await test.ledger.converted(Scenario.eur(5_000), into: .chf, on: Scenario.date("2026-01-20")) == Scenario.chf(4_706))
        #expect(try await test.ledger.converted(Scenario.eur(5_000), into: .chf, on: Scenario.date("2026-02-01")) == Scenario.chf(4_750))
        // 50 / 0.9412 = 53.1236...: the inverse of EUR/CHF, rounded once.
        #expect(try await test.ledger.converted(Scenario.chf(5_000), into: .eur, on: Scenario.date("2026-01-20")) == Scenario.eur(5_312))
        // EUR 0.05 at 0.5 is CHF 0.025 and EUR 0.07 is CHF 0.035: half to even, 2.5 cents -> 2, 3.5 -> 4.
        try await test.ledger.execute(s.command(.setExchangeRate(
            exchangeRate: try ExchangeRate.parse(base: .eur, quote: .chf, "0.5"), asOf: Scenario.date("2026-03-01"))))
        #expect(try await test.ledger.converted(Scenario.eur(5), into: .chf, on: Scenario.date("2026-03-01")) == Scenario.chf(2))
        #expect(try await test.ledger.converted(Scenario.eur(7), into: .chf, on: Scenario.date("2026-03-01")) == Scenario.chf(4))
        #expect(try await test.ledger.converted(Scenario.chf(5_000), into: .chf, on: Scenario.date("2026-03-01")) == Scenario.chf(5_000))
    }
}
