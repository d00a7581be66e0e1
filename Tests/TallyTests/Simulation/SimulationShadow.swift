import Tally
import TallyModel

/// One `execute` call of a simulated client: a single command or a small atomic batch.
struct Submission: Sendable {
    let commands: [Command]
}

/// How an `execute` call ended.
enum SubmissionOutcome: Sendable {
    /// Acknowledged: the events are durable at these positions.
    case acknowledged([EventPosition])
    /// Rejected by a rule: nothing may be appended (G6).
    case rejected(LedgerError)
    /// Failed with a storage error: the client does not know whether it was written.
    case failed(LedgerError)
}

/// What the simulation knows must be in the journal.
///
/// Allowed outcomes after a crash and reopen (the rule ``reconcile(journal:)`` checks):
/// - every event in ``events`` (acknowledged, or recovered at an earlier reopen) is present at
///   its sequence number with identical content (command id, actor, time, payload);
/// - after them the journal may hold the events of **at most one** submission whose `execute`
///   failed with a storage error since the last open (its append was written but not
///   acknowledged: the crash or an fdatasync failure came after the write), and then all of it
///   (G6: a batch is one frame), with the commands' ids, actors and times;
/// - nothing else: no event of a rejected submission, no event of a submission that is not
///   the in-flight one, no gap.
/// Events that survive this way are durable from then on (the crash made them so), so they
/// join ``events`` and must never be lost afterwards.
struct SimulationShadow {
    /// Every event the journal must hold, in sequence order (index = sequence number - 1).
    private(set) var events: [CommittedEvent] = []
    /// Submissions that failed with a storage error since the ledger was last opened.
    private(set) var uncertain: [Submission] = []
    /// Command ids of every rejected submission: none of them may ever reach the journal.
    private(set) var rejectedCommandIDs: Set<CommandID> = []
    /// Positions of submissions acknowledged since the last ``absorb(published:)``.
    private var pendingPositions: Set<EventPosition> = []

    mutating func record(_ submission: Submission, _ outcome: SubmissionOutcome) {
        switch outcome {
        case .acknowledged(let positions): pendingPositions.formUnion(positions)
        case .rejected: rejectedCommandIDs.formUnion(submission.commands.map(\.commandID))
        case .failed: uncertain.append(submission)
        }
    }

    /// Adds the events the ledger published on `changes` (acknowledged only) since the last
    /// call; they must continue the sequence without a gap and be exactly the positions the
    /// clients were given.
    mutating func absorb(published: [CommittedEvent]) -> [String] {
        var problems: [String] = []
        let fresh = published.filter { $0.sequenceNumber > UInt64(events.count) }
        for event in fresh {
            if event.sequenceNumber != UInt64(events.count + 1) {
                problems.append("published event \(event.sequenceNumber) does not continue the acknowledged sequence at \(events.count + 1)")
                break
            }
            events.append(event)
        }
        let publishedPositions = Set(fresh.map {
            EventPosition(sequenceNumber: $0.sequenceNumber, commandID: $0.event.commandID, tag: $0.event.payload.tag)
        })
        if publishedPositions != pendingPositions {
            let missing = pendingPositions.subtracting(publishedPositions).map(\.sequenceNumber).sorted()
            let extra = publishedPositions.subtracting(pendingPositions).map(\.sequenceNumber).sorted()
            problems.append("acknowledged positions and published events differ: acknowledged but not published \(missing.prefix(5)), published but not acknowledged \(extra.prefix(5))")
        }
        pendingPositions = []
        return problems
    }

    /// After a reopen: checks the journal against the allowed outcomes above and adopts it.
    /// Returns the problems and whether an unacknowledged submission survived.
    mutating func reconcile(journal: [CommittedEvent], forgotten: Set<PersonID>) -> (problems: [String], survived: Bool) {
        var problems: [String] = []
        if journal.count < events.count {
            problems.append("acknowledged events lost: the journal ends at \(journal.count), acknowledged through \(events.count)")
        }
        // P3: texts of people forgotten since the events were acknowledged now read redacted.
        for (expected, actual) in zip(events, journal) where expected.redacting(forgotten) != actual {
            problems.append("event \(expected.sequenceNumber) differs from the acknowledged one: \(actual.event.payload.tag.eventName) of command \(actual.event.commandID), acknowledged \(expected.event.payload.tag.eventName) of command \(expected.event.commandID)")
            break
        }
        let extra = journal.dropFirst(events.count)
        var survived = false
        if !extra.isEmpty {
            let extraIDs = Set(extra.map(\.event.commandID))
            // Group commit: several in-flight submissions may have been written before the
            // crash; each one survives whole or not at all (G6), nothing else may appear.
            let survivors = uncertain.filter { !Set($0.commands.map(\.commandID)).isDisjoint(with: extraIDs) }
            let survivorIDs = Set(survivors.flatMap { $0.commands.map(\.commandID) })
            if !survivors.isEmpty, survivorIDs == extraIDs {
                survived = true
                let commands = Dictionary(survivors.flatMap(\.commands).map { ($0.commandID, $0) }, uniquingKeysWith: { first, _ in first })
                for event in extra {
                    guard let command = commands[event.event.commandID] else { continue }
                    if event.event.actor != command.actor || event.event.recordedAt != command.recordedAt {
                        problems.append("event \(event.sequenceNumber) of in-flight command \(command.commandID) has another actor or time than the command")
                    }
                }
            } else {
                let rejected = extraIDs.intersection(rejectedCommandIDs)
                problems.append("the journal holds \(extra.count) events after the acknowledged \(events.count) that are not whole in-flight submissions (commands \(extraIDs.count), of them rejected \(rejected.count), in-flight submissions \(uncertain.count))")
            }
        }
        let leaked = journal.filter { rejectedCommandIDs.contains($0.event.commandID) }
        if let first = leaked.first {
            problems.append("G6: event \(first.sequenceNumber) belongs to command \(first.event.commandID), which was rejected")
        }
        if problems.isEmpty {
            events = journal
        }
        uncertain = []
        return (problems, survived)
    }
}
