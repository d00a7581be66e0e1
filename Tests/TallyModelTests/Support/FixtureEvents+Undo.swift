import TallyModel

extension FixtureEvents {
    /// Undo of a group deletion, a person's archive and a template's cancel (T5, Swiff 1.2.5,
    /// 3.2.3): `GroupRestored`, `PersonUnarchived`, `TemplateReinstated`, and `TemplateCancelled`
    /// version 2 with a reason (Swiff 1.3.3) and without one.
    static let undoCompensations: [Event] = [
        .personUnarchived(PersonUnarchived(personID: carla)),
        .templateCancelled(TemplateCancelled(templateID: id(60), effectiveOn: date(2027, 3, 1), reason: PersonalText("Too expensive", owner: anna))),
        .templateReinstated(TemplateReinstated(templateID: id(60))),
        .templateCancelled(TemplateCancelled(templateID: id(60), effectiveOn: date(2027, 4, 1), reason: nil)),
        .groupRestored(GroupRestored(groupID: tripGroup)),
    ].enumerated().map { index, payload in
        Event(commandID: id(6500 + UInt64(index)), actor: anna,
              recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_900_000_000 + Int64(index) * 1000), payload: payload)
    }
}
