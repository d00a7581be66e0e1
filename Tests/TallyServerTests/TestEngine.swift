import Crypto
import Foundation
import Synchronization
import TallyServer
import TallySyncWire

/// A stand-in for the engine: each command's body is its number of records (one byte); a body
/// of 0 is rejected. Each accepted command becomes one frame whose records are the command id's
/// bytes, chained as SHA-256(previous chain, records). It counts how often it executed each id.
final class TestEngine: Sendable {
    let executions = Mutex<[UUID: Int]>([:])

    static let genesisChain = [UInt8](repeating: 0, count: 32)

    static func command(records: UInt8 = 1) -> SubmittedCommand {
        SubmittedCommand(commandID: UUID(), body: [records])
    }

    static func chain(after previous: [UInt8], records: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: previous + records))
    }

    static func records(of commandID: UUID) -> [UInt8] {
        withUnsafeBytes(of: commandID.uuid) { Array($0) }
    }

    func execute(_ batch: AppendBatch) -> ExecutedBatch {
        var head = batch.head
        var frames: [HistoryFrame] = []
        var outcomes: [CommandOutcome] = []
        for command in batch.commands {
            executions.withLock { $0[command.commandID, default: 0] += 1 }
            let recordCount = UInt64(command.body.first ?? 0)
            guard recordCount > 0 else {
                outcomes.append(.rejected(code: "emptyCommand", message: "command \(command.commandID) has no records"))
                continue
            }
            let records = Self.records(of: command.commandID)
            let frame = HistoryFrame(
                firstSequenceNumber: head.sequenceNumber + 1, lastSequenceNumber: head.sequenceNumber + recordCount,
                records: records, chain: Self.chain(after: head.chain, records: records))
            frames.append(frame)
            outcomes.append(.accepted(firstSequenceNumber: frame.firstSequenceNumber, lastSequenceNumber: frame.lastSequenceNumber))
            head = HistoryHead(sequenceNumber: frame.lastSequenceNumber, chain: frame.chain)
        }
        return ExecutedBatch(frames: frames, outcomes: outcomes)
    }

    func executionCount(_ commandID: UUID) -> Int {
        executions.withLock { $0[commandID, default: 0] }
    }
}
