// The planning events (R2 goals, R3 scenarios, R6 alert settings): their tags. The layout of each is its
// fields in declaration order, written by @WireFields (Docs/Events.md).

extension GoalCreated: EventPayloadWire {
    package static var eventTag: EventTag { .goalCreated }
}

extension GoalUpdated: EventPayloadWire {
    package static var eventTag: EventTag { .goalUpdated }
}

extension GoalAmountSet: EventPayloadWire {
    package static var eventTag: EventTag { .goalAmountSet }
}

extension GoalDeleted: EventPayloadWire {
    package static var eventTag: EventTag { .goalDeleted }
}

extension GoalRestored: EventPayloadWire {
    package static var eventTag: EventTag { .goalRestored }
}

extension ScenarioSaved: EventPayloadWire {
    package static var eventTag: EventTag { .scenarioSaved }
}

extension ScenarioDeleted: EventPayloadWire {
    package static var eventTag: EventTag { .scenarioDeleted }
}

extension ScenarioActivated: EventPayloadWire {
    package static var eventTag: EventTag { .scenarioActivated }
}

extension AlertSettingsSet: EventPayloadWire {
    package static var eventTag: EventTag { .alertSettingsSet }
}
