import TallyModel

/// The host's entity caps (``EntityLimits``), checked on the events a new command produces:
/// any event that adds a live entity of a capped kind (a creation, and also an undo, redo,
/// reopen, reinstatement or unarchive that brings one back) is refused once the household
/// holds the cap. Replay never comes here (the fold takes recorded events as they are).
extension CommandExecutor {
    /// - Parameter time: the command's `recordedAt`, against which invitations are pending (H6).
    func requireWithinEntityLimits(_ payloads: [EventPayload], at time: Timestamp) throws(LedgerError) {
        guard !limits.caps.isEmpty else { return }
        var change: [EntityLimits.Kind: Int] = [:]
        for payload in payloads {
            for live in liveChanges(of: payload, at: time) { change[live.kind, default: 0] += live.delta }
        }
        for (kind, delta) in change.sorted(by: { $0.key < $1.key }) where delta > 0 {
            guard let cap = limits[kind] else { continue }
            let live = liveCount(of: kind, at: time)
            guard live + delta > cap else { continue }
            throw .violation(
                .entityLimitReached,
                "the household has \(live) \(kind.rawValue) of the \(cap) this app allows (entity limit \(kind.rawValue)=\(cap)); remove one first, or raise the limit (LedgerOptions.entityLimits; tally apply --limit \(kind.rawValue)=N)")
        }
    }

    /// How many live entities of `kind` the state holds at `time` (``EntityLimits/Kind``).
    func liveCount(of kind: EntityLimits.Kind, at time: Timestamp) -> Int {
        switch kind {
        case .wallets: state.wallets.values.count { !$0.isClosed }
        case .goals: state.goals.values.count { !$0.isDeleted }
        case .scenarios: state.planning.scenarios.count
        case .subscriptions: state.templates.values.count { $0.schedule.cancelledOn == nil }
        case .people: state.people.values.count { !$0.isArchived && !$0.isRemoved && !$0.isForgotten }
        case .groups: state.groups.values.count { !$0.isDeleted }
        case .members: state.activeMembers.count + state.invitations.values.count { $0.isPending(at: time) }
        }
    }

    /// The live entities an event adds (+1) or takes away (-1), against the state before it.
    private func liveChanges(of payload: EventPayload, at time: Timestamp) -> [(kind: EntityLimits.Kind, delta: Int)] {
        switch payload {
        // A member is also a person; an invitation holds a member's place while it is pending (H6).
        case .householdCreated, .memberAdded: [(.people, 1), (.members, 1)]
        case .memberRemoved: [(.people, -1), (.members, -1)]
        case .memberInvited(let invited): time < invited.expiresAt ? [(.members, 1)] : []
        case .invitationCancelled, .invitationAccepted: [(.members, -1)]
        default: liveChange(of: payload).map { [$0] } ?? []
        }
    }

    /// The live entity of one kind an event adds (+1) or takes away (-1), against the state before it.
    private func liveChange(of payload: EventPayload) -> (kind: EntityLimits.Kind, delta: Int)? {
        switch payload {
        case .walletOpened, .walletReopened: (.wallets, 1)
        case .walletClosed: (.wallets, -1)
        case .goalCreated, .goalRestored: (.goals, 1)
        case .goalDeleted: (.goals, -1)
        case .scenarioSaved(let saved): state.planning.scenarios[saved.scenarioID] == nil ? (.scenarios, 1) : nil
        case .scenarioDeleted: (.scenarios, -1)
        case .templateCreated, .templateReinstated: (.subscriptions, 1)
        case .templateCancelled: (.subscriptions, -1)
        case .personAdded: (.people, 1)
        case .personUnarchived(let unarchived): state.people[unarchived.personID]?.isRemoved == true ? nil : (.people, 1)
        case .personArchived(let archived): state.people[archived.personID]?.isRemoved == true ? nil : (.people, -1)
        case .groupCreated, .groupRestored: (.groups, 1)
        case .groupDeleted: (.groups, -1)
        default: nil
        }
    }
}
