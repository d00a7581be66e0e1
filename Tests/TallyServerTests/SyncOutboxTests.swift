import Foundation
import Synchronization
import Tally
import TallyInterchange
import TallyModel
import TallyServer
import TallyTestSupport
import Testing

@testable import TallySync
@testable import TallySyncServer
import TallySyncWire

/// Issue 32 (Docs/Sync.md, "The outbox"): a synced device keeps working offline; its commands wait
/// in a durable outbox, are shown on top of the confirmed state, and are pushed when it is back.
@Suite("Sync: a device's outbox")
struct SyncOutboxTests {
    static let offlineNote = "Bob's offline lunch with his sister"

    /// A transport that is offline while ``online`` is false, and loses the answer of the next
    /// ``losingAnswers`` pushes after the server committed them (a device killed during a push).
    final class SwitchedTransport: SyncTransport, Sendable {
        let base: any SyncTransport
        let online = Atomic<Bool>(true)
        let losingAnswers = Atomic<Int>(0)
        let failingPulls = Atomic<Bool>(false)

        init(_ base: any SyncTransport) { self.base = base }

        func push(_ commands: [SubmittedCommand]) async throws -> [CommandOutcome] {
            guard online.load(ordering: .sequentiallyConsistent) else { throw SyncError.transport("offline") }
            let outcomes = try await base.push(commands)
            if losingAnswers.load(ordering: .sequentiallyConsistent) > 0 {
                losingAnswers.subtract(1, ordering: .sequentiallyConsistent)
                throw SyncError.transport("the device died before the answer arrived")
            }
            return outcomes
        }

        func pull(after sequenceNumber: UInt64, chain: [UInt8], limit: Int, waitMilliseconds: Int, keysAfter keySerial: Int64) async throws -> PulledPage {
            guard online.load(ordering: .sequentiallyConsistent), !failingPulls.load(ordering: .sequentiallyConsistent) else { throw SyncError.transport("offline") }
            return try await base.pull(after: sequenceNumber, chain: chain, limit: limit, waitMilliseconds: waitMilliseconds, keysAfter: keySerial)
        }

        func shareKeys(_ keys: [SealedPersonKey], secretVerifier: [UInt8]) async throws -> [UUID] {
            guard online.load(ordering: .sequentiallyConsistent) else { throw SyncError.transport("offline") }
            return try await base.shareKeys(keys, secretVerifier: secretVerifier)
        }

        func keys(after serial: Int64) async throws -> [StoredPersonKey] {
            guard online.load(ordering: .sequentiallyConsistent) else { throw SyncError.transport("offline") }
            return try await base.keys(after: serial)
        }

        func invite(for person: UUID?) async throws -> (invitation: DeviceInvitation, code: String) {
            guard online.load(ordering: .sequentiallyConsistent) else { throw SyncError.transport("offline") }
            return try await base.invite(for: person)
        }
    }

    /// The values an observation yielded, gathered by a task beside the test.
    final class Gathered: Sendable {
        let values = Mutex<[[TransactionID]]>([])
    }

    /// Bob's device on a switched transport to the household's first server.
    static func bob(_ household: SyncTests.Household) async throws -> (SyncDevice, SwitchedTransport) {
        var switched: SwitchedTransport?
        let bob = try await household.bob(on: 0) { server, device, _ in
            let transport = SwitchedTransport(server.transport(for: device))
            switched = transport
            return transport
        }
        guard let switched else { throw SyncError.transport("no transport was made") }
        return (bob, switched)
    }

    /// The device restarted: its ledger closed and opened again, its outbox read back from disk.
    static func restart(_ device: SyncDevice, transport: any SyncTransport) async throws -> SyncDevice {
        let directory = device.ledger.directory
        try await device.close()
        return try await SyncDevice(ledger: try await Ledger.open(at: directory), transport: transport)
    }

    @Test("Issue 32 (Flow US-051, offline): a command made offline is durable in the outbox across a restart, shown on top of the confirmed state with its note readable, never written to the ledger directly (syncedLedger), and pushed when the device is back, after what another device pushed meanwhile")
    func offlineCommandsWaitInTheOutbox() async throws {
        try await TestPostgres.withHistory { history in
            var household = try await SyncTests.Household(histories: [history])
            var (bob, transport) = try await Self.bob(household)
            defer { Task { [household, bob] in await household.close([household.alice, bob]) } }
            transport.online.store(false, ordering: .sequentiallyConsistent)

            let lunch = household.scenario.ids.next() as TransactionID
            var entry = household.scenario.expense(1_500, payer: household.scenario.bob)
            entry.note = Self.offlineNote
            let command = household.scenario.command(.recordTransaction(transactionID: lunch, entry: entry), by: household.scenario.bob)
            try await bob.submit(command)
            try await bob.submit(command)  // submitting again does nothing
            #expect(await bob.pendingCommandIDs == [command.commandID])
            #expect(await bob.ledger.readModels.transactions[lunch]?.details.note?.text == Self.offlineNote, "the ledger's reads show the outbox on top")
            #expect(try await bob.read { $0.transactions[lunch]?.details.note?.text } == Self.offlineNote)
            await #expect(throws: SyncError.transport("offline")) { try await bob.sync() }

            // A write beside the device would never reach the server.
            let beside = household.scenario.command(.recordTransaction(transactionID: household.scenario.ids.next(), entry: household.scenario.expense(100, payer: household.scenario.bob)), by: household.scenario.bob)
            do {
                try await bob.ledger.execute(beside)
                Issue.record("a synced ledger must refuse a direct write")
            } catch {
                #expect((error as? LedgerError)?.code == "syncedLedger", "\(error)")
            }

            // The outbox survives a restart, and holds no note in clear.
            bob = try await Self.restart(bob, transport: transport)
            #expect(await bob.pendingCommandIDs == [command.commandID])
            #expect(try await bob.read { $0.transactions[lunch]?.details.note?.text } == Self.offlineNote)
            let outbox = LedgerDirectory(bob.ledger.directory).syncOutbox.string
            for file in [outbox, outbox + "-wal"] {
                let bytes = FileManager.default.contents(atPath: file).map { Array($0) } ?? []
                #expect(bytes.firstRange(of: Array(Self.offlineNote.utf8)) == nil, "\(file) holds the note in clear")
            }
            do {
                try await bob.ledger.execute(beside)
                Issue.record("the mark survives a restart")
            } catch {
                #expect((error as? LedgerError)?.code == "syncedLedger", "\(error)")
            }

            // Alice pushes meanwhile; Bob's command comes after hers.
            let aliceRange = try await household.alice.execute(household.scenario.command(
                .recordTransaction(transactionID: household.scenario.ids.next(), entry: household.scenario.expense(2_400, shared: true))))
            transport.online.store(true, ordering: .sequentiallyConsistent)
            let report = try await bob.sync()
            let bobRange = try #require(report.accepted[command.commandID])
            #expect(bobRange.lowerBound > aliceRange.upperBound && report.rejected.isEmpty)
            #expect(await bob.pendingCommandIDs.isEmpty)
            #expect(await bob.ledger.readModels.transactions[lunch]?.details.note?.text == Self.offlineNote)
            let shown = try await bob.read { $0 }
            #expect(await shown == bob.ledger.readModels, "with an empty outbox a device shows its confirmed state")
            try await household.alice.pull()
            #expect(try await household.alice.ledger.events() == bob.ledger.events())
        }
    }

    @Test("Issue 32 (local first, Flow US-051): every read of a synced device's ledger shows its outbox on top: the transaction list, search, the store's balances and an observation include an expense made offline, across a restart; nothing of it is committed to the store (the ledger audits clean); once pushed and pulled it is listed once, confirmed; a damaged outbox is reported by the audit", .timeLimit(.minutes(10)))
    func storeBackedScreensShowThePendingCommands() async throws {
        try await TestPostgres.withHistory { history in
            var household = try await SyncTests.Household(histories: [history])
            var (bob, transport) = try await Self.bob(household)
            defer { Task { [household, bob] in await household.close([household.alice, bob]) } }
            let bobID = household.scenario.bob
            let bobsView = TransactionQuery(visibleTo: .member(bobID))
            func listed(_ device: SyncDevice) async throws -> [TransactionID: String?] {
                let rows = try await device.ledger.transactions(bobsView).rows
                return Dictionary(rows.map { ($0.transaction.transactionID, $0.note?.text) }, uniquingKeysWith: { first, _ in first })
            }
            func balances(_ device: SyncDevice) async throws -> [WalletBalance] {
                try await device.ledger.read { store in try store.walletBalances(visibleTo: .member(bobID)) }
            }
            let confirmedBalances = try await balances(bob)
            // Every value an observation of Bob's list yields, gathered beside the test (which
            // then never waits on the sequence itself).
            let observed = Gathered()
            let observation = await bob.ledger.observe { store in try store.transactions(bobsView).rows.map(\.transaction.transactionID) }
            let watcher = Task { for try await ids in observation { observed.values.withLock { $0.append(ids) } } }
            defer { watcher.cancel() }
            func latestObserved(containing id: TransactionID) async throws -> [TransactionID]? {
                for _ in 0..<500 {
                    if let latest = observed.values.withLock({ $0.last }), latest.contains(id) { return latest }
                    try await Task.sleep(for: .milliseconds(20))
                }
                return observed.values.withLock { $0.last }
            }
            while observed.values.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(5)) }
            let before = try #require(observed.values.withLock { $0.first })

            transport.online.store(false, ordering: .sequentiallyConsistent)
            let lunch = household.scenario.ids.next() as TransactionID
            var entry = household.scenario.expense(1_500, payer: household.scenario.bob)
            entry.note = Self.offlineNote
            try await bob.submit(household.scenario.command(.recordTransaction(transactionID: lunch, entry: entry), by: household.scenario.bob))

            #expect(try await listed(bob)[lunch] == .some(Self.offlineNote), "the transaction list shows the pending expense with its note")
            var search = bobsView
            search.filter.text = "sister"
            #expect(try await bob.ledger.transactions(search).rows.map(\.transaction.transactionID) == [lunch], "search finds the pending expense by its note")
            let pendingBalances = try await balances(bob)
            #expect(pendingBalances != confirmedBalances, "the store's balances include the pending expense")
            #expect(pendingBalances == (try await bob.read { try? $0.wallets.balances(visibleTo: .member(bobID)) }), "the store shows what the read models show")
            let value = try await latestObserved(containing: lunch)
            #expect(value.map { Set($0) } == Set(before + [lunch]), "an observation of the list shows the pending expense (within 10 s)")
            #expect(try await household.alice.ledger.transactions(TransactionQuery(visibleTo: .audit)).rows.contains { $0.transaction.transactionID == lunch } == false)
            let audit = try LedgerAudit.audit(at: bob.ledger.directory)
            #expect(audit.problems.isEmpty, "the pending rows are never committed to the store: \(audit.problems.map(\.message))")

            bob = try await Self.restart(bob, transport: transport)
            #expect(try await listed(bob)[lunch] == .some(Self.offlineNote), "shown again after a restart, from the outbox")

            transport.online.store(true, ordering: .sequentiallyConsistent)
            try await bob.sync()
            #expect(await bob.pendingCommandIDs.isEmpty)
            let rows = try await bob.ledger.transactions(bobsView).rows.filter { $0.transaction.transactionID == lunch }
            #expect(rows.count == 1 && rows.first?.note?.text == Self.offlineNote, "listed once, confirmed")
            #expect(try await balances(bob) == pendingBalances)
            try await bob.close()
            let confirmed = try LedgerAudit.audit(at: bob.ledger.directory)
            #expect(confirmed.problems.isEmpty, "\(confirmed.problems.map(\.message))")

            // The outbox is the only copy of what the device has not pushed: an audit reads it
            // whole and reports damage to it (here a flipped byte in its first page, whose
            // seal then fails; a damaged WAL frame: SyncOutboxStoreTests).
            let outbox = LedgerDirectory(bob.ledger.directory).syncOutbox.string
            var bytes = try #require(FileManager.default.contents(atPath: outbox).map { [UInt8]($0) })
            try #require(bytes.count > 200)
            bytes[200] ^= 0xFF
            try Data(bytes).write(to: URL(fileURLWithPath: outbox))
            let damaged = try LedgerAudit.audit(at: bob.ledger.directory)
            #expect(damaged.problems.map(\.code) == ["syncOutboxUnreadable"], "\(damaged.problems.map(\.message))")
        }
    }

    @Test("Issue 32 (local first, R5, S1, T5): the reads that fold the ledger's state show the outbox on top too: the activity feed lists the commands made offline first, marked pending, an undo of the expense offered as the outbox would accept it; the split ratio set offline is the one in force; once pushed and pulled they are listed once, confirmed, at the server's sequence numbers")
    func activityAndSettingsShowThePendingCommands() async throws {
        try await TestPostgres.withHistory { history in
            var household = try await SyncTests.Household(histories: [history])
            let (bob, transport) = try await Self.bob(household)
            defer { Task { [household, bob] in await household.close([household.alice, bob]) } }
            let bobID = household.scenario.bob
            let ratiosBefore = await bob.ledger.splitRatio().manualRatios

            transport.online.store(false, ordering: .sequentiallyConsistent)
            let lunch = household.scenario.ids.next() as TransactionID
            let expense = household.scenario.command(
                .recordTransaction(transactionID: lunch, entry: household.scenario.expense(1_500, payer: bobID)), by: bobID)
            let ratios = [household.scenario.ratio(household.scenario.alice, 7_000), household.scenario.ratio(bobID, 3_000)]
            let ratio = household.scenario.command(.setSplitRatio(mode: .manual, ratios: ratios), by: bobID)
            try await bob.submit(expense)
            try await bob.submit(ratio)

            let confirmed = await bob.ledger.lastSequenceNumber
            let feed = try await bob.ledger.activity(ActivityQuery(visibleTo: .member(bobID))).entries
            #expect(feed.prefix(2).map(\.commandID) == [ratio.commandID, expense.commandID], "the offline commands come first, newest first")
            #expect(feed.prefix(2).allSatisfy { $0.isPending && $0.sequenceNumbers.lowerBound > confirmed })
            #expect(feed.dropFirst(2).allSatisfy { !$0.isPending && $0.sequenceNumbers.upperBound <= confirmed })
            #expect(feed.dropFirst().first?.undo == .undoable, "an undo of the pending expense would be accepted by the outbox")
            #expect(await bob.ledger.splitRatio().manualRatios == ratios.sorted { $0.person < $1.person })
            #expect(await bob.ledger.state.transactions[lunch] != nil, "the state the CSV import plans against holds the pending expense")
            #expect(await household.alice.ledger.splitRatio().manualRatios == ratiosBefore)

            transport.online.store(true, ordering: .sequentiallyConsistent)
            let report = try await bob.sync()
            let ranges = try [expense, ratio].map { try #require(report.accepted[$0.commandID]) }
            let synced = try await bob.ledger.activity(ActivityQuery(visibleTo: .member(bobID))).entries
            #expect(synced.filter { [ratio.commandID, expense.commandID].contains($0.commandID) }.map(\.sequenceNumbers) == ranges.reversed(),
                    "listed once each, at the server's sequence numbers")
            #expect(synced.allSatisfy { !$0.isPending })
            try await household.alice.pull()
            #expect(await household.alice.ledger.splitRatio().manualRatios == ratios.sorted { $0.person < $1.person })
        }
    }

    @Test("Issue 32 (T6): a receipt removed offline leaves the device's list of the item's attachments at once, but its digest stays among those the host keeps the bytes of until the server confirms the removal (it may refuse it); then it goes")
    func pendingRemovalKeepsTheAttachmentFile() async throws {
        try await TestPostgres.withHistory { history in
            var household = try await SyncTests.Household(histories: [history])
            let (bob, transport) = try await Self.bob(household)
            defer { Task { [household, bob] in await household.close([household.alice, bob]) } }
            let expense = try await household.sharedExpense(pulledBy: bob)
            let receipt = try ContentHash(bytes: [UInt8](repeating: 0xA1, count: 32))
            let bobID = household.scenario.bob
            try await bob.execute(household.scenario.command(
                .addAttachment(item: .transaction(expense), contentHash: receipt, name: "receipt.jpg", byteCount: 48_213, mediaType: "image/jpeg"), by: bobID))
            #expect(await bob.ledger.attachedContentHashes() == [receipt])

            transport.online.store(false, ordering: .sequentiallyConsistent)
            try await bob.submit(household.scenario.command(.removeAttachment(item: .transaction(expense), contentHash: receipt), by: bobID))
            #expect(await bob.ledger.attachments(of: .transaction(expense), visibleTo: .member(bobID)).isEmpty, "the list shows the pending removal")
            #expect(await bob.ledger.attachedContentHashes() == [receipt], "the file is kept while the removal waits for the server")

            transport.online.store(true, ordering: .sequentiallyConsistent)
            try await bob.sync()
            #expect(await bob.pendingCommandIDs.isEmpty)
            #expect(await bob.ledger.attachedContentHashes().isEmpty, "confirmed: the file may go")
        }
    }

    @Test("Issue 32 (T5, offline edit of a transaction deleted meanwhile): once the deletion is pulled, the device no longer shows the pending edit; the server rejects it with transactionDeleted, delivered to this device and kept across a restart until dismissed; submitting it again throws the stored rejection")
    func rejectionIsDeliveredAndKept() async throws {
        try await TestPostgres.withHistory { history in
            var household = try await SyncTests.Household(histories: [history])
            var (bob, transport) = try await Self.bob(household)
            defer { Task { [household, bob] in await household.close([household.alice, bob]) } }
            let expense = try await household.sharedExpense(pulledBy: bob)

            transport.online.store(false, ordering: .sequentiallyConsistent)
            let edit = household.scenario.command(
                .editTransaction(transactionID: expense, entry: household.scenario.expense(4_800, shared: true)), by: household.scenario.bob)
            try await bob.submit(edit)
            #expect(try await bob.read { $0.transactions[expense]?.details.amount } == Scenario.chf(4_800))
            let bobsView = TransactionQuery(visibleTo: .member(household.scenario.bob))
            #expect(try await bob.ledger.transactions(bobsView).rows.first { $0.transaction.transactionID == expense }?.transaction.amount == Scenario.chf(4_800))
            try await household.alice.execute(household.scenario.command(.deleteTransaction(transactionID: expense)))

            // A pull alone (the outbox not pushed): the edit no longer applies and is left out.
            transport.online.store(true, ordering: .sequentiallyConsistent)
            try await bob.pull()
            #expect(await bob.pendingCommandIDs == [edit.commandID])
            let shown = try await bob.read { $0 }
            #expect(await shown == bob.ledger.readModels)
            #expect(try await bob.ledger.transactions(bobsView).rows.contains { $0.transaction.transactionID == expense } == false, "the list no longer shows the edit of a deleted transaction")

            let report = try await bob.sync()
            #expect(report.accepted.isEmpty)
            #expect(report.rejected.map(\.commandID) == [edit.commandID] && report.rejected.first?.code == RuleViolation.Code.transactionDeleted.rawValue)
            #expect(await bob.pendingCommandIDs.isEmpty)
            bob = try await Self.restart(bob, transport: transport)
            #expect(try await bob.rejections().map(\.commandID) == [edit.commandID])
            do {
                try await bob.submit(edit)
                Issue.record("a command the server rejected is not submitted again")
            } catch LedgerError.rejected(let violation) {
                #expect(violation.code == .transactionDeleted)
            }
            #expect(try await bob.dismissRejection(edit.commandID))
            #expect(try await bob.rejections().isEmpty)
            #expect(try await bob.dismissRejection(edit.commandID) == false)
        }
    }

    @Test("Issue 32 (G5, a device killed during a push): the server committed but the answer never arrived; after a restart the outbox still holds the command, and the next sync gets the stored outcome: the command is in the history once, at the range the device is told")
    func answerLostThenRestart() async throws {
        try await TestPostgres.withHistory { history in
            var household = try await SyncTests.Household(histories: [history])
            var (bob, transport) = try await Self.bob(household)
            defer { Task { [household, bob] in await household.close([household.alice, bob]) } }
            let command = household.scenario.command(
                .recordTransaction(transactionID: household.scenario.ids.next(), entry: household.scenario.expense(900, payer: household.scenario.bob)), by: household.scenario.bob)
            transport.losingAnswers.store(1, ordering: .sequentiallyConsistent)
            await #expect(throws: SyncError.self) { try await bob.execute(command) }
            bob = try await Self.restart(bob, transport: transport)
            #expect(await bob.pendingCommandIDs == [command.commandID])
            let report = try await bob.sync()
            let range = try #require(report.accepted[command.commandID])
            let events = try await bob.ledger.events().filter { $0.event.commandID == command.commandID }
            #expect(events.map(\.sequenceNumber) == Array(range), "once, where the device was told")
            #expect(try await history.head(household: household.household).sequenceNumber == range.upperBound)
        }
    }

    @Test("Issue 32: a command that needs what another device just pushed (an expense on the wallet Alice opened) is decided again after a pull and accepted; one that is invalid on the household's latest history is still refused on the device, and nothing of it reaches the outbox")
    func executePullsBeforeRefusing() async throws {
        try await TestPostgres.withHistory { history in
            var household = try await SyncTests.Household(histories: [history])
            let (bob, _) = try await Self.bob(household)
            defer { Task { [household, bob] in await household.close([household.alice, bob]) } }
            let wallet = household.scenario.ids.next() as WalletID
            try await household.alice.execute(household.scenario.command(.openWallet(
                walletID: wallet, name: "Holiday cash", kind: .cash, openingBalance: Scenario.chf(50_000),
                openedOn: Scenario.date("2026-01-01"), owner: nil)))
            var entry = household.scenario.expense(2_000, payer: household.scenario.bob)
            entry.walletID = wallet
            let onNewWallet = household.scenario.command(.recordTransaction(transactionID: household.scenario.ids.next(), entry: entry), by: household.scenario.bob)
            let range = try await bob.execute(onNewWallet)
            #expect(try await bob.ledger.sequenceNumbers(ofCommand: onNewWallet.commandID) == range)

            entry.walletID = household.scenario.ids.next()  // no such wallet anywhere
            let invalid = household.scenario.command(.recordTransaction(transactionID: household.scenario.ids.next(), entry: entry), by: household.scenario.bob)
            do {
                try await bob.execute(invalid)
                Issue.record("an expense on a wallet that does not exist must be refused")
            } catch LedgerError.rejected(let violation) {
                #expect(violation.code == .unknownWallet, "\(violation)")
            }
            #expect(await bob.pendingCommandIDs.isEmpty)
        }
    }

    @Test("Issue 32: a command the server accepted whose pull failed stays on top of the device's confirmed state (status accepted, shown by read, an edit of it accepted on the device) across a restart, and leaves the outbox with the pull that brings it, reported as accepted")
    func acceptedBeforeThePullStaysOnTop() async throws {
        try await TestPostgres.withHistory { history in
            var household = try await SyncTests.Household(histories: [history])
            var (bob, transport) = try await Self.bob(household)
            defer { Task { [household, bob] in await household.close([household.alice, bob]) } }
            let lunch = household.scenario.ids.next() as TransactionID
            let command = household.scenario.command(
                .recordTransaction(transactionID: lunch, entry: household.scenario.expense(1_100, payer: household.scenario.bob)), by: household.scenario.bob)
            transport.failingPulls.store(true, ordering: .sequentiallyConsistent)
            await #expect(throws: SyncError.self) { try await bob.execute(command) }
            guard case .accepted(let range) = try await bob.status(of: command.commandID) else {
                Issue.record("the server's answer was expected in the outbox: \(try await bob.status(of: command.commandID))")
                return
            }
            #expect(try await bob.read { $0.transactions[lunch]?.details.amount } == Scenario.chf(1_100))
            let edit = household.scenario.command(
                .editTransaction(transactionID: lunch, entry: household.scenario.expense(1_300, payer: household.scenario.bob)), by: household.scenario.bob)
            try await bob.submit(edit)

            bob = try await Self.restart(bob, transport: transport)
            #expect(try await bob.status(of: command.commandID) == .accepted(range))
            #expect(try await bob.read { $0.transactions[lunch]?.details.amount } == Scenario.chf(1_300))
            transport.failingPulls.store(false, ordering: .sequentiallyConsistent)
            let report = try await bob.sync()
            #expect(report.accepted[command.commandID] == range && report.accepted[edit.commandID] != nil, "\(report)")
            #expect(await bob.pendingCommandIDs.isEmpty)
            #expect(try await bob.status(of: command.commandID) == .confirmed(range))
            #expect(await bob.ledger.readModels.transactions[lunch]?.details.amount == Scenario.chf(1_300))
        }
    }

    @Test("Issue 32: a restore or a reset that would replace a synced device's ledger is refused (syncedLedger) before anything moves: its history stays the server's and its outbox is not stranded")
    func restoreRefusesASyncedLedger() async throws {
        let folder = try TemporaryDirectory("sync-restore")
        defer { folder.remove() }
        let directory = folder.appending("device")
        var scenario = Scenario()
        let ledger = try await Ledger.open(at: directory)
        for command in scenario.setup() { try await ledger.execute(command) }
        let frames = try await ledger.recordFrames(after: 0, chain: .genesis).map(\.records)
        let device = try await SyncDevice(ledger: ledger, transport: SyncOfflineTransport())
        try await device.submit(scenario.command(.recordTransaction(transactionID: scenario.ids.next(), entry: scenario.expense(700))))
        try await device.close()
        do {
            _ = try await Ledger.restore(frames: frames, personalKeys: [:], forgottenPeople: [], into: directory, replacing: true)
            Issue.record("a synced device's ledger must not be replaced")
        } catch {
            #expect(error.code == "syncedLedger", "\(error)")
        }
        do {
            _ = try await LedgerReset.reset(ledgerAt: directory, keeping: .wallets, on: Scenario.date("2026-02-01"), recordedAt: Timestamp(millisecondsSinceEpoch: 1_769_904_000_000))
            Issue.record("a synced device's ledger must not be reset")
        } catch {
            #expect(error.code == "syncedLedger", "\(error)")
        }
        let reopened = try await SyncDevice(ledger: try await Ledger.open(at: directory), transport: SyncOfflineTransport())
        #expect(await reopened.pendingCommandIDs.count == 1, "the outbox is where it was")
        try await reopened.close()
    }

    @Test("Issue 32 (local first): a submit returns while the device's long poll is still waiting (it never waits for the network); cancelling the long poll ends it")
    func submitDoesNotWaitForALongPoll() async throws {
        try await TestPostgres.withHistory { history in
            var household = try await SyncTests.Household(histories: [history])
            let (bob, _) = try await Self.bob(household)
            defer { Task { [household, bob] in await household.close([household.alice, bob]) } }
            let polled = Atomic<Bool>(false)
            let poll = Task {
                defer { polled.store(true, ordering: .sequentiallyConsistent) }
                return try await bob.pull(waitMilliseconds: 20_000)
            }
            try await Task.sleep(for: .milliseconds(200))  // the poll is waiting on the server
            let command = household.scenario.command(
                .recordTransaction(transactionID: household.scenario.ids.next(), entry: household.scenario.expense(800, payer: household.scenario.bob)), by: household.scenario.bob)
            try await bob.submit(command)
            let pollEndedFirst = polled.load(ordering: .sequentiallyConsistent)
            #expect(!pollEndedFirst, "the submit waited for the long poll")
            #expect(await bob.pendingCommandIDs == [command.commandID])
            poll.cancel()
            _ = try? await poll.value
            let pollEnded = polled.load(ordering: .sequentiallyConsistent)
            #expect(pollEnded)
            let report = try await bob.sync()
            #expect(report.accepted[command.commandID] != nil)
        }
    }
}
