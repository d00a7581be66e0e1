import TallyModel

/// Sample data (E5-S6): a host loads a demo household's commands and marks them with
/// `loadSampleData`; `clearSampleData` takes them back with the undo machinery (T5).
extension CommandExecutor {
    /// `SampleDataLoaded` naming `commandIDs`: each a command of the same batch, executed before
    /// it, that is no undo or redo, is not undone and can be undone, so that a clear can take
    /// every one back.
    func loadSampleData(_ commandIDs: [CommandID]) throws(LedgerError) -> [EventPayload] {
        if let loaded = state.sample {
            throw .violation(.sampleDataLoaded, "sample data is loaded already (by command \(loaded.loadCommandID)); clear it with clearSampleData before loading another")
        }
        guard !commandIDs.isEmpty else {
            throw .violation(.sampleCommandInvalid, "commandIDs is empty; name the sample commands, put before loadSampleData in the same batch")
        }
        var seen = Set<CommandID>()
        for id in commandIDs {
            guard seen.insert(id).inserted else { throw .violation(.sampleCommandInvalid, "command \(id) is listed twice in commandIDs") }
            guard let entry = state.history.entry(for: id) else {
                throw .violation(.sampleCommandInvalid, "no command with id \(id) was executed in this ledger; put the sample commands before loadSampleData in the same batch")
            }
            // Only the batch's own commands: naming a real command recorded earlier would let
            // a clear undo it for good.
            guard entry.firstSequenceNumber >= batchStart else {
                throw .violation(.sampleCommandInvalid, "command \(id) was recorded before this batch; sample commands go before loadSampleData in the same batch, and data recorded earlier stays real")
            }
            if entry.target != nil {
                throw .violation(.sampleCommandInvalid, "command \(id) is an undo or redo; name only the commands that record the sample")
            }
            if entry.isUndone {
                throw .violation(.sampleCommandInvalid, "command \(id) is undone; leave it out of the sample")
            }
            if let tag = entry.irreversibleTag {
                throw .violation(.sampleCommandInvalid, "command \(id) recorded \(tag.eventName), which has no compensating event, so clearing the sample could not take it back; record it as real data, outside the sample")
            }
            if entry.effectCount == 0 {
                throw .violation(.sampleCommandInvalid, "command \(id) only closed periods, which stay closed (B6); leave it out of the sample")
            }
        }
        return [.sampleDataLoaded(SampleDataLoaded(commandIDs: commandIDs))]
    }

    /// `SampleDataCleared`, then the undo of every sample command not undone yet, newest first
    /// (T5), each checked against the state the undos before it leave. Refused, whole, when an
    /// undo is (a later command of real data depends on a sample entity): the error names the
    /// sample command and the event that blocks it.
    func clearSampleData(_ command: Command) throws(LedgerError) -> [EventPayload] {
        guard let sample = state.sample else {
            throw .violation(.noSampleData, "no sample data is loaded, so there is nothing to clear")
        }
        var scratch = CommandExecutor(state: state, limits: limits)
        var payloads: [EventPayload] = []
        func emit(_ payload: EventPayload) {
            scratch.state.apply(Event(commandID: command.commandID, actor: command.actor, recordedAt: command.recordedAt, payload: payload))
            payloads.append(payload)
        }
        emit(.sampleDataCleared(SampleDataCleared(loadCommandID: sample.loadCommandID)))
        for id in sample.commandIDs.reversed() where scratch.state.history.entry(for: id)?.isUndone == false {
            let undo: [EventPayload]
            do {
                undo = try scratch.undo(id)
            } catch {
                guard case .rejected(let violation) = error else { throw error }
                throw .violation(violation.code, "the sample data cannot be cleared, nothing was changed: \(violation.message)")
            }
            for payload in undo { emit(payload) }
        }
        return payloads
    }
}
