import TallyModel

extension FixtureEvents {
    /// Issue 18.2 (editing groups, S7): a new name and description, a member added and removed,
    /// an archive and its reversal, a deletion. Recorded once in `events-group-editing.bin`;
    /// never edited.
    static let groupEditing: [Event] = [
        Event(commandID: id(5100), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1795400000900),
              payload: .groupUpdated(GroupUpdated(groupID: tripGroup, name: "Ski trip 2027", description: "Verbier, February"))),
        Event(commandID: id(5110), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1795400000901),
              payload: .groupMemberAdded(GroupMemberAdded(groupID: tripGroup, personID: carla))),
        Event(commandID: id(5120), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1795400000902),
              payload: .groupMemberRemoved(GroupMemberRemoved(groupID: tripGroup, personID: carla))),
        Event(commandID: id(5130), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1795400000903),
              payload: .groupArchived(GroupArchived(groupID: tripGroup))),
        Event(commandID: id(5140), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1795400000904),
              payload: .groupUnarchived(GroupUnarchived(groupID: tripGroup))),
        Event(commandID: id(5150), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1795400000905),
              payload: .groupDeleted(GroupDeleted(groupID: tripGroup))),
    ]
}
