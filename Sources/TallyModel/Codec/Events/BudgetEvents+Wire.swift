// The pay periods and budgets events: their tags and the decoders of their older layouts. The current layout of each is
// its fields in declaration order, written by @WireFields (Docs/Events.md).

extension PaydaySet: EventPayloadWire {
    package static var eventTag: EventTag { .paydaySet }
}

extension BudgetAllocated: EventPayloadWire {
    package static var eventTag: EventTag { .budgetAllocated }
}

extension BudgetRemoved: EventPayloadWire {
    package static var eventTag: EventTag { .budgetRemoved }
}

extension IncomeSettingsSet: EventPayloadWire {
    package static var eventTag: EventTag { .incomeSettingsSet }
}

extension BonusConfirmed: EventPayloadWire {
    package static var eventTag: EventTag { .bonusConfirmed }
}

extension PeriodClosed: EventPayloadWire {
    package static var eventTag: EventTag { .periodClosed }
}

extension SplitRatioRecalculated: EventPayloadWire {
    package static var eventTag: EventTag { .splitRatioRecalculated }
}

extension BonusMarked: EventPayloadWire {
    package static var eventTag: EventTag { .bonusMarked }
}

extension BonusAllocated: EventPayloadWire {
    package static var eventTag: EventTag { .bonusAllocated }
}

extension BonusRolledIn: EventPayloadWire {
    package static var eventTag: EventTag { .bonusRolledIn }
}

extension FirstWeekdaySet: EventPayloadWire {
    package static var eventTag: EventTag { .firstWeekdaySet }
}

/// A weekday is its ISO number, one byte (Monday 1 ... Sunday 7).
extension Weekday: WireEnum {}
