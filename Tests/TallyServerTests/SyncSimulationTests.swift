import Foundation
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

/// Issue 32 (Docs/Sync.md, "Failure cases the simulation covers"): three devices of one household
/// on two server processes over one PostgreSQL database execute seeded random commands at once,
/// while answers get lost after the server committed, appends are cancelled part way (a server
/// process killed during an append: PostgreSQL rolls it back) and pulls fail. Devices go offline
/// and record commands in their outbox, restart (their ledger closed and opened again, the
/// outbox read back from disk), and come back online to push it.
@Suite("Sync: a seeded simulation of three devices and two servers with faults")
struct SyncSimulationTests {
    /// A transport that fails as a network and a dying server do, from a seed.
    final class FaultyTransport: SyncTransport, @unchecked Sendable {
        let base: any SyncTransport
        let random: Mutex<SeededRandom>
        let faults = Mutex<[String: Int]>([:])

        init(_ base: any SyncTransport, seed: UInt64) {
            self.base = base
            random = Mutex(SeededRandom(seed: seed))
        }

        private func roll() -> Int { random.withLock { Int.random(in: 0..<100, using: &$0) } }
        private func count(_ fault: String) { faults.withLock { $0[fault, default: 0] += 1 } }

        func push(_ commands: [SubmittedCommand]) async throws -> [CommandOutcome] {
            switch roll() {
            case 0..<12:
                // The server committed; the answer never arrived.
                _ = try await base.push(commands)
                count("answerLost")
                throw SyncError.transport("answer lost")
            case 12..<24:
                // The append is cut short (the task serving it cancelled): committed or rolled back.
                let append = Task { try await base.push(commands) }
                try await Task.sleep(for: .microseconds(roll() * 40))
                append.cancel()
                _ = try? await append.value
                count("appendCancelled")
                throw SyncError.transport("server died")
            default:
                return try await base.push(commands)
            }
        }

        func pull(after sequenceNumber: UInt64, chain: [UInt8], limit: Int, waitMilliseconds: Int, keysAfter keySerial: Int64) async throws -> PulledPage {
            if roll() < 8 {
                count("pullFailed")
                throw SyncError.transport("pull failed")
            }
            return try await base.pull(after: sequenceNumber, chain: chain, limit: limit, waitMilliseconds: waitMilliseconds, keysAfter: keySerial)
        }

        func shareKeys(_ keys: [SealedPersonKey], secretVerifier: [UInt8]) async throws -> [UUID] {
            if roll() < 8 {
                count("shareKeysFailed")
                throw SyncError.transport("sharing keys failed")
            }
            return try await base.shareKeys(keys, secretVerifier: secretVerifier)
        }

        func keys(after serial: Int64) async throws -> [StoredPersonKey] {
            if roll() < 8 {
                count("keysFailed")
                throw SyncError.transport("reading keys failed")
            }
            return try await base.keys(after: serial)
        }

        func invite(for person: UUID?) async throws -> (invitation: DeviceInvitation, code: String) {
            try await base.invite(for: person)
        }
    }

    /// What one device saw of its commands.
    struct Outcomes: Sendable {
        var accepted: [CommandID: ClosedRange<UInt64>] = [:]
        var rejected: Set<CommandID> = []
        /// Commands recorded in the outbox while offline.
        var submitted: [CommandID] = []
        /// Rejections delivered more than once.
        var duplicateRejections = 0

        /// Records a rejection delivered to the device's user.
        mutating func deliver(_ command: CommandID) {
            if !rejected.insert(command).inserted { duplicateRejections += 1 }
        }
        var retries = 0
        var offline = 0
        var restarts = 0
    }

    /// Executes `command` until it has an answer; transport failures are retried under its id.
    static func executeUntilAnswered(_ command: Command, on device: SyncDevice, outcomes: inout Outcomes) async throws {
        while true {
            do {
                outcomes.accepted[command.commandID] = try await device.execute(command)
                return
            } catch LedgerError.rejected {
                outcomes.deliver(command.commandID)
                return
            } catch SyncError.transport {
                outcomes.retries += 1
            }
        }
    }

    /// Syncs until the outbox is empty and a sync succeeded; the answers it reports are recorded
    /// (answers of a sync that failed later are found at the end: in the history or the
    /// device's rejections).
    /// After a failed sync the device restarts with `restart` when `restarts` says so: with
    /// answers recorded and their events not pulled yet.
    static func syncUntilEmpty(
        _ device: inout SyncDevice, outcomes: inout Outcomes, restarts: () -> Bool = { false }, restart: (SyncDevice) async throws -> SyncDevice = { $0 }
    ) async throws {
        while true {
            do {
                let report = try await device.sync()
                outcomes.accepted.merge(report.accepted) { first, _ in first }
                for rejection in report.rejected {
                    outcomes.deliver(rejection.commandID)
                    try await device.dismissRejection(rejection.commandID)  // shown to the user
                }
                if await device.pendingCommandIDs.isEmpty { return }
            } catch SyncError.transport {
                outcomes.retries += 1
                if restarts() {
                    outcomes.restarts += 1
                    device = try await restart(device)
                }
            }
        }
    }

    /// Pulls until a pull succeeds with nothing new.
    static func pullUntilCurrent(_ device: SyncDevice) async throws {
        while true {
            do {
                if try await device.pull() == 0 { return }
            } catch SyncError.transport {}
        }
    }

    @Test("Issue 32: after seeded runs with lost answers, cancelled appends and failed pulls, every device holds the server's history byte for byte (the same chain) with equal events and read models; every accepted command is in it once, at the range its device was told; no rejected command is", arguments: [UInt64(1), 2, 3])
    func devicesConverge(seed: UInt64) async throws {
        try await TestPostgres.withDatabase { database in
            try await TestPostgres.withHistory(database: database) { first in
                try await TestPostgres.withHistory(database: database) { second in
                    try await Self.run(seed: seed, histories: [first, second])
                }
            }
        }
    }

    static func run(seed: UInt64, histories: [HouseholdHistory]) async throws {
        let folder = try TemporaryDirectory("sync-simulation")
        defer { folder.remove() }
        let servers = histories.enumerated().map { index, history in
            SyncServer(history: history, cacheDirectory: folder.appending("server-\(index)"))
        }
        var generator = HouseholdGenerator(seed: seed)
        let scenario = generator.scenario
        let household = UUID()
        try await servers[0].createHousehold(household)

        // Alice's phone sets the household up; her tablet and Bob's phone join from invitations
        // her phone makes (Docs/Sync.md, "Joining a household"): empty ledgers that pull the
        // household's keys and history as they go.
        let people = [scenario.alice, scenario.alice, scenario.bob]
        var devices = [try await histories[0].registerDevice(household: household, person: scenario.alice.uuid).device]
        let phone = try await Ledger.open(at: folder.appending("device-0"))
        let setup = try await SyncDevice(ledger: phone, transport: servers[0].transport(for: devices[0]))
        for command in generator.setup() { try await setup.execute(command) }
        for index in 1..<people.count {
            let (invitation, _) = try await setup.invite(for: people[index])
            let joined = try await servers[1].acceptInvitation(code: invitation.code)
            devices.append(joined.device)
            let joining = try await SyncDevice(
                ledger: try await Ledger.open(at: folder.appending("device-\(index)")), transport: SyncOfflineTransport(),
                householdSecret: invitation.householdSecret)
            try await joining.close()  // each device's task opens its own; its outbox keeps the secret
        }
        let transports = (0..<people.count).map { index in
            FaultyTransport(servers[index == 0 ? 0 : 1].transport(for: devices[index]), seed: seed &* 31 &+ UInt64(index))
        }

        // Each device executes its own generated commands (its own ids), all at once: online
        // through execute, offline into its outbox, pushed when it comes back; now and then it
        // restarts (its ledger closed and opened again, the outbox read back from disk).
        let commandsPerDevice = 30
        try await setup.close()
        let finished = try await withThrowingTaskGroup(of: (Int, Outcomes, SyncDevice).self) { group in
            for index in people.indices {
                var own = generator
                own.scenario.ids = DeterministicIDGenerator(seed: seed &* 1_000 &+ UInt64(index))
                let person = people[index]
                let directory = folder.appending("device-\(index)")
                let transport = transports[index]
                group.addTask {
                    var random = SeededRandom(seed: seed &* 7_919 &+ UInt64(index))
                    var device = try await SyncDevice(ledger: try await Ledger.open(at: directory), transport: transport)
                    let restart = { @Sendable (old: SyncDevice) async throws -> SyncDevice in
                        try await old.close()
                        return try await SyncDevice(ledger: try await Ledger.open(at: directory), transport: transport)
                    }
                    var outcomes = Outcomes()
                    var online = true
                    for _ in 0..<commandsPerDevice {
                        if Int.random(in: 0..<100, using: &random) < 15 {
                            online.toggle()
                            if Int.random(in: 0..<100, using: &random) < 40 {
                                outcomes.restarts += 1
                                device = try await restart(device)
                            }
                            if online {
                                try await Self.syncUntilEmpty(&device, outcomes: &outcomes, restarts: { Int.random(in: 0..<100, using: &random) < 50 }, restart: restart)
                            }
                        }
                        let generated = own.next()
                        let command = Command(commandID: generated.commandID, actor: person, recordedAt: generated.recordedAt, action: generated.action)
                        if online {
                            try await Self.executeUntilAnswered(command, on: device, outcomes: &outcomes)
                        } else {
                            outcomes.offline += 1
                            do {
                                try await device.submit(command)
                                outcomes.submitted.append(command.commandID)
                            } catch LedgerError.rejected {
                                outcomes.deliver(command.commandID)  // on the device, against its outbox
                            }
                        }
                    }
                    try await Self.syncUntilEmpty(&device, outcomes: &outcomes, restarts: { Int.random(in: 0..<100, using: &random) < 50 }, restart: restart)
                    return (index, outcomes, device)
                }
            }
            var all: [(Int, Outcomes, SyncDevice)] = []
            for try await outcome in group { all.append(outcome) }
            return all.sorted { $0.0 < $1.0 }
        }
        let syncDevices = finished.map(\.2)
        let ledgers = syncDevices.map(\.ledger)
        for device in syncDevices { try await Self.pullUntilCurrent(device) }
        // Answers of syncs that failed after recording them: in the history, or in the rejections
        // the device keeps until the app dismisses them. None is lost, none is delivered twice.
        var outcomes: [Outcomes] = []
        for (_, found, device) in finished {
            var outcome = found
            for command in outcome.submitted where outcome.accepted[command] == nil && !outcome.rejected.contains(command) {
                switch try await device.status(of: command) {
                case .confirmed(let range):
                    outcome.accepted[command] = range
                case .rejected:
                    outcome.deliver(command)
                    try await device.dismissRejection(command)
                case let status:
                    Issue.record("command \(command) from the outbox has no answer: \(status)")
                }
            }
            #expect(await device.pendingCommandIDs.isEmpty)
            #expect(try await device.rejections().isEmpty, "every rejection was delivered")
            #expect(outcome.duplicateRejections == 0, "a rejection was delivered twice")
            outcomes.append(outcome)
        }

        // Every device holds the server's history: the same end and chain, the same events.
        let head = try await histories[0].head(household: household)
        let reference = try await ledgers[0].events()
        for (index, ledger) in ledgers.enumerated() {
            let end = try await ledger.recordChainEnd()
            #expect(end.sequenceNumber == head.sequenceNumber && end.chain.bytes == head.chain, "device \(index) ends elsewhere")
            #expect(try await ledger.events() == reference, "device \(index) holds other events")
            #expect(await ledger.readModels == ledgers[0].readModels, "device \(index) reads otherwise")
        }
        // Every accepted command is in the history once, where its device was told; no
        // rejected one is.
        var rangesByCommand: [CommandID: ClosedRange<UInt64>] = [:]
        for event in reference {
            let range = rangesByCommand[event.event.commandID].map { $0.lowerBound...event.sequenceNumber } ?? event.sequenceNumber...event.sequenceNumber
            rangesByCommand[event.event.commandID] = range
        }
        var accepted = 0
        for outcome in outcomes {
            for (command, range) in outcome.accepted {
                #expect(rangesByCommand[command] == range, "command \(command) was told \(range)")
                accepted += 1
            }
            for command in outcome.rejected {
                #expect(rangesByCommand[command] == nil, "rejected command \(command) is in the history")
            }
        }
        // No command applied twice: the server writes each command as its own frame, so all of
        // a command's events lie in one frame (a retried push applied again would be another).
        let frames = try await ledgers[0].recordFrames(after: 0, chain: .genesis)
        var frameOf: [UInt64: Int] = [:]
        for (index, frame) in frames.enumerated() {
            for sequenceNumber in frame.first...frame.last { frameOf[sequenceNumber] = index }
        }
        let framesByCommand = Dictionary(grouping: reference, by: \.event.commandID).mapValues { events in Set(events.map { frameOf[$0.sequenceNumber] }) }
        for (command, held) in framesByCommand {
            #expect(held.count == 1, "command \(command) is in \(held.count) frames of the history")
        }
        let faults = transports.map { $0.faults.withLock { $0 } }.reduce(into: [String: Int]()) { $0.merge($1, uniquingKeysWith: +) }
        #expect(accepted > 0 && outcomes.flatMap(\.rejected).count + accepted == people.count * commandsPerDevice)
        #expect(faults["answerLost", default: 0] > 0 && faults["appendCancelled", default: 0] > 0, "\(faults)")
        #expect(outcomes.map(\.offline).reduce(0, +) > 0 && outcomes.map(\.restarts).reduce(0, +) > 0, "no device went offline or restarted")
        for ledger in ledgers { try await ledger.close() }
        for server in servers { await server.close() }
    }
}
