import AsyncHTTPClient
import Foundation
import PostgresNIO
import Synchronization
import SystemPackage
import Tally
import TallyJournal
import TallyModel
import TallyServer
import TallyTestSupport
import Testing

@testable import TallySync
@testable import TallySyncServer
import TallySyncWire
import TallySyncHTTP
import TallySyncHTTPServer

/// Issue 32 (Docs/Sync.md): two devices of one household stay in sync through servers on one
/// PostgreSQL; the server validates with the device's executor on a keyless ledger and never
/// reads a personal text.
@Suite("Sync: devices through the server")
struct SyncTests {
    static let aliceNote = "Alice's secret birthday present"
    static let bobNote = "Bob's private pharmacy receipt"

    /// A household on `servers` (each with its own cache folder, all on one history) and
    /// Alice's device, with the household's setup pushed.
    struct Household {
        var scenario = Scenario()
        let household = UUID()
        let folder: TemporaryDirectory
        let servers: [SyncServer]
        let alice: SyncDevice
        let aliceDevice: Device

        /// - Parameter clock: the servers' clock (milliseconds since 1970; invitation codes'
        ///   expiry), the system's unless given.
        init(histories: [HouseholdHistory], clock: (@Sendable () -> Int64)? = nil) async throws {
            let folder = try TemporaryDirectory("sync")
            self.folder = folder
            servers = histories.enumerated().map { index, history in
                if let clock {
                    SyncServer(history: history, cacheDirectory: folder.appending("server-\(index)"), clock: clock)
                } else {
                    SyncServer(history: history, cacheDirectory: folder.appending("server-\(index)"))
                }
            }
            try await servers[0].createHousehold(household)
            (aliceDevice, _) = try await servers[0].history.registerDevice(household: household, person: scenario.alice.uuid)
            let ledger = try await Ledger.open(at: folder.appending("alice"))
            alice = try await SyncDevice(ledger: ledger, transport: servers[0].transport(for: aliceDevice))
            for command in scenario.setup() { try await alice.execute(command) }
        }

        /// Bob's device on `server`, joined from an invitation Alice (the admin) made for him
        /// (Docs/Sync.md, "Joining a household"): an empty ledger that pulls the household's
        /// keys and history.
        func bob(
            on server: Int, transport: (SyncServer, Device, String) -> any SyncTransport = { server, device, _ in server.transport(for: device) }
        ) async throws -> SyncDevice {
            let (invitation, _) = try await alice.invite(for: scenario.bob)
            let joined = try await servers[server].acceptInvitation(code: invitation.code)
            let ledger = try await Ledger.open(at: folder.appending("bob"))
            let bob = try await SyncDevice(
                ledger: ledger, transport: transport(servers[server], joined.device, joined.token), householdSecret: invitation.householdSecret)
            try await bob.pull()
            return bob
        }

        /// A shared expense of Alice's that `device` has pulled.
        mutating func sharedExpense(pulledBy device: SyncDevice) async throws -> TransactionID {
            let expense = scenario.ids.next() as TransactionID
            try await alice.execute(scenario.command(.recordTransaction(transactionID: expense, entry: scenario.expense(3_600, shared: true))))
            try await device.pull()
            return expense
        }

        func close(_ devices: [SyncDevice]) async {
            for device in devices { try? await device.ledger.close() }
            for server in servers { await server.close() }
            folder.remove()
        }
    }

    /// Every event of `device`'s ledger, as it reads them.
    static func events(_ device: SyncDevice) async throws -> [CommittedEvent] {
        try await device.ledger.events()
    }

    @Test("Issue 32 (Flow US-051): two devices on two server processes stay in sync; each device's commands reach the other with their notes readable, the read models are equal on both, and the history in PostgreSQL holds no name or note in clear (P1)")
    func twoDevicesStayInSync() async throws {
        try await TestPostgres.withDatabase { database in
            try await TestPostgres.withHistory(database: database) { first in
                try await TestPostgres.withHistory(database: database) { second in
                    var household = try await Household(histories: [first, second])
                    let bob = try await household.bob(on: 1)
                    defer { Task { [household] in await household.close([household.alice, bob]) } }

                    var aliceEntry = household.scenario.expense(2_400, shared: true)
                    aliceEntry.note = Self.aliceNote
                    try await household.alice.execute(household.scenario.command(.recordTransaction(transactionID: household.scenario.ids.next(), entry: aliceEntry)))
                    var bobEntry = household.scenario.expense(1_200, payer: household.scenario.bob)
                    bobEntry.note = Self.bobNote
                    // Bob's device has not pulled Alice's expense: the server orders it first.
                    let bobRange = try await bob.execute(household.scenario.command(
                        .recordTransaction(transactionID: household.scenario.ids.next(), entry: bobEntry), by: household.scenario.bob))
                    try await household.alice.pull()

                    #expect(await household.alice.confirmedSequenceNumber == bobRange.upperBound)
                    #expect(await bob.confirmedSequenceNumber == bobRange.upperBound)
                    let aliceEvents = try await Self.events(household.alice)
                    #expect(try await Self.events(bob) == aliceEvents)
                    #expect(await household.alice.ledger.readModels == bob.ledger.readModels)
                    let notes = aliceEvents.compactMap { event -> String? in
                        if case .transactionRecorded(let recorded) = event.event.payload { recorded.details.note?.text } else { nil }
                    }
                    #expect(notes == [Self.aliceNote, Self.bobNote])

                    // P3 through the server: a contact Alice adds and then forgets reads redacted on
                    // both devices, whose keys for them are destroyed as each applies the forgetting.
                    let dave = household.scenario.ids.next() as PersonID
                    try await household.alice.execute(household.scenario.command(.addPerson(personID: dave, name: "Dave Secretname")))
                    try await bob.pull()
                    #expect(await household.alice.ledger.people().first { $0.personID == dave }?.name == "Dave Secretname")
                    // Dave's key was made on Alice's device and reached Bob's sealed under the
                    // household's secret before the frame that needs it (Docs/Sync.md, "Keys
                    // between devices"); the server holds it sealed only.
                    #expect(await bob.ledger.people().first { $0.personID == dave }?.name == "Dave Secretname")
                    let keysBefore = try await first.keys(household: household.household, after: 0, limit: 100)
                    #expect(keysBefore.contains { $0.personID == dave.uuid && $0.key != nil })
                    try await household.alice.execute(household.scenario.command(.forgetPerson(personID: dave)))
                    try await bob.pull()
                    // P3 on the server: the forgetting deleted Dave's sealed key there, in the append
                    // (a tombstone stays).
                    let keysAfter = try await first.keys(household: household.household, after: 0, limit: 100)
                    #expect(keysAfter.contains { $0.personID == dave.uuid && $0.key == nil } && keysAfter.count == keysBefore.count)
                    for device in [household.alice, bob] {
                        let row = await device.ledger.people().first { $0.personID == dave }
                        #expect(row?.isForgotten == true && row?.name == nil, "\(String(describing: row))")
                    }
                    #expect(await household.alice.ledger.people() == bob.ledger.people())
                    #expect(await household.alice.ledger.readModels == bob.ledger.readModels)

                    let frames = try await first.frames(household: household.household, after: 0, limit: 1_000)
                    let confirmed = await household.alice.confirmedSequenceNumber
                    #expect(frames.last?.lastSequenceNumber == confirmed)
                    let stored = frames.flatMap(\.records)
                    for secret in [Self.aliceNote, Self.bobNote, "Alice", "Bob", "Secretname"] {
                        #expect(stored.firstRange(of: Array(secret.utf8)) == nil, "\(secret) in clear on the server")
                    }
                }
            }
        }
    }

    @Test("Issue 32: the server's order wins: an edit validated on a device against a history that moved on is rejected by the server with the rule's typed violation, delivered to the device that sent it, which then shows the server's state")
    func staleEditIsRejected() async throws {
        try await TestPostgres.withHistory { history in
            var household = try await Household(histories: [history])
            let bob = try await household.bob(on: 0)
            defer { Task { [household] in await household.close([household.alice, bob]) } }
            let expense = try await household.sharedExpense(pulledBy: bob)
            try await household.alice.execute(household.scenario.command(.deleteTransaction(transactionID: expense)))
            let edit = household.scenario.command(
                .editTransaction(transactionID: expense, entry: household.scenario.expense(4_800, shared: true)), by: household.scenario.bob)
            // Bob's device has not pulled the deletion: it validates the edit and pushes it; the
            // server refuses it, and Bob gets the rule typed.
            do {
                try await bob.execute(edit)
                Issue.record("the server must reject an edit of a transaction deleted before it")
            } catch LedgerError.rejected(let violation) {
                #expect(violation.code == .transactionDeleted, "\(violation)")
            }
            // The server stored that outcome: the same push again is answered with it.
            let bobDevice = try await history.registerDevice(household: household.household, person: household.scenario.bob.uuid).device
            let stored = try await household.servers[0].transport(for: bobDevice).push(
                [SubmittedCommand(commandID: edit.commandID.uuid, body: PushedCommand(pushing: edit, texts: []).body)])
            guard case .rejected(let code, _)? = stored.first else {
                Issue.record("the stored rejection was expected: \(stored)")
                return
            }
            #expect(code == RuleViolation.Code.transactionDeleted.rawValue)
            #expect(await bob.confirmedSequenceNumber == household.alice.confirmedSequenceNumber)
            #expect(await household.alice.ledger.readModels == bob.ledger.readModels)
        }
    }

    @Test("Issue 32 (G5): a retried push is answered with its stored outcome and never executed twice; a command whose actor is not the device's person is refused unread; a body that is not a push is commandInvalid")
    func retriesAndRefusals() async throws {
        try await TestPostgres.withHistory { history in
            var household = try await Household(histories: [history])
            defer { Task { [household] in await household.close([household.alice]) } }
            let command = household.scenario.command(.recordTransaction(transactionID: household.scenario.ids.next(), entry: household.scenario.expense(1_200)))
            let texts = try await household.alice.ledger.sealedTexts(of: command)
            let submitted = SubmittedCommand(commandID: command.commandID.uuid, body: PushedCommand(pushing: command, texts: texts).body)
            let transport = household.servers[0].transport(for: household.aliceDevice)
            let first = try await transport.push([submitted])
            let again = try await transport.push([submitted])
            #expect(first == again)
            guard case .accepted(let start, let end)? = first.first else {
                Issue.record("the command was expected to be accepted: \(first)")
                return
            }
            #expect(try await history.head(household: household.household).sequenceNumber == end)
            #expect(try await household.alice.pull() == end - start + 1)

            let asBob = household.scenario.command(.recordTransaction(transactionID: household.scenario.ids.next(), entry: household.scenario.expense(600)), by: household.scenario.bob)
            await #expect(throws: SyncError.refused(code: "actorNotDevicePerson", message: "the command's actor \(household.scenario.bob) is not this device's person \(household.scenario.alice); a device pushes only its own person's commands")) {
                try await household.alice.execute(asBob)
            }
            let garbage = try await transport.push([SubmittedCommand(commandID: UUID(), body: Array("not a push".utf8))])
            guard case .rejected(let code, _)? = garbage.first else {
                Issue.record("garbage was expected to be refused: \(garbage)")
                return
            }
            #expect(code == "commandInvalid")
            #expect(try await history.head(household: household.household).sequenceNumber == end)
        }
    }

    @Test("Issue 32: a server process that restarts opens its ledger cache from disk and continues the chain; one whose cache holds a frame the history does not (a commit that failed after the cache wrote), which the history then passes on another chain, drops it and rebuilds it from the history")
    func cacheIsRebuiltFromTheHistory() async throws {
        try await TestPostgres.withHistory { history in
            var household = try await Household(histories: [history])
            defer { Task { [household] in await household.close([household.alice]) } }
            let cacheFolder = household.folder.appending("server-0")
            await household.servers[0].close()
            // A restarted process on the same cache folder.
            let restarted = SyncServer(history: history, cacheDirectory: cacheFolder)
            let transport = restarted.transport(for: household.aliceDevice)
            let alice = try await SyncDevice(ledger: household.alice.ledger, transport: transport)
            try await alice.execute(household.scenario.command(.recordTransaction(transactionID: household.scenario.ids.next(), entry: household.scenario.expense(2_400))))
            await restarted.close()

            // A cache that holds a frame the history does not (its process wrote it, then the
            // commit failed): a second household ledger with one more command, in its place.
            let ahead = SyncServer(history: history, cacheDirectory: cacheFolder)
            let cache = cacheFolder.appending(household.household.uuidString.lowercased())
            var options = LedgerOptions()
            options.keyless = true
            let extra = try await Ledger.open(at: cache, options: options)
            try await extra.execute(household.scenario.command(.openWallet(
                walletID: household.scenario.ids.next(), name: "Stray", kind: .cash, openingBalance: Scenario.chf(0),
                openedOn: Scenario.date("2026-01-01"), owner: nil)))
            try await extra.close()
            // Meanwhile another server process commits two commands: the history passes the
            // stray frame's sequence number on another chain.
            let other = SyncServer(history: history, cacheDirectory: household.folder.appending("server-other"))
            let viaOther = try await SyncDevice(ledger: household.alice.ledger, transport: other.transport(for: household.aliceDevice))
            for minorUnits in [600, 1_800] as [Int64] {
                try await viaOther.execute(household.scenario.command(.recordTransaction(transactionID: household.scenario.ids.next(), entry: household.scenario.expense(minorUnits))))
            }
            await other.close()
            let second = try await SyncDevice(ledger: household.alice.ledger, transport: ahead.transport(for: household.aliceDevice))
            let range = try await second.execute(household.scenario.command(.recordTransaction(transactionID: household.scenario.ids.next(), entry: household.scenario.expense(1_200))))
            #expect(try await history.head(household: household.household).sequenceNumber == range.upperBound)
            #expect(await household.alice.ledger.readModels.wallets.wallets.count == 2, "the stray wallet never reached the history")
            await ahead.close()
        }
    }

    @Test("Issue 32: a pull's answer says the household's head, so a device whose frames reach it pulls once, not again to learn that nothing is left; a long poll on one server process is woken by a push through another by PostgreSQL's commit notification (with the servers' own reads of PostgreSQL a minute apart)")
    func headAndCommitNotification() async throws {
        try await TestPostgres.withHistory { history in
            var household = try await Household(histories: [history, history])
            let pulls = PullCounter()
            let bob = try await household.bob(on: 1) { server, device, _ in CountingTransport(base: server.transport(for: device), pulls: pulls) }
            defer { Task { [household] in await household.close([household.alice, bob]) } }

            var recorded: UInt64 = 0
            for _ in 0..<3 {
                let range = try await household.alice.execute(
                    household.scenario.command(.recordTransaction(transactionID: household.scenario.ids.next(), entry: household.scenario.expense(1_200))))
                recorded += UInt64(range.count)
            }
            pulls.reset()
            #expect(try await bob.pull() == recorded)
            #expect(pulls.count == 1, "the answer reached the head: no second pull")
            #expect(try await Self.events(bob) == Self.events(household.alice))

            // Only the notification can wake Bob's pull on server 1 before its 25 s are up.
            await household.servers[1].pollEvery(withoutNotifications: .seconds(60), notified: .seconds(60))
            pulls.reset()
            let waiting = Task { try await bob.pull(waitMilliseconds: 25_000) }
            for _ in 0..<500 where !(await household.servers[1].isListening) { try await Task.sleep(for: .milliseconds(10)) }
            #expect(await household.servers[1].isListening, "server 1 listens once a pull waits")
            let pushed = ContinuousClock.now
            let range = try await household.alice.execute(
                household.scenario.command(.recordTransaction(transactionID: household.scenario.ids.next(), entry: household.scenario.expense(3_400))))
            #expect(try await waiting.value == UInt64(range.count), "the waiting pull returns Alice's records")
            // Not a speed check: the pull's own deadline (25 s) would also bring the records.
            #expect(ContinuousClock.now - pushed < .seconds(20), "woken by the commit's notification, not by its deadline")
            #expect(pulls.count == 1)
            #expect(try await Self.events(bob) == Self.events(household.alice))
        }
    }

    @Test("Issue 32 (failure cases): a server process whose LISTEN connection PostgreSQL drops (pg_terminate_backend) notices, wakes its waiting pulls, listens again on a new connection, and its long polls are woken by commits of another process again: one committed while nobody listened, and one after (with the servers' own reads of PostgreSQL a minute apart)")
    func listenerReconnectsAfterItsConnectionIsDropped() async throws {
        try await TestPostgres.withHistory { history in
            var household = try await Household(histories: [history, history])
            let bob = try await household.bob(on: 1) { server, device, _ in server.transport(for: device) }
            defer { Task { [household] in await household.close([household.alice, bob]) } }
            let server = household.servers[1]
            await server.pollEvery(withoutNotifications: .seconds(60), notified: .seconds(60))
            func listening(_ wanted: Bool) async throws -> Bool {
                for _ in 0..<1_000 where await server.isListening != wanted { try await Task.sleep(for: .milliseconds(10)) }
                return await server.isListening == wanted
            }
            func dropListener() async throws -> Int64 {
                try await TestPostgres.count(PostgresQuery(unsafeSQL: """
                    SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                    WHERE datname = current_database() AND pid <> pg_backend_pid() AND query ILIKE 'LISTEN%'
                    """), in: history)
            }
            func expense() -> Command {
                household.scenario.command(.recordTransaction(transactionID: household.scenario.ids.next(), entry: household.scenario.expense(1_200)))
            }
            try await bob.pull()

            // A commit while the listener is down: its reconnection wakes the waiting pull.
            let missed = Task { try await bob.pull(waitMilliseconds: 25_000) }
            #expect(try await listening(true), "server 1 listens once a pull waits")
            #expect(try await dropListener() == 1, "one LISTEN connection to drop")
            #expect(try await listening(false), "the dropped connection is noticed")
            let pushed = ContinuousClock.now
            let first = try await household.alice.execute(expense())
            #expect(try await missed.value == UInt64(first.count), "the waiting pull returns the records committed while nobody listened")
            // Not a speed check: the pull's own deadline (25 s) would also bring the records.
            #expect(ContinuousClock.now - pushed < .seconds(20), "woken by the listener's reconnection, not by its deadline")

            // Listening again on a new connection: a later commit's notification is heard.
            let heard = Task { try await bob.pull(waitMilliseconds: 25_000) }
            #expect(try await listening(true), "server 1 listens again")
            try await Task.sleep(for: .milliseconds(300))  // the pull is waiting (one that did not wait returns 0)
            let again = ContinuousClock.now
            let second = try await household.alice.execute(expense())
            #expect(try await heard.value == UInt64(second.count), "the waiting pull returns the next records")
            #expect(ContinuousClock.now - again < .seconds(20), "woken by the notification on the new connection")
            #expect(try await Self.events(bob) == Self.events(household.alice))
        }
    }

    @Test("Issue 32 (failure cases): from a server that answers pulls as before schema 5 (no keys in a page, no head), a device still converges: it reads the keys a page's frames need with GET /v1/keys (a person's key made after it joined: the invitee's name opens) and pulls until a page is empty")
    func olderServerAnswersWithoutKeysOrHead() async throws {
        try await TestPostgres.withHistory { history in
            var household = try await Household(histories: [history])
            let pulls = PullCounter()
            let bob = try await household.bob(on: 0) { server, device, _ in CountingTransport(base: server.transport(for: device), pulls: pulls, olderServer: true) }
            defer { Task { [household] in await household.close([household.alice, bob]) } }
            let carol = household.scenario.ids.next() as PersonID
            try await household.alice.execute(household.scenario.command(
                .inviteMember(invitationID: household.scenario.ids.next(), personID: carol, name: "Carol Secretname", email: "carol@example.org")))
            pulls.reset()
            #expect(try await bob.pull() > 0)
            #expect(pulls.count == 2, "without a head the device pulls until a page is empty")
            #expect(pulls.keyReads > 0, "the keys were read with keys(after:)")
            let now = Timestamp(millisecondsSinceEpoch: household.scenario.clock)
            #expect(await bob.ledger.invitations(at: now, visibleTo: .member(household.scenario.bob)).first?.name == "Carol Secretname",
                    "Carol's key reached Bob's device")
            #expect(await bob.ledger.readModels == household.alice.ledger.readModels)
            #expect(try await Self.events(bob) == Self.events(household.alice))
        }
    }

    @Test("Issue 32 (Flow US-051): two devices sync over HTTP (tally serve's routes): Bob's long poll returns as soon as Alice's push commits, with her expense and note; a request without a valid token is refused (401, typed)")
    func overHTTP() async throws {
        try await TestPostgres.withHistory { history in
            var household = try await Household(histories: [history])
            let (ports, port) = AsyncStream<Int>.makeStream()
            var quiet = Logger(label: "tally.test.serve")
            quiet.logLevel = .critical  // cancelling the server at the end logs its child channels' cancellation
            let application = SyncHTTPServer.application(household.servers[0], host: "127.0.0.1", port: 0, logger: quiet) { bound in port.yield(bound) }
            let running = Task { try await application.run() }
            var bound = ports.makeAsyncIterator()
            guard let listening = await bound.next() else {
                Issue.record("the server did not start")
                return
            }
            let url = "http://127.0.0.1:\(listening)"
            let (_, aliceToken) = try await history.registerDevice(household: household.household, person: household.scenario.alice.uuid)
            let alice = try await SyncDevice(ledger: household.alice.ledger, transport: HTTPSyncTransport(server: url, token: aliceToken))
            let bob = try await household.bob(on: 0) { _, _, token in HTTPSyncTransport(server: url, token: token) }
            defer { Task { [household] in await household.close([household.alice, bob]) } }

            let waiting = Task { try await bob.pull(waitMilliseconds: 20_000) }
            // Bob's pull is waiting before Alice pushes: one that did not wait would return 0.
            try await Task.sleep(for: .milliseconds(300))
            var entry = household.scenario.expense(4_800, shared: true)
            entry.note = Self.aliceNote
            let range = try await alice.execute(household.scenario.command(.recordTransaction(transactionID: household.scenario.ids.next(), entry: entry)))
            #expect(try await waiting.value == UInt64(range.count), "the long poll returns Alice's records")
            #expect(await bob.confirmedSequenceNumber == range.upperBound)
            #expect(try await Self.events(bob) == Self.events(household.alice))

            // Keys shared under another household secret are refused over HTTP as in-process (409).
            let aliceHTTP = HTTPSyncTransport(server: url, token: aliceToken)
            do {
                _ = try await aliceHTTP.shareKeys(
                    [SealedPersonKey(personID: UUID(), sealed: [1, 2, 3], fingerprint: [4])], secretVerifier: HouseholdSecret().verifier)
                Issue.record("a share under another secret must be refused")
            } catch let SyncError.requestRefused(status, code, _) {
                #expect(status == 409 && code == "householdSecretMismatch")
            }
            // A share without the secret's verifier (which HTTPSyncTransport always sends) is
            // refused whole (400), nothing stored.
            var bare = HTTPClientRequest(url: url + "/v1/keys")
            bare.method = .POST
            bare.headers.add(name: "Authorization", value: "Bearer \(aliceToken)")
            bare.headers.add(name: "Content-Type", value: "application/json")
            bare.body = .bytes(Array(#"{"keys": [{"personID": "\#(UUID().uuidString)", "sealed": "AQID", "fingerprint": "BA=="}]}"#.utf8))
            let refused = try await HTTPClient.shared.execute(bare, timeout: .seconds(10))
            var answer: [UInt8] = []
            for try await chunk in refused.body { answer += chunk.readableBytesView }
            #expect(refused.status.code == 400 && String(decoding: answer, as: UTF8.self).contains("secretVerifierMissing"), "\(refused.status)")

            let stranger = HTTPSyncTransport(server: url, token: "not-a-token")
            await #expect(throws: SyncError.self) { _ = try await stranger.pull(after: 0, chain: ChainValue.genesis.bytes, limit: 10, waitMilliseconds: 0, keysAfter: 0) }
            do {
                _ = try await stranger.pull(after: 0, chain: ChainValue.genesis.bytes, limit: 10, waitMilliseconds: 0, keysAfter: 0)
            } catch let SyncError.requestRefused(status, code, _) {
                #expect(status == 401 && code == "tokenRefused")
            }
            // Alice's ledger with a device of another household: its cursor is not on that history.
            let elsewhere = UUID()
            try await household.servers[0].createHousehold(elsewhere)
            let (_, strangerToken) = try await history.registerDevice(household: elsewhere, person: household.scenario.alice.uuid)
            let misplaced = try await SyncDevice(ledger: household.alice.ledger, transport: HTTPSyncTransport(server: url, token: strangerToken))
            do {
                try await misplaced.pull()
                Issue.record("a ledger of another household must not pull")
            } catch let SyncError.requestRefused(status, code, _) {
                #expect(status == 409 && code == "cursorNotOnHistory")
            }
            running.cancel()
            _ = try? await running.value
        }
    }

    @Test("Issue 32 (T5): two devices that edit the same transaction without pulling both succeed, in the server's order; the later edit is what both devices show, and the earlier one stays in the history")
    func concurrentEditsLaterWins() async throws {
        try await TestPostgres.withHistory { history in
            var household = try await Household(histories: [history])
            let bob = try await household.bob(on: 0)
            defer { Task { [household] in await household.close([household.alice, bob]) } }
            let expense = try await household.sharedExpense(pulledBy: bob)
            // Neither pulls before editing.
            let aliceEdit = household.scenario.command(.editTransaction(transactionID: expense, entry: household.scenario.expense(4_800, shared: true)))
            let bobEdit = household.scenario.command(
                .editTransaction(transactionID: expense, entry: household.scenario.expense(6_000, shared: true)), by: household.scenario.bob)
            let first = try await household.alice.execute(aliceEdit)
            let second = try await bob.execute(bobEdit)
            #expect(first.upperBound < second.lowerBound)
            try await household.alice.pull()
            for device in [household.alice, bob] {
                let amount = await device.ledger.readModels.transactions[expense]?.details.amount
                #expect(amount == Scenario.chf(6_000), "the later edit stays")
            }
            let edits = try await Self.events(household.alice).filter { $0.event.commandID == aliceEdit.commandID || $0.event.commandID == bobEdit.commandID }
            #expect(Set(edits.map(\.event.commandID)).count == 2, "both edits are in the history")
        }
    }
}

/// Counts a device's pulls (``CountingTransport``).
final class PullCounter: Sendable {
    private let pulls = Mutex(0)
    private let keys = Mutex(0)
    var count: Int { pulls.withLock { $0 } }
    /// How many ``SyncTransport/keys(after:)`` calls were passed on.
    var keyReads: Int { keys.withLock { $0 } }
    func reset() { pulls.withLock { $0 = 0 } }
    func add() { pulls.withLock { $0 += 1 } }
    func addKeyRead() { keys.withLock { $0 += 1 } }
}

/// A transport that counts the pulls and key reads it passes on. As an older server
/// (`olderServer`, from before schema 5, as a device sees one): its pages carry no keys and no
/// head (what `HTTPSyncTransport` makes of an answer without those fields: more keys to read
/// whenever the page has frames).
struct CountingTransport: SyncTransport {
    let base: any SyncTransport
    let pulls: PullCounter
    var olderServer = false

    func push(_ commands: [SubmittedCommand]) async throws -> [CommandOutcome] { try await base.push(commands) }

    func pull(after sequenceNumber: UInt64, chain: [UInt8], limit: Int, waitMilliseconds: Int, keysAfter keySerial: Int64) async throws -> PulledPage {
        pulls.add()
        let page = try await base.pull(after: sequenceNumber, chain: chain, limit: limit, waitMilliseconds: waitMilliseconds, keysAfter: keySerial)
        return olderServer ? PulledPage(frames: page.frames, keys: [], moreKeys: !page.frames.isEmpty, head: nil) : page
    }

    func shareKeys(_ keys: [SealedPersonKey], secretVerifier: [UInt8]) async throws -> [UUID] { try await base.shareKeys(keys, secretVerifier: secretVerifier) }

    func keys(after serial: Int64) async throws -> [StoredPersonKey] {
        pulls.addKeyRead()
        return try await base.keys(after: serial)
    }

    func invite(for person: UUID?) async throws -> (invitation: DeviceInvitation, code: String) { try await base.invite(for: person) }
}
