import Foundation
import Synchronization
import SystemPackage
import Tally
import TallyJournal
import TallyTestSupport
import Testing

/// Issue 29 item 2: a sync, backup or restore tool renames the journal folder (or the whole
/// ledger folder) and puts a copy in its place while a writer holds it. The writer must find
/// out before it acknowledges, and no second writer may get in while it lives.
@Suite("Folder swaps under a writer (issue 29)")
struct FolderSwapTests {
    private static func swap(_ path: FilePath) throws {
        let moved = path.string + ".moved"
        try FileManager.default.moveItem(atPath: path.string, toPath: moved)
        try FileManager.default.copyItem(atPath: moved, toPath: path.string)
    }

    private static func record(_ payload: [UInt8]) -> NewRecord {
        NewRecord(recordedAtMilliseconds: 1, typeTag: 1, schemaVersion: 1, payload: payload)
    }

    private static func isFolderReplaced(_ error: any Error) -> Bool {
        (error as? LedgerError)?.code == "folderReplaced"
    }

    @Test("I29.2: the journal folder moved and replaced by a copy: the writer acknowledges nothing more (folderReplaced), a second writer is refused while it lives, and the ledger holds exactly what was acknowledged", arguments: [DurabilityPolicy.synchronous, .none])
    func journalFolderSwapStopsTheWriter(durability: DurabilityPolicy) async throws {
        var s = Scenario()
        let test = try await TestLedger.make("swap-journal", durability: durability)
        defer { test.directory.remove() }
        let path = test.directory.appending("ledger")
        try await test.ledger.execute(s.setup())
        let acknowledged = await test.ledger.lastSequenceNumber
        try Self.swap(path.appending(LedgerDirectory.journalName))
        let late = s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(1_234)))
        await #expect(performing: { try await test.ledger.execute(late) }, throws: Self.isFolderReplaced)
        // Every later command is refused the same way: the writer is done.
        let later = s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(4_321)))
        await #expect(performing: { try await test.ledger.execute(later) }, throws: Self.isFolderReplaced)
        // The ledger folder is locked as a whole: a second writer is refused while the first lives.
        await #expect(performing: { try await test.reopen() }, throws: { ($0 as? LedgerError)?.code == "journalLocked" })
        try? await test.ledger.close()
        let reopened = try await test.reopen()
        #expect(await reopened.lastSequenceNumber == acknowledged, "nothing after the swap was acknowledged, and nothing acknowledged is missing")
        let followUp = s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(99)))
        try await reopened.execute(followUp)
        try await reopened.close()
    }

    @Test("I29.2: the whole ledger folder moved and replaced by a copy: the old writer stops before acknowledging (folderReplaced) while a writer of the copy goes on; the copy holds only what was acknowledged to it")
    func ledgerFolderSwapStopsTheOldWriter() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("swap-ledger", durability: .synchronous)
        defer { test.directory.remove() }
        let path = test.directory.appending("ledger")
        try await test.ledger.execute(s.setup())
        let acknowledged = await test.ledger.lastSequenceNumber
        try Self.swap(path)
        let second = try await test.reopen()  // the copy is a folder no writer holds
        let old = s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(1_234)))
        await #expect(performing: { try await test.ledger.execute(old) }, throws: Self.isFolderReplaced)
        let new = s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(5_678)))
        let positions = try await second.execute(new)
        #expect(positions.first?.sequenceNumber == acknowledged + 1, "the copy goes on from what was acknowledged")
        try? await test.ledger.close()
        try await second.close()
        let history = try LedgerReplay.replay(at: path)
        #expect(history.lastSequenceNumber == acknowledged + 1)
        #expect(try LedgerAudit.audit(at: path).isClean)
    }

    @Test("I29.2: Journal alone: an append after its folder was swapped throws folderReplaced, under every durability, and the journal refuses every later append")
    func journalStopsAfterItsFolderMoved() async throws {
        for durability in [DurabilityPolicy.synchronous, .none, .interval(milliseconds: 5)] {
            let directory = try TemporaryDirectory("tally-journal-swap")
            defer { directory.remove() }
            let path = directory.appending("journal")
            let journal = try Journal.open(at: path, options: JournalOptions(durability: durability))
            try await journal.append([Self.record([1, 2, 3])])
            try Self.swap(path)
            await #expect(throws: JournalError.folderReplaced(directory: path.string)) {
                try await journal.append([Self.record([4])])
            }
            await #expect(throws: JournalError.folderReplaced(directory: path.string)) {
                try await journal.append([Self.record([5])])
            }
            try? journal.close()
            let reader = try JournalReader.open(at: path)
            #expect(reader.lastSequenceNumber == 1, "\(durability): the copy holds the acknowledged record only")
        }
    }

    @Test("I29.1: Ledger.coveredStore beside a writer committing one command at a time: always a store (never nil as if ahead of the journal), covering a prefix no later than the journal's end, its rows as of that prefix")
    func coveredStoreBesideAWriter() async throws {
        var s = Scenario()
        let directory = try TemporaryDirectory("tally-covered-store")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        let ledger = try await Ledger.open(at: path, options: LedgerOptions(durability: .synchronous))
        try await ledger.execute(s.setup())
        let commands = (0..<150).map { index in s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(Int64(100 + index)))) }
        let finished = WriterFinished()
        let writer = Task {
            defer { finished.value.withLock { $0 = true } }
            for command in commands { _ = try await ledger.execute(command) }
        }
        var reads = 0
        var last: UInt64 = 0
        while reads < 40 || !finished.value.withLock({ $0 }) {
            let view = try #require(try Ledger.coveredStore(at: path), "a store a writer moves on is still served as far as it covers")
            #expect(view.sequenceNumber <= view.journalEnd)
            #expect(view.sequenceNumber >= last, "coverage never goes back")
            last = view.sequenceNumber
            view.store.close()
            reads += 1
            if reads >= 40, finished.value.withLock({ $0 }) { break }
            try await Task.sleep(for: .milliseconds(2))  // frees this thread: the writer task needs one of the pool too (2 cores)
        }
        try await writer.value
        try await ledger.close()
    }
}

/// Whether the writer task of ``FolderSwapTests/coveredStoreBesideAWriter()`` is done.
private final class WriterFinished: Sendable {
    let value = Mutex(false)
}
