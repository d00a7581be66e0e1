import TallyModel
import TallyTestSupport
import Testing

/// R1: the occurrence rule of a recurring item (``RecurringSchedule``), without a ledger.
@Suite("Subscription schedule (R1)")
struct SubscriptionScheduleTests {
    static func schedule(_ frequency: RecurrenceFrequency, _ anchor: String, _ terms: TemplateTerms? = nil) -> RecurringSchedule {
        RecurringSchedule(frequency: frequency, anchor: Scenario.date(anchor), basePrice: Scenario.chf(1000), terms: terms)
    }

    static func dates(_ schedule: RecurringSchedule, through: String, from: String = "0001-01-01") -> [String] {
        schedule.occurrences(from: Scenario.date(from), through: Scenario.date(through)).map(\.date.isoString)
    }

    @Test("R1: a monthly item on the 31st falls to the month's last day, then returns to the 31st (leap year included)")
    func thirtyFirstClampsAndReturns() {
        #expect(Self.dates(Self.schedule(.monthly, "2026-01-31"), through: "2026-05-31")
            == ["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31"])
        #expect(Self.dates(Self.schedule(.monthly, "2028-01-31"), through: "2028-03-31") == ["2028-01-31", "2028-02-29", "2028-03-31"])
        #expect(Self.dates(Self.schedule(.quarterly, "2026-01-31"), through: "2027-01-31")
            == ["2026-01-31", "2026-04-30", "2026-07-31", "2026-10-31", "2027-01-31"])
        #expect(Self.dates(Self.schedule(.semiannual, "2026-08-31"), through: "2027-08-31") == ["2026-08-31", "2027-02-28", "2027-08-31"])
    }

    @Test("R1: an annual item on Feb 29 falls on Feb 28 in non-leap years and returns to Feb 29 in leap years")
    func february29() {
        #expect(Self.dates(Self.schedule(.yearly, "2028-02-29"), through: "2032-12-31")
            == ["2028-02-29", "2029-02-28", "2030-02-28", "2031-02-28", "2032-02-29"])
    }

    @Test("R1: daily, weekly and biweekly cycles count days from the anchor; a walk from a late date starts there")
    func dayCycles() {
        #expect(Self.dates(Self.schedule(.daily, "2026-02-27"), through: "2026-03-02") == ["2026-02-27", "2026-02-28", "2026-03-01", "2026-03-02"])
        #expect(Self.dates(Self.schedule(.weekly, "2026-01-05"), through: "2026-01-26") == ["2026-01-05", "2026-01-12", "2026-01-19", "2026-01-26"])
        #expect(Self.dates(Self.schedule(.biweekly, "2026-01-05"), through: "2026-02-02") == ["2026-01-05", "2026-01-19", "2026-02-02"])
        #expect(Self.dates(Self.schedule(.daily, "2026-01-01"), through: "2099-01-02", from: "2099-01-01") == ["2099-01-01", "2099-01-02"])
        #expect(Self.dates(Self.schedule(.monthly, "2026-01-31"), through: "2040-03-31", from: "2040-02-01") == ["2040-02-29", "2040-03-31"])
    }

    @Test("R1: an end count or end date ends the schedule; a cancel drops occurrences from its date on")
    func endsAndCancel() {
        let counted = Self.schedule(.weekly, "2026-01-05", TemplateTerms(occurrenceCount: 3))
        #expect(Self.dates(counted, through: "2027-01-01") == ["2026-01-05", "2026-01-12", "2026-01-19"])
        #expect(counted.standing(on: Scenario.date("2026-01-20")) == .ended)
        #expect(counted.nextBilled(onOrAfter: Scenario.date("2026-01-20")) == nil)
        let dated = Self.schedule(.monthly, "2026-01-05", TemplateTerms(endDate: Scenario.date("2026-03-05")))
        #expect(Self.dates(dated, through: "2027-01-01") == ["2026-01-05", "2026-02-05", "2026-03-05"])
        var cancelled = Self.schedule(.monthly, "2026-01-05")
        cancelled.cancelledOn = Scenario.date("2026-03-05")
        #expect(Self.dates(cancelled, through: "2027-01-01") == ["2026-01-05", "2026-02-05"])
        #expect(cancelled.standing(on: Scenario.date("2026-03-05")) == .cancelled)
    }

    @Test("R1: an occurrence uses the price in effect on its date; a trial and a pause are not billed")
    func pricesTrialAndPauses() {
        var schedule = Self.schedule(.monthly, "2026-01-05", TemplateTerms(trialEndsOn: Scenario.date("2026-02-06")))
        schedule.changePrice(Scenario.chf(1500), from: Scenario.date("2026-03-05"))
        schedule.changePrice(Scenario.chf(1200), from: Scenario.date("2026-02-10"))
        schedule.pause(from: Scenario.date("2026-04-01"), resumesOn: Scenario.date("2026-05-06"))
        let occurrences = schedule.occurrences(from: .min, through: Scenario.date("2026-06-30"))
        #expect(occurrences.map(\.status) == [.trial, .trial, .billed, .paused, .paused, .billed])
        #expect(occurrences.map(\.price.minorUnits) == [1000, 1000, 1500, 1500, 1500, 1500])
        #expect(schedule.price(on: Scenario.date("2026-02-20")).minorUnits == 1200)
        #expect(schedule.nextBilled(onOrAfter: Scenario.date("2026-01-01"))?.date == Scenario.date("2026-03-05"))
        #expect(schedule.nextBilled(onOrAfter: Scenario.date("2026-03-06"))?.date == Scenario.date("2026-06-05"))
        #expect(schedule.standing(on: Scenario.date("2026-01-10")) == .trial)
        #expect(schedule.standing(on: Scenario.date("2026-04-10")) == .paused)
        #expect(schedule.standing(on: Scenario.date("2026-05-10")) == .active)
        schedule.pause(from: Scenario.date("2026-07-01"), resumesOn: nil)
        #expect(schedule.isPausedIndefinitely)
        schedule.resume(on: Scenario.date("2026-08-01"))
        #expect(!schedule.isPausedIndefinitely)
        #expect(schedule.occurrences(from: Scenario.date("2026-07-01"), through: Scenario.date("2026-08-31")).map(\.status) == [.paused, .billed])
    }

    @Test("R1: occurrences per year for the monthly equivalent: daily 365, weekly 52, biweekly 26, monthly 12, quarterly 4, semi-annual 2, annual 1")
    func occurrencesPerYear() {
        let perYear = RecurrenceFrequency.allCases.map { ($0, $0.occurrencesPerYear) }
        #expect(perYear.map(\.1) == [52, 26, 12, 4, 1, 365, 2])
    }
}
