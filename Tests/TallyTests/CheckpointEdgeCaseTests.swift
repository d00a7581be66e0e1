import Foundation
import SystemPackage
@testable import Tally
import TallyJournal
import TallyModel
import TallyTestSupport
import Testing
import TallyStore

/// Checkpoints are only a cache: one that does not belong to the journal (stale, foreign,
/// another format, too large) is rejected with its reason and the ledger opens by full replay;
/// a failed or interrupted checkpoint write never stops the ledger.
@Suite("Checkpoint edge cases", .serialized)
struct CheckpointEdgeCaseTests {
    /// Checkpoints only when asked (`Ledger.checkpoint()`), no fsync.
    static func options() -> LedgerOptions { .checkpointsOnRequest(durability: .none) }

    static func checkpointNames(_ ledger: FilePath) throws -> [String] {
        let directory = ledger.appending(LedgerDirectory.checkpointsName).string
        guard FileManager.default.fileExists(atPath: directory) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { !$0.hasPrefix(LedgerDirectory.checkpointArchiveName) }.sorted()
    }

    /// Opens `path` and expects a full replay that rejected one checkpoint for `reason`, and the
    /// same read models as a replay of the journal alone.
    static func expectFullReplay(at path: FilePath, rejectedFor reason: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let ledger = try await Ledger.open(at: path, options: options())
        #expect(ledger.openReport.checkpointSequenceNumber == nil, sourceLocation: sourceLocation)
        #expect(ledger.openReport.eventsReplayed == (await ledger.lastSequenceNumber), sourceLocation: sourceLocation)
        #expect(ledger.openReport.rejectedCheckpoints.count == 1, "\(ledger.openReport.rejectedCheckpoints)", sourceLocation: sourceLocation)
        #expect(ledger.openReport.rejectedCheckpoints.first?.contains(reason) == true,
                "\(ledger.openReport.rejectedCheckpoints)", sourceLocation: sourceLocation)
        let replayed = try LedgerReplay.replay(at: path)
        #expect(try await ledger.readModels.canonicalJSON().text == replayed.readModels.canonicalJSON().text, sourceLocation: sourceLocation)
        #expect(await ledger.state == replayed.state, sourceLocation: sourceLocation)
        try await ledger.close()
    }

    @Test("checkpoint guarantee (issue 13 A3): a checkpoint beyond the journal's end is evidence of acknowledged records: open and replay refuse the shorter journal (journalShorterThanEvidence naming the checkpoint), nothing is cut")
    func staleCheckpointIsRejected() async throws {
        let directory = try TemporaryDirectory("tally-ckp-stale")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        let ledger = try await Ledger.open(at: path, options: Self.options())
        try await ledger.execute(s.setup())
        try await ledger.close()
        let journal = path.appending(LedgerDirectory.journalName).string
        try FileManager.default.copyItem(atPath: journal, toPath: directory.appending("journal-early").string)
        let longer = try await Ledger.open(at: path, options: Self.options())
        try await longer.execute(s.command(.recordTransaction(s.ids.next(), s.expense(1200))))
        try await longer.checkpoint()
        let checkpointed = await longer.lastSequenceNumber
        try await longer.close()
        try FileManager.default.removeItem(atPath: journal)
        try FileManager.default.moveItem(atPath: directory.appending("journal-early").string, toPath: journal)
        let isShorter: (any Error) -> Bool = { error in
            guard case .storage(.journalShorterThanEvidence(let last, let evidence))? = error as? LedgerError else { return false }
            return last == checkpointed - 1 && evidence.lastSequenceNumber == checkpointed && evidence.source.hasSuffix(LedgerDirectory.checkpointSuffix)
        }
        await #expect(performing: { try await Ledger.open(at: path, options: Self.options()) }, throws: isShorter)
        #expect(performing: { try LedgerReplay.replay(at: path) }, throws: isShorter)
        #expect(try LedgerReplay.replay(at: path, allowingDamage: true).lastSequenceNumber == checkpointed - 1)
    }

    @Test("checkpoint guarantee (issue 13 A3): a checkpoint of another journal (same sequence number, other chain) is evidence the journal was replaced: open refuses with chainMismatch at that frame; repair sets the checkpoint aside")
    func foreignCheckpointIsRejected() async throws {
        let directory = try TemporaryDirectory("tally-ckp-foreign")
        defer { directory.remove() }
        var checkpointed: UInt64 = 0
        for (name, clock) in [("ours", Int64(1_767_607_200_000)), ("theirs", 1_767_700_000_000)] {
            var s = Scenario()
            s.clock = clock  // same commands recorded at other times: other bytes, other chain
            let ledger = try await Ledger.open(at: directory.appending(name), options: Self.options())
            try await ledger.execute(s.setup())
            try await ledger.checkpoint()
            checkpointed = await ledger.lastSequenceNumber
            try await ledger.close()
        }
        let ours = directory.appending("ours").appending(LedgerDirectory.checkpointsName).string
        let theirs = directory.appending("theirs").appending(LedgerDirectory.checkpointsName).string
        for name in try FileManager.default.contentsOfDirectory(atPath: ours) {
            try FileManager.default.removeItem(atPath: ours + "/" + name)
            try FileManager.default.copyItem(atPath: theirs + "/" + name, toPath: ours + "/" + name)
        }
        let isChainMismatch: (any Error) -> Bool = { error in
            guard case .storage(.corruption(let problem))? = error as? LedgerError else { return false }
            return problem.kind == .chainMismatch && problem.location.sequenceNumber != nil && problem.detail.contains("after sequence \(checkpointed)")
        }
        await #expect(performing: { try await Ledger.open(at: directory.appending("ours"), options: Self.options()) }, throws: isChainMismatch)
        let plan = try LedgerRepair.plan(at: directory.appending("ours"))
        #expect(plan.journal.isEmpty && plan.checkpointMismatch != nil && plan.setAsideCheckpoints.count == 1)
        try LedgerRepair.apply(plan, at: directory.appending("ours"))
        let repaired = try await Ledger.open(at: directory.appending("ours"), options: Self.options())
        #expect(await repaired.lastSequenceNumber == checkpointed && repaired.openReport.checkpointSequenceNumber == nil)
        try await repaired.close()
    }

    @Test("checkpoint guarantee: a checkpoint of another format version (CRC recomputed) is rejected as unsupported")
    func otherFormatVersionIsRejected() async throws {
        let directory = try TemporaryDirectory("tally-ckp-version")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        let ledger = try await Ledger.open(at: path, options: Self.options())
        try await ledger.execute(s.setup())
        try await ledger.checkpoint()
        try await ledger.close()
        let name = try #require(try Self.checkpointNames(path).first)
        let file = path.appending(LedgerDirectory.checkpointsName).appending(name).string
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        bytes[8] = 3  // format version (UInt16 LE at offset 8); 1 and 2 (history archived) are known
        bytes[9] = 0
        let crc = bytes.withUnsafeBytes { CRC32C.extend(0, UnsafeRawBufferPointer(rebasing: $0[0..<(bytes.count - 4)])) }
        withUnsafeBytes(of: crc.littleEndian) { bytes.replaceSubrange((bytes.count - 4)..<bytes.count, with: $0) }
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        try await Self.expectFullReplay(at: path, rejectedFor: "checkpoint format 3 is not supported")
    }

    @Test("checkpoint guarantee: a validation state of the previous layout (tally.ledgerState.v6: hand-written record layouts, a person's forgottenAt without a presence byte) is passed over and the ledger replays")
    func previousLedgerStateLayoutIsPassedOver() async throws {
        let directory = try TemporaryDirectory("tally-ckp-state-previous")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        let ledger = try await Ledger.open(at: path, options: Self.options())
        try await ledger.execute(s.setup())
        try await ledger.execute(s.command(.setPayday(day: 25)))
        try await ledger.checkpoint()
        try await ledger.close()
        let name = try #require(try Self.checkpointNames(path).first)
        let file = path.appending(LedgerDirectory.checkpointsName).appending(name).string
        var checkpoint = try Checkpoint.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: file))))
        var state = try #require(checkpoint.sections[FoldedState.ledgerStateSection])
        let current = Array(LedgerState.checkpointMagic.utf8)
        let previous = Array("tally.ledgerState.v6".utf8)
        try #require(state[0] == UInt8(current.count) && Array(state[1...current.count]) == current)
        state.replaceSubrange(0...current.count, with: [UInt8(previous.count)] + previous)  // the length byte and the magic
        checkpoint.sections[FoldedState.ledgerStateSection] = state
        try Data(checkpoint.encoded()).write(to: URL(fileURLWithPath: file))
        try await Self.expectFullReplay(at: path, rejectedFor: "not a ledger state checkpoint")
    }

    @Test("checkpoint guarantee: a checkpoint file over CheckpointStore's size bound is rejected before it is read")
    func oversizedCheckpointIsRejected() async throws {
        let directory = try TemporaryDirectory("tally-ckp-size")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        let ledger = try await Ledger.open(at: path, options: Self.options())
        try await ledger.execute(s.setup())
        try await ledger.close()
        let checkpoints = path.appending(LedgerDirectory.checkpointsName).string
        try FileManager.default.createDirectory(atPath: checkpoints, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // A sparse file of 1 GiB + 1 byte: nothing is allocated on disk unless it is read.
        let file = checkpoints + "/00000000000000000004.checkpoint"
        #expect(FileManager.default.createFile(atPath: file, contents: nil, attributes: [.posixPermissions: 0o600]))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        try handle.truncate(atOffset: UInt64(1 << 30) + 1)
        try handle.close()
        try await Self.expectFullReplay(at: path, rejectedFor: "more than the \(1 << 30) a checkpoint may have; not read")
        let audit = try LedgerAudit.audit(at: path)
        #expect(audit.problems.map(\.code) == ["checkpointUnreadable"], "\(audit.problems)")
    }

    @Test("checkpoint guarantee: a leftover *.checkpoint.tmp is removed at open and never used")
    func leftoverTemporaryFileIsRemovedAtOpen() async throws {
        let directory = try TemporaryDirectory("tally-ckp-tmp")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        let ledger = try await Ledger.open(at: path, options: Self.options())
        try await ledger.execute(s.setup())
        try await ledger.checkpoint()
        try await ledger.close()
        let checkpoints = path.appending(LedgerDirectory.checkpointsName).string
        let name = try #require(try Self.checkpointNames(path).first)
        try FileManager.default.copyItem(atPath: checkpoints + "/" + name, toPath: checkpoints + "/00000000000000000099.checkpoint.tmp")
        #expect(FileManager.default.createFile(atPath: checkpoints + "/00000000000000000100.checkpoint.tmp", contents: Data([1, 2, 3])))
        let reopened = try await Ledger.open(at: path, options: Self.options())
        #expect(try Self.checkpointNames(path) == [name])
        #expect(reopened.openReport.checkpointSequenceNumber == UInt64(name.prefix(20)) && reopened.openReport.rejectedCheckpoints.isEmpty)
        try await reopened.close()
    }

    @Test("checkpoint guarantee: a failed checkpoint write increments checkpointFailures; commands go on and the ledger reopens equal")
    func failedCheckpointWriteIsCounted() async throws {
        let fileSystem = FaultInjectingFileSystem(seed: 21)
        try fileSystem.createDirectory(at: FilePath("/households"))
        var options = LedgerOptions()
        options.fileSystem = fileSystem
        options.checkpointIntervalEvents = 2
        let path = FilePath("/households/muster")
        var s = Scenario()
        let ledger = try await Ledger.open(at: path, options: options)
        try await ledger.execute(s.setup())  // 14 events: a checkpoint is written
        await ledger.checkpointWritten()  // in the background, off the actor
        #expect(await ledger.checkpointFailures == 0)
        fileSystem.failNextRename(.ioError)  // the checkpoint's rename (no journal rotation here)
        try await ledger.execute(s.command(.recordTransaction(s.ids.next(), s.expense(1200))))
        try await ledger.execute(s.command(.recordTransaction(s.ids.next(), s.expense(1300))))
        await ledger.checkpointWritten()
        #expect(await ledger.checkpointFailures == 1)
        fileSystem.failNextSync(.noSpace)
        await #expect { try await ledger.checkpoint() } throws: { error in (error as? LedgerError)?.code == "diskFull" }
        try await ledger.execute(s.command(.recordTransaction(s.ids.next(), s.expense(1400))))
        try await ledger.execute(s.command(.recordTransaction(s.ids.next(), s.expense(1500))))
        let live = try await ledger.readModels.canonicalJSON().text
        let last = await ledger.lastSequenceNumber
        try await ledger.close()
        let reopened = try await Ledger.open(at: path, options: options)
        #expect(await reopened.lastSequenceNumber == last)
        #expect(try await reopened.readModels.canonicalJSON().text == live)
        #expect(try fileSystem.contentsOfDirectory(at: path.appending(LedgerDirectory.checkpointsName)).allSatisfy { !$0.hasSuffix(LedgerDirectory.temporarySuffix) })
        try await reopened.close()
    }

    @Test("checkpoint guarantee: a crash at any step of a checkpoint write loses nothing acknowledged; reopen removes the temporary file")
    func crashWhileWritingCheckpoint() async throws {
        var crashedInside = 0
        for operations in 0...6 {
            for mode in [FaultInjectingFileSystem.CrashMode.dropUnsynced, .keepEverything, .tornPrefix] {
                let fileSystem = FaultInjectingFileSystem(seed: UInt64(operations))
                try fileSystem.createDirectory(at: FilePath("/households"))
                var options = LedgerOptions.checkpointsOnRequest()
                options.fileSystem = fileSystem
                let path = FilePath("/households/muster")
                var s = Scenario()
                let ledger = try await Ledger.open(at: path, options: options)
                try await ledger.execute(s.setup())
                try await ledger.checkpoint()
                try await ledger.execute(s.command(.recordTransaction(s.ids.next(), s.expense(1200))))
                let acknowledged = await ledger.state
                let live = try await ledger.readModels.canonicalJSON().text
                fileSystem.crash(afterOperations: operations, mode: mode)
                try? await ledger.checkpoint()
                if fileSystem.crashCount == 0 {  // the write needed fewer operations: crash after it
                    fileSystem.clearFaults()
                    fileSystem.crash(mode)
                } else {
                    crashedInside += 1
                }
                let reopened = try await Ledger.open(at: path, options: options)
                #expect(await reopened.state == acknowledged, "crash after \(operations) operations, \(mode)")
                #expect(try await reopened.readModels.canonicalJSON().text == live, "crash after \(operations) operations, \(mode)")
                let names = try fileSystem.contentsOfDirectory(at: path.appending(LedgerDirectory.checkpointsName))
                #expect(names.allSatisfy { !$0.hasSuffix(LedgerDirectory.temporarySuffix) }, "\(names)")
                try await reopened.close()
            }
        }
        #expect(crashedInside >= 4 * 3, "create, write, sync, rename and directory sync of the temporary file are each interrupted")
    }
}
