#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SystemPackage
import Tally
import TallyJournal
import TallyModel
import TallyTestSupport
import Testing

/// Issue 13, classes A1, A3, A5, B8, C12, E18: what the ledger folder proves about its journal,
/// the lock, special files, permissions and a refused batch's residue, on the real file system.
@Suite("Ledger evidence and file safety")
struct LedgerEvidenceTests {
    /// A closed ledger with a checkpoint at its last sequence number and a personal-key store.
    private func closedLedger(_ label: String, transactions: Int = 30) async throws -> (TemporaryDirectory, FilePath, UInt64) {
        var s = Scenario()
        let test = try await TestLedger.make(label)
        try await test.ledger.execute(s.setup())
        for index in 0..<transactions {
            try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(Int64(100 + index)))))
        }
        let last = await test.ledger.lastSequenceNumber
        try await test.ledger.close()
        return (test.directory, test.directory.appending("ledger"), last)
    }

    private func segment(of ledger: FilePath) throws -> FilePath {
        let journal = ledger.appending(LedgerDirectory.journalName)
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: journal.string).filter { $0.hasSuffix(".segment") }.sorted().last)
        return journal.appending(name)
    }

    private func isShorterThanEvidence(_ error: any Error, last: UInt64, proven: UInt64) -> Bool {
        guard let error = error as? LedgerError, case .storage(.journalShorterThanEvidence(let journalLast, let evidence)) = error else { return false }
        return journalLast == last && evidence.lastSequenceNumber == proven
    }

    @Test("A3: a journal truncated below its checkpoint is refused by open and replay (journalShorterThanEvidence, nothing cut); repair keeps the prefix explicitly")
    func truncationBelowCheckpointIsRefused() async throws {
        let (directory, ledger, last) = try await closedLedger("truncated")
        defer { directory.remove() }
        let segment = try segment(of: ledger)
        let cutAt = try JournalReader.open(at: ledger.appending(LedgerDirectory.journalName)).location(of: last - 10)
        let kept = last - 11  // one transaction per frame: the cut is at the frame holding last - 10
        #expect(truncate(segment.string, off_t(cutAt.offset)) == 0)
        let sizeBefore = try FileManager.default.attributesOfItem(atPath: segment.string)[.size] as? Int
        await #expect(performing: { try await Ledger.open(at: ledger, options: LedgerOptions(durability: .none)) },
                      throws: { isShorterThanEvidence($0, last: kept, proven: last) })
        #expect(performing: { try LedgerReplay.replay(at: ledger) }, throws: { isShorterThanEvidence($0, last: kept, proven: last) })
        #expect(try FileManager.default.attributesOfItem(atPath: segment.string)[.size] as? Int == sizeBefore, "open cut nothing")
        let prefix = try LedgerReplay.replay(at: ledger, allowingDamage: true)
        #expect(prefix.lastSequenceNumber == kept && prefix.droppedProblems.map(\.kind) == [.missingRecords])
        #expect(try LedgerAudit.audit(at: ledger).problems.map(\.code).contains("missingRecords"))

        let plan = try LedgerRepair.plan(at: ledger)
        #expect(plan.keptThrough == kept && plan.evidence?.lastSequenceNumber == last)
        let setAside = try #require(try LedgerRepair.apply(plan, at: ledger))
        #expect(FileManager.default.fileExists(atPath: LedgerDirectory(setAside).readSideStore.string), "the store, with the checkpoint, is set aside")
        let reopened = try await Ledger.open(at: ledger, options: LedgerOptions(durability: .none))
        #expect(await reopened.lastSequenceNumber == kept)
        try await reopened.close()
        #expect(try LedgerRepair.plan(at: ledger).isEmpty, "a second repair finds nothing to do")
    }

    @Test("A3: a last frame that looks torn (its end zeroed) but that the checkpoint proves acknowledged is refused, never cut; repair sets its bytes aside")
    func tornLookingFrameBelowEvidenceIsSetAside() async throws {
        let (directory, ledger, last) = try await closedLedger("torn-evidence", transactions: 5)
        defer { directory.remove() }
        let segment = try segment(of: ledger)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: segment.string))
        let lastFrame = try JournalReader.open(at: ledger.appending(LedgerDirectory.journalName)).location(of: last)
        bytes.replaceSubrange((bytes.count - 64)..<bytes.count, with: Data(count: 64))
        try bytes.write(to: URL(fileURLWithPath: segment.string))
        await #expect(performing: { try await Ledger.open(at: ledger, options: LedgerOptions(durability: .none)) },
                      throws: { isShorterThanEvidence($0, last: last - 1, proven: last) })
        #expect(try Data(contentsOf: URL(fileURLWithPath: segment.string)) == bytes, "nothing was cut")
        let plan = try LedgerRepair.plan(at: ledger)
        #expect(plan.keptThrough == last - 1 && plan.journal.cutOffset == lastFrame.offset && plan.evidence != nil)
        let setAside = try #require(try LedgerRepair.apply(plan, at: ledger))
        let saved = setAside.appending(LedgerDirectory.journalName).appending("\(segment.lastComponent?.string ?? "").from-\(lastFrame.offset)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: saved.string)) == bytes.suffix(from: Int(lastFrame.offset)), "the frame's bytes are kept")
        let reopened = try await Ledger.open(at: ledger, options: LedgerOptions(durability: .none))
        #expect(await reopened.lastSequenceNumber == last - 1)
        try await reopened.close()
    }

    @Test("A4: a frame altered with its checksum recomputed (records that do not decode) is refused by readers, and repair cuts there instead of saying there is nothing to repair")
    func undecodableFrameIsRepaired() async throws {
        let (directory, ledger, last) = try await closedLedger("undecodable", transactions: 12)
        defer { directory.remove() }
        let segment = try segment(of: ledger)
        let frame = try JournalReader.open(at: ledger.appending(LedgerDirectory.journalName)).location(of: last - 5)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: segment.string)))
        let start = Int(frame.offset)
        let stored = Int(bytes[start + 8]) | Int(bytes[start + 9]) << 8 | Int(bytes[start + 10]) << 16 | Int(bytes[start + 11]) << 24
        bytes[start + 40] ^= 0x55  // the last recordedAt: the records no longer match the header
        let crc = bytes.withUnsafeBytes { all in
            CRC32C.extend(CRC32C.extend(0, UnsafeRawBufferPointer(rebasing: all[start..<(start + 92)])),
                          UnsafeRawBufferPointer(rebasing: all[(start + 96)..<(start + 96 + stored)]))
        }
        for index in 0..<4 { bytes[start + 92 + index] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(index))) }
        try Data(bytes).write(to: URL(fileURLWithPath: segment.string))
        #expect(throws: LedgerError.self) { try LedgerReplay.replay(at: ledger) }
        let plan = try LedgerRepair.plan(at: ledger)
        #expect(plan.keptThrough == last - 6 && plan.journal.cutOffset == frame.offset, "\(plan)")
        try LedgerRepair.apply(plan, at: ledger)
        #expect(try LedgerReplay.replay(at: ledger).lastSequenceNumber == last - 6)
    }

    @Test("A3/C12: a segment emptied, replaced by a link to /dev/zero or a FIFO, or deleted is refused with a typed error; the journal is never started afresh and open never blocks")
    func emptiedOrReplacedJournalIsRefused() async throws {
        for variant in ["empty", "dev-zero", "fifo", "deleted"] {
            let (directory, ledger, last) = try await closedLedger("emptied-\(variant)", transactions: 3)
            defer { directory.remove() }
            let segment = try segment(of: ledger)
            try FileManager.default.removeItem(atPath: segment.string)
            switch variant {
            case "empty": FileManager.default.createFile(atPath: segment.string, contents: Data())
            case "dev-zero": try FileManager.default.createSymbolicLink(atPath: segment.string, withDestinationPath: "/dev/zero")
            case "fifo": #expect(mkfifo(segment.string, 0o600) == 0)
            default: break
            }
            await #expect(performing: { try await Ledger.open(at: ledger, options: LedgerOptions(durability: .none)) }, throws: { error in
                guard let error = error as? LedgerError, case .storage(let storage) = error else { return false }
                switch (variant, storage) {
                case ("empty", .corruption(let problem)): return problem.kind == .badSegmentHeader && problem.location.sequenceNumber == 1
                case ("dev-zero", .notARegularFile), ("fifo", .notARegularFile): return true
                case ("deleted", .journalShorterThanEvidence(0, let evidence)): return evidence.lastSequenceNumber == last
                default: return false
                }
            })
            #expect(throws: LedgerError.self, "\(variant)") { try LedgerReplay.replay(at: ledger) }
            let names = try FileManager.default.contentsOfDirectory(atPath: ledger.appending(LedgerDirectory.journalName).string)
            #expect(names.filter { $0.hasSuffix(".segment") }.count == (variant == "deleted" ? 0 : 1), "no fresh journal was created (\(variant))")
        }
    }

    @Test("C12: a FIFO in place of the key store is refused (notARegularFile); one in place of the store (with the checkpoint) is removed and the store rebuilt; neither blocks")
    func fifoKeyStoreOrCheckpointIsRefused() async throws {
        for target in ["personal-keys", "store"] {
            let (directory, ledger, _) = try await closedLedger("fifo-\(target)", transactions: 2)
            defer { directory.remove() }
            let path = target == "personal-keys"
                ? ledger.appending(LedgerDirectory.personalKeysName)
                : LedgerDirectory(ledger).readSideStore
            try FileManager.default.removeItem(atPath: path.string)
            #expect(mkfifo(path.string, 0o600) == 0)
            do {
                let opened = try await Ledger.open(at: ledger, options: LedgerOptions(durability: .none))
                // The store is only a cache: one that cannot be read costs a replay and a rebuild.
                #expect(target == "store" && opened.openReport.checkpointSequenceNumber == nil && opened.openReport.readSide.hasPrefix("rebuilt"),
                        "\(opened.openReport)")
                try await opened.close()
            } catch {
                #expect(target == "personal-keys" && (error as? LedgerError)?.code == "notARegularFile", "\(error)")
            }
        }
    }

    @Test("P2: a personal-key file swapped in from another ledger (same people, other keys) is refused at open, before any text is sealed with it, although a checkpoint holds the texts readable")
    func foreignKeyFileIsRefused() async throws {
        let (directory, ledger, _) = try await closedLedger("keys-ours", transactions: 2)
        defer { directory.remove() }
        let (otherDirectory, other, _) = try await closedLedger("keys-theirs", transactions: 2)
        defer { otherDirectory.remove() }
        let ours = ledger.appending(LedgerDirectory.personalKeysName).string
        try FileManager.default.removeItem(atPath: ours)
        try FileManager.default.copyItem(atPath: other.appending(LedgerDirectory.personalKeysName).string, toPath: ours)
        await #expect(performing: { try await Ledger.open(at: ledger, options: LedgerOptions(durability: .none)) }, throws: { error in
            guard let error = error as? LedgerError, case .personalKeys(let message) = error else { return false }
            return message.contains("cannot be opened")
        })
    }

    @Test("A5: a batch the journal refuses (frame limit) leaves no personal key behind, in memory or on disk")
    func refusedBatchLeavesNoKeys() async throws {
        var s = Scenario()
        let directory = try TemporaryDirectory("tally-engine-residue")
        defer { directory.remove() }
        var options = LedgerOptions(durability: .none)
        options.commandsPerBatchMax = 2_000
        // The frame's byte limit: known only once the batch is validated and its texts sealed
        // (the record count is refused before that, batchTooLarge, so no key is ever made).
        options.journalLimits.frameBytesMax = 8_192
        let path = directory.appending("ledger")
        let ledger = try await Ledger.open(at: path, options: options)
        try await ledger.execute(s.setup())
        let keyFile = path.appending(LedgerDirectory.personalKeysName).string
        let keysBefore = try Data(contentsOf: URL(fileURLWithPath: keyFile))
        let people = (0..<1_000).map { index in s.command(.addPerson(personID: s.ids.next(), name: "P\(index)")) }
        await #expect(performing: { try await ledger.execute(people) }, throws: { ($0 as? LedgerError)?.code == "frameTooLarge" })
        #expect(try Data(contentsOf: URL(fileURLWithPath: keyFile)) == keysBefore, "the key file is unchanged")
        try await ledger.execute(s.command(.addPerson(personID: s.ids.next(), name: "Dora")))
        try await ledger.close()
        let keys = try Data(contentsOf: URL(fileURLWithPath: keyFile))
        #expect(keys.count - keysBefore.count == PersonalDataTests.oneKeyRecordBytes, "only Dora's key was added: one record of one key")
        #expect(keys.starts(with: keysBefore))
    }

    @Test("A1: the writer lock is on the journal directory itself: there is no lock file to delete, and a second writer is refused")
    func lockDoesNotDependOnAnUnlinkablePath() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("lock")
        defer { test.directory.remove() }
        try await test.ledger.execute(s.setup())
        let journal = test.directory.appending("ledger").appending(LedgerDirectory.journalName)
        let names = try FileManager.default.contentsOfDirectory(atPath: journal.string)
        #expect(names.allSatisfy { $0.hasSuffix(".segment") }, "only segments: \(names)")
        await #expect(performing: { try await test.reopen() }, throws: { ($0 as? LedgerError)?.code == "journalLocked" })
        #expect(throws: JournalError.journalLocked(directory: journal.string)) { try Journal.lockWriter(at: journal) }
        try await test.ledger.close()
    }

    @Test("E18: the ledger folder and its folders are created 0700 and files 0600 whatever the umask; audit reports a key store or segment others can read")
    func permissionsAreOwnerOnly() async throws {
        let (directory, ledger, _) = try await closedLedger("permissions", transactions: 1)
        defer { directory.remove() }
        func mode(_ path: FilePath) throws -> Int { try #require(FileManager.default.attributesOfItem(atPath: path.string)[.posixPermissions] as? Int) }
        #expect(try mode(ledger) == 0o700)
        #expect(try mode(ledger.appending(LedgerDirectory.journalName)) == 0o700)
        #expect(try mode(ledger.appending(LedgerDirectory.personalKeysName)) == 0o600)
        #expect(try mode(segment(of: ledger)) == 0o600)
        #expect(try LedgerAudit.audit(at: ledger).isClean)
        #expect(chmod(ledger.appending(LedgerDirectory.personalKeysName).string, 0o644) == 0)
        #expect(chmod(try segment(of: ledger).string, 0o640) == 0)
        let setAside = ledger.appending(LedgerDirectory.repairName).appending("1")
        try FileManager.default.createDirectory(atPath: setAside.string, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        #expect(FileManager.default.createFile(atPath: setAside.appending("cut").string, contents: Data([1]), attributes: [.posixPermissions: 0o644]))
        let problems = try LedgerAudit.audit(at: ledger).problems.filter { $0.code == "permissionsTooOpen" }
        #expect(problems.count == 3 && problems.contains { $0.message.contains("\(LedgerDirectory.personalKeysName) has mode 644") }, "\(problems)")
        #expect(problems.contains { $0.message.contains("repair/1/cut has mode 644") }, "what repair set aside is checked too")
    }
}
