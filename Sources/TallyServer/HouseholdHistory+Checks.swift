import Foundation
import TallySyncWire

extension HouseholdHistory {
    /// Checks what `execute` returned before anything is written: the frames continue the head
    /// one after another, within the limits; one outcome per command; each accepted range lies
    /// in the new frames, after the previous accepted one. Returns the head after the frames.
    func checkExecuted(_ executed: ExecutedBatch, commands: [SubmittedCommand], head: HistoryHead, household: UUID) throws -> HistoryHead {
        guard executed.outcomes.count == commands.count else {
            throw HouseholdHistoryError.outcomeCountMismatch(household: household, commands: commands.count, outcomes: executed.outcomes.count)
        }
        guard executed.frames.count <= limits.framesPerAppendMax else {
            throw HouseholdHistoryError.limitExceeded(what: "frames in one append", count: executed.frames.count, limit: limits.framesPerAppendMax)
        }
        var newHead = head
        for frame in executed.frames {
            // The head came from a bigint, so + 1 cannot overflow a UInt64.
            let expected = newHead.sequenceNumber + 1
            guard frame.firstSequenceNumber == expected else {
                throw HouseholdHistoryError.frameDoesNotContinueHead(
                    household: household, expectedFirstSequenceNumber: expected, frameFirstSequenceNumber: frame.firstSequenceNumber)
            }
            guard frame.lastSequenceNumber >= frame.firstSequenceNumber else {
                throw HouseholdHistoryError.malformedFrame(
                    household: household, firstSequenceNumber: frame.firstSequenceNumber,
                    reason: "it ends at sequence \(frame.lastSequenceNumber), before it starts")
            }
            _ = try bigint(frame.lastSequenceNumber)
            try checkChain(frame.chain, household: household, firstSequenceNumber: frame.firstSequenceNumber)
            guard frame.records.count <= limits.frameRecordsBytesMax else {
                throw HouseholdHistoryError.limitExceeded(
                    what: "record bytes in the frame at sequence \(frame.firstSequenceNumber)", count: frame.records.count,
                    limit: limits.frameRecordsBytesMax)
            }
            newHead = HistoryHead(sequenceNumber: frame.lastSequenceNumber, chain: frame.chain)
        }
        // The accepted ranges cover the new records exactly, in order: no record without the
        // command that made it (one would be committed with no outcome to answer a retry).
        var nextFree = head.sequenceNumber + 1
        for (command, outcome) in zip(commands, executed.outcomes) {
            guard case .accepted(let first, let last) = outcome else { continue }
            guard first == nextFree, first <= last, last <= newHead.sequenceNumber else {
                throw HouseholdHistoryError.outcomeOutsideFrames(
                    household: household, commandID: command.commandID, firstSequenceNumber: first, lastSequenceNumber: last)
            }
            nextFree = last + 1
        }
        guard nextFree == newHead.sequenceNumber + 1 else {
            throw HouseholdHistoryError.malformedFrame(
                household: household, firstSequenceNumber: nextFree,
                reason: "records \(nextFree)...\(newHead.sequenceNumber) belong to no accepted command")
        }
        return newHead
    }
}
