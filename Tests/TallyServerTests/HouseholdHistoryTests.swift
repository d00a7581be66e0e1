import Foundation
import PostgresNIO
import Testing

@testable import TallyServer
import TallySyncWire

@Suite("HouseholdHistory")
struct HouseholdHistoryTests {
    struct EngineFailed: Error {}

    /// A household with one registered device.
    static func household(in history: HouseholdHistory) async throws -> (household: UUID, device: UUID) {
        let household = UUID()
        try await history.createHousehold(household, genesisChain: TestEngine.genesisChain)
        let (device, _) = try await history.registerDevice(household: household, person: UUID())
        return (household, device.deviceID)
    }

    @Test("Sync: appended frames are pulled back in order, whole, with the head after them; a pull stops once its byte budget is reached, after at least one frame")
    func appendThenPull() async throws {
        try await TestPostgres.withHistory { history in
            let (household, device) = try await Self.household(in: history)
            let engine = TestEngine()
            #expect(try await history.head(household: household) == HistoryHead(sequenceNumber: 0, chain: TestEngine.genesisChain))

            let first = [TestEngine.command(records: 2), TestEngine.command(records: 1)]
            let second = [TestEngine.command(records: 3)]
            let firstOutcomes = try await history.append(household: household, device: device, commands: first, execute: engine.execute)
            let secondOutcomes = try await history.append(household: household, device: device, commands: second, execute: engine.execute)
            #expect(firstOutcomes == [.accepted(firstSequenceNumber: 1, lastSequenceNumber: 2), .accepted(firstSequenceNumber: 3, lastSequenceNumber: 3)])
            #expect(secondOutcomes == [.accepted(firstSequenceNumber: 4, lastSequenceNumber: 6)])

            let frames = try await history.frames(household: household, after: 0, limit: 100)
            #expect(frames.map(\.firstSequenceNumber) == [1, 3, 4])
            #expect(frames.map(\.lastSequenceNumber) == [2, 3, 6])
            #expect(frames.map(\.records) == (first + second).map { TestEngine.records(of: $0.commandID) })
            var chain = TestEngine.genesisChain
            for frame in frames {
                chain = TestEngine.chain(after: chain, records: frame.records)
                #expect(frame.chain == chain)
            }
            #expect(try await history.head(household: household) == HistoryHead(sequenceNumber: 6, chain: chain))

            // A cursor at a frame's end, inside a frame, at the head; a limit.
            #expect(try await history.frames(household: household, after: 3, limit: 100).map(\.firstSequenceNumber) == [4])
            #expect(try await history.frames(household: household, after: 5, limit: 100).map(\.firstSequenceNumber) == [4])
            #expect(try await history.frames(household: household, after: 6, limit: 100).isEmpty)
            #expect(try await history.frames(household: household, after: 0, limit: 2).map(\.firstSequenceNumber) == [1, 3])

            // A byte budget: frames while the records before them are under it, at least one.
            let sizes = frames.map(\.records.count)
            let budgeted = HouseholdHistory(client: history.client, limits: HistoryLimits(pullBytesMax: sizes[0] + 1))
            #expect(try await budgeted.frames(household: household, after: 0, limit: 100).map(\.firstSequenceNumber) == [1, 3])
            let tiny = HouseholdHistory(client: history.client, limits: HistoryLimits(pullBytesMax: 1))
            #expect(try await tiny.frames(household: household, after: 0, limit: 100).map(\.firstSequenceNumber) == [1])
            #expect(try await tiny.frames(household: household, after: 2, limit: 100).map(\.firstSequenceNumber) == [3])
        }
    }

    @Test("Issue 32: a pull's page is one read: the frames after the cursor, the chain value at the cursor (none inside a frame or past the head), the head, and the serial of the last stored key; an unknown household is a typed error")
    func pageCarriesWhatAPullChecks() async throws {
        try await TestPostgres.withHistory { history in
            let (household, device) = try await Self.household(in: history)
            let engine = TestEngine()
            let empty = try await history.page(household: household, after: 0, limit: 100)
            #expect(empty.frames.isEmpty && empty.head == 0 && empty.cursorChain == nil && empty.lastKeySerial == 0)
            _ = try await history.append(
                household: household, device: device, commands: [TestEngine.command(records: 2), TestEngine.command(records: 3)], execute: engine.execute)
            let frames = try await history.frames(household: household, after: 0, limit: 100)
            let atFirst = try await history.page(household: household, after: 2, limit: 100)
            #expect(atFirst.frames == [frames[1]] && atFirst.head == 5 && atFirst.cursorChain == frames[0].chain)
            let inside = try await history.page(household: household, after: 3, limit: 100)
            #expect(inside.frames == [frames[1]] && inside.cursorChain == nil)
            let atHead = try await history.page(household: household, after: 5, limit: 100)
            #expect(atHead.frames.isEmpty && atHead.head == 5 && atHead.cursorChain == frames[1].chain)
            #expect(try await history.page(household: household, after: 9, limit: 100).cursorChain == nil)
            _ = try await history.storeKeys(
                [SealedPersonKey(personID: UUID(), sealed: [1, 2, 3], fingerprint: [4])], secretVerifier: [9], household: household, device: device)
            let serial = try await history.keys(household: household, after: 0, limit: 10).map(\.serial)
            #expect(try await history.page(household: household, after: 5, limit: 100).lastKeySerial == serial.last)
            await #expect(throws: HouseholdHistoryError.unknownHousehold(device)) {
                try await history.page(household: device, after: 0, limit: 1)
            }
        }
    }

    @Test("Issue 32: every commit that moves a household's head is heard by a listener on another client (PostgreSQL's notification, schema 5), with the household and its new head; a retried append that moves nothing is not")
    func commitsAreHeard() async throws {
        try await TestPostgres.withHistory { history in
            let (household, device) = try await Self.household(in: history)
            let engine = TestEngine()
            let (heard, hear) = AsyncStream<HistoryCommit>.makeStream()
            let (ready, listening) = AsyncStream<Void>.makeStream()
            let listener = Task {
                try await history.listenForCommits {
                    listening.yield()
                } heard: { commit in
                    hear.yield(commit)
                }
            }
            defer { listener.cancel() }
            // Not a timing check: a listener that hears nothing ends the test instead of hanging it.
            let deadline = Task {
                try await Task.sleep(for: .seconds(60))
                listening.finish()
                hear.finish()
            }
            defer { deadline.cancel() }
            for await _ in ready { break }
            let command = TestEngine.command(records: 2)
            _ = try await history.append(household: household, device: device, commands: [command], execute: engine.execute)
            _ = try await history.append(household: household, device: device, commands: [command], execute: engine.execute)  // a retry
            _ = try await history.append(household: household, device: device, commands: [TestEngine.command(records: 1)], execute: engine.execute)
            var commits: [HistoryCommit] = []
            for await commit in heard {
                commits.append(commit)
                if commits.count == 2 { break }
            }
            #expect(commits.map(\.household) == [household, household])
            #expect(commits.map(\.head) == [2, 3])
        }
    }

    @Test("Issue 32 (H5): a request that waits for the household's row lock sees a revocation committed while it waited: an append and a key share of a device revoked by the lock's holder are refused (deviceNotAllowed) and write nothing")
    func revocationCommittedWhileWaitingIsSeen() async throws {
        try await TestPostgres.withHistory { history in
            let (household, device) = try await Self.household(in: history)
            let engine = TestEngine()
            let key = SealedPersonKey(personID: UUID(), sealed: [1], fingerprint: [2])
            let logger = Logger(label: "tally.test")
            let (append, share) = try await history.client.withTransaction(logger: logger) { connection in
                try await connection.query("SELECT 1 FROM households WHERE household_id = \(household) FOR UPDATE", logger: logger)
                let append = Task {
                    try await history.append(household: household, device: device, commands: [TestEngine.command(records: 1)], execute: engine.execute)
                }
                let share = Task { try await history.storeKeys([key], secretVerifier: [9], household: household, device: device) }
                // Both are waiting for the row lock now, their statements' snapshots taken.
                try await Task.sleep(for: .milliseconds(500))
                try await connection.query("UPDATE devices SET revoked = true WHERE device_id = \(device)", logger: logger)
                return (append, share)
            }
            await #expect(throws: HouseholdHistoryError.deviceNotAllowed(device: device, household: household)) { try await append.value }
            await #expect(throws: HouseholdHistoryError.deviceNotAllowed(device: device, household: household)) { try await share.value }
            #expect(try await history.head(household: household).sequenceNumber == 0)
            #expect(try await history.keys(household: household, after: 0, limit: 10).isEmpty)
        }
    }

    @Test("Sync: a household is created once; an unknown one is a typed error")
    func householdCreatedOnce() async throws {
        try await TestPostgres.withHistory { history in
            let household = UUID()
            try await history.createHousehold(household, genesisChain: TestEngine.genesisChain)
            await #expect(throws: HouseholdHistoryError.householdExists(household)) {
                try await history.createHousehold(household, genesisChain: [1])
            }
            #expect(try await history.head(household: household).chain == TestEngine.genesisChain)
            let unknown = UUID()
            await #expect(throws: HouseholdHistoryError.unknownHousehold(unknown)) { try await history.head(household: unknown) }
            await #expect(throws: HouseholdHistoryError.unknownHousehold(unknown)) {
                try await history.frames(household: unknown, after: 0, limit: 10)
            }
            await #expect(throws: HouseholdHistoryError.unknownHousehold(unknown)) {
                try await history.registerDevice(household: unknown, person: UUID())
            }
            // migrate again: the tables are there, nothing changes.
            try await history.migrate()
            #expect(try await history.head(household: household).sequenceNumber == 0)
        }
    }

    @Test("Issue 32: a database a version-1 server made (before keys and invitation codes) is brought to this version by migrate, its households and devices kept; a later migrate changes nothing; a newer version is refused")
    func migratesFromVersion1() async throws {
        try await TestPostgres.withDatabase { database in
            try await TestPostgres.withClient(database: database) { client in
                _ = try await client.query(PostgresQuery(unsafeSQL: HistorySchema.createVersionTable))
                for statement in HistorySchema.version1 { _ = try await client.query(PostgresQuery(unsafeSQL: statement)) }
                // A household and a device as the version-1 server wrote them.
                let household = UUID(), device = UUID()
                _ = try await client.query("INSERT INTO households (household_id, last_sequence, last_chain) VALUES (\(household), 0, \(ByteBuffer(bytes: TestEngine.genesisChain)))")
                _ = try await client.query("INSERT INTO devices (device_id, household_id, person_id, token_sha256, revoked) VALUES (\(device), \(household), \(UUID()), \(ByteBuffer(bytes: [1, 2, 3])), false)")
                let history = HouseholdHistory(client: client)
                try await history.migrate()
                try await history.migrate()
                #expect(try await TestPostgres.count("SELECT version::bigint FROM tally_schema", in: history) == Int64(HistorySchema.version))
                let key = SealedPersonKey(personID: UUID(), sealed: [1, 2, 3], fingerprint: [4])
                #expect(try await history.storeKeys([key], secretVerifier: [9], household: household, device: device).isEmpty)
                #expect(try await history.keys(household: household, after: 0, limit: 10).map(\.key) == [key])
                _ = try await client.query("UPDATE tally_schema SET version = 99")
                await #expect(throws: HouseholdHistoryError.schemaTooNew(found: 99, supported: HistorySchema.version)) { try await history.migrate() }
            }
        }
    }

    @Test("Sync: a retried command is answered from its stored outcome, never executed twice")
    func retryIsIdempotent() async throws {
        try await TestPostgres.withHistory { history in
            let (household, device) = try await Self.household(in: history)
            let engine = TestEngine()
            let command = TestEngine.command(records: 2)
            let first = try await history.append(household: household, device: device, commands: [command], execute: engine.execute)
            let retry = try await history.append(household: household, device: device, commands: [command]) { batch in
                Issue.record("execute called for a batch of stored commands only: \(batch.commands)")
                return ExecutedBatch(frames: [], outcomes: [])
            }
            #expect(first == [.accepted(firstSequenceNumber: 1, lastSequenceNumber: 2)])
            #expect(retry == first)
            #expect(engine.executionCount(command.commandID) == 1)

            // A retry beside a new command, and an id twice in one batch: each executed once.
            let new = TestEngine.command(records: 1)
            let mixed = try await history.append(household: household, device: device, commands: [command, new, new], execute: engine.execute)
            #expect(mixed == first + [.accepted(firstSequenceNumber: 3, lastSequenceNumber: 3), .accepted(firstSequenceNumber: 3, lastSequenceNumber: 3)])
            #expect(engine.executionCount(command.commandID) == 1)
            #expect(engine.executionCount(new.commandID) == 1)
            #expect(try await history.head(household: household).sequenceNumber == 3)
            #expect(try await TestPostgres.count("SELECT count(*) FROM commands", in: history) == 2)
        }
    }

    @Test("Sync: a rejected command's outcome is stored and returned on retry")
    func rejectionStored() async throws {
        try await TestPostgres.withHistory { history in
            let (household, device) = try await Self.household(in: history)
            let engine = TestEngine()
            let rejected = TestEngine.command(records: 0)
            let accepted = TestEngine.command(records: 1)
            let outcomes = try await history.append(household: household, device: device, commands: [rejected, accepted], execute: engine.execute)
            let rejection = CommandOutcome.rejected(code: "emptyCommand", message: "command \(rejected.commandID) has no records")
            #expect(outcomes == [rejection, .accepted(firstSequenceNumber: 1, lastSequenceNumber: 1)])

            let retry = try await history.append(household: household, device: device, commands: [rejected], execute: engine.execute)
            #expect(retry == [rejection])
            #expect(engine.executionCount(rejected.commandID) == 1)

            // Only rejections: the outcome is stored, the head does not move.
            let alone = TestEngine.command(records: 0)
            #expect(try await history.append(household: household, device: device, commands: [alone], execute: engine.execute).count == 1)
            #expect(try await history.head(household: household).sequenceNumber == 1)
            #expect(try await TestPostgres.count("SELECT count(*) FROM commands", in: history) == 3)
        }
    }

    @Test("Sync: when execute throws nothing is written, the head is unchanged and a retry executes")
    func executeThrowingWritesNothing() async throws {
        try await TestPostgres.withHistory { history in
            let (household, device) = try await Self.household(in: history)
            let engine = TestEngine()
            _ = try await history.append(household: household, device: device, commands: [TestEngine.command()], execute: engine.execute)
            let headBefore = try await history.head(household: household)

            let command = TestEngine.command()
            await #expect(throws: EngineFailed.self) {
                try await history.append(household: household, device: device, commands: [command]) { batch in
                    _ = engine.execute(batch)
                    throw EngineFailed()
                }
            }
            #expect(try await history.head(household: household) == headBefore)
            #expect(try await TestPostgres.count("SELECT count(*) FROM frames", in: history) == 1)
            #expect(try await TestPostgres.count("SELECT count(*) FROM commands", in: history) == 1)

            let retry = try await history.append(household: household, device: device, commands: [command], execute: engine.execute)
            #expect(retry == [.accepted(firstSequenceNumber: 2, lastSequenceNumber: 2)])
        }
    }

    @Test("Sync: frames that do not continue the head, or outcomes outside them, are typed errors and write nothing")
    func framesMustContinueHead() async throws {
        try await TestPostgres.withHistory { history in
            let (household, device) = try await Self.household(in: history)
            let engine = TestEngine()
            _ = try await history.append(household: household, device: device, commands: [TestEngine.command(records: 2)], execute: engine.execute)
            let headBefore = try await history.head(household: household)
            let command = TestEngine.command()

            func frame(_ first: UInt64, _ last: UInt64) -> HistoryFrame {
                HistoryFrame(firstSequenceNumber: first, lastSequenceNumber: last, records: [1], chain: [2])
            }
            let accepted = CommandOutcome.accepted(firstSequenceNumber: 3, lastSequenceNumber: 3)
            let wrong: [(ExecutedBatch, HouseholdHistoryError)] = [
                (ExecutedBatch(frames: [frame(4, 4)], outcomes: [accepted]),
                 .frameDoesNotContinueHead(household: household, expectedFirstSequenceNumber: 3, frameFirstSequenceNumber: 4)),
                (ExecutedBatch(frames: [frame(2, 3)], outcomes: [accepted]),
                 .frameDoesNotContinueHead(household: household, expectedFirstSequenceNumber: 3, frameFirstSequenceNumber: 2)),
                (ExecutedBatch(frames: [frame(3, 3), frame(5, 5)], outcomes: [accepted]),
                 .frameDoesNotContinueHead(household: household, expectedFirstSequenceNumber: 4, frameFirstSequenceNumber: 5)),
                (ExecutedBatch(frames: [frame(3, 2)], outcomes: [accepted]),
                 .malformedFrame(household: household, firstSequenceNumber: 3, reason: "it ends at sequence 2, before it starts")),
                (ExecutedBatch(frames: [frame(3, 3)], outcomes: []),
                 .outcomeCountMismatch(household: household, commands: 1, outcomes: 0)),
                (ExecutedBatch(frames: [frame(3, 3)], outcomes: [.accepted(firstSequenceNumber: 3, lastSequenceNumber: 4)]),
                 .outcomeOutsideFrames(household: household, commandID: command.commandID, firstSequenceNumber: 3, lastSequenceNumber: 4)),
            ]
            for (executed, expected) in wrong {
                await #expect(throws: expected) {
                    try await history.append(household: household, device: device, commands: [command]) { _ in executed }
                }
            }
            #expect(try await history.head(household: household) == headBefore)
            #expect(try await TestPostgres.count("SELECT count(*) FROM frames", in: history) == 1)
            #expect(try await TestPostgres.count("SELECT count(*) FROM commands", in: history) == 1)
            #expect(engine.executionCount(command.commandID) == 0)
        }
    }

    @Test("Sync: appends serialised by the row lock (two servers, 2 x 50 appends: contiguous, each command executed once)")
    func concurrentAppendsAreSerialised() async throws {
        let appendsPerServer = 50
        try await TestPostgres.withDatabase { database in
            let (household, device) = try await TestPostgres.withHistory(database: database) { history in
                try await Self.household(in: history)
            }
            let engine = TestEngine()
            let commandsPerServer = try await withThrowingTaskGroup(of: [(SubmittedCommand, CommandOutcome)].self) { group in
                for server in 0..<2 {
                    group.addTask {
                        try await TestPostgres.withHistory(database: database) { history in
                            var results: [(SubmittedCommand, CommandOutcome)] = []
                            for index in 0..<appendsPerServer {
                                let command = TestEngine.command(records: UInt8(1 + (index + server) % 3))
                                let outcomes = try await history.append(household: household, device: device, commands: [command]) { batch in
                                    // Widens the window in which the other server waits on the row lock.
                                    try await Task.sleep(for: .milliseconds(1))
                                    return engine.execute(batch)
                                }
                                results.append((command, outcomes[0]))
                            }
                            return results
                        }
                    }
                }
                var all: [[(SubmittedCommand, CommandOutcome)]] = []
                for try await results in group { all.append(results) }
                return all
            }
            let results = commandsPerServer.flatMap { $0 }
            #expect(results.count == 2 * appendsPerServer)

            try await TestPostgres.withHistory(database: database) { history in
                let recordTotal = results.reduce(0) { $0 + UInt64($1.0.body[0]) }
                let frames = try await history.frames(household: household, after: 0, limit: 1_000)
                #expect(frames.count == 2 * appendsPerServer)
                var expectedFirst: UInt64 = 1
                var chain = TestEngine.genesisChain
                for frame in frames {
                    #expect(frame.firstSequenceNumber == expectedFirst)
                    chain = TestEngine.chain(after: chain, records: frame.records)
                    #expect(frame.chain == chain)
                    expectedFirst = frame.lastSequenceNumber + 1
                }
                #expect(expectedFirst == recordTotal + 1)
                #expect(try await history.head(household: household) == HistoryHead(sequenceNumber: recordTotal, chain: chain))

                let ranges = results.compactMap { _, outcome -> ClosedRange<UInt64>? in
                    guard case .accepted(let first, let last) = outcome else { return nil }
                    return first...last
                }.sorted { $0.lowerBound < $1.lowerBound }
                #expect(ranges.count == results.count)
                #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound + 1 == $1.lowerBound })
                for (command, _) in results {
                    #expect(engine.executionCount(command.commandID) == 1)
                }
            }
        }
    }

    @Test("Sync: device tokens are stored only hashed; a revoked device or an unknown token is refused")
    func deviceTokens() async throws {
        try await TestPostgres.withHistory { history in
            let household = UUID()
            let person = UUID()
            try await history.createHousehold(household, genesisChain: TestEngine.genesisChain)
            let (device, token) = try await history.registerDevice(household: household, person: person)
            let (other, otherToken) = try await history.registerDevice(household: household, person: person)
            #expect(token != otherToken)
            #expect(device == Device(deviceID: device.deviceID, householdID: household, personID: person))

            let raw = try #require(DeviceToken.bytes(token))
            #expect(raw.count == 32)
            #expect(DeviceToken.text(raw) == token)
            // Neither the raw bytes nor their hex or base64url text are anywhere in the table.
            let rawBuffer = ByteBuffer(bytes: raw)
            let rawHex = raw.map { String(format: "%02x", $0) }.joined()
            #expect(
                try await TestPostgres.count(
                    """
                    SELECT count(*) FROM devices d WHERE position(\(rawBuffer) in d.token_sha256) > 0
                    OR position(\(rawHex) in d::text) > 0 OR position(\(token) in d::text) > 0
                    """,
                    in: history) == 0)
            let hashBuffer = ByteBuffer(bytes: DeviceToken.sha256(raw))
            #expect(try await TestPostgres.count("SELECT count(*) FROM devices WHERE token_sha256 = \(hashBuffer)", in: history) == 1)

            #expect(try await history.authenticate(token: token, nowMilliseconds: 0) == device)
            #expect(try await history.authenticate(token: otherToken, nowMilliseconds: 0) == other)
            #expect(try await history.authenticate(token: DeviceToken.text(DeviceToken.generate()), nowMilliseconds: 0) == nil)
            #expect(try await history.authenticate(token: "not a token", nowMilliseconds: 0) == nil)
            #expect(try await history.authenticate(token: "", nowMilliseconds: 0) == nil)

            try await history.revokeDevice(device.deviceID)
            #expect(try await history.authenticate(token: token, nowMilliseconds: 0) == nil)
            #expect(try await history.authenticate(token: otherToken, nowMilliseconds: 0) == other)
            await #expect(throws: HouseholdHistoryError.deviceNotAllowed(device: device.deviceID, household: household)) {
                try await history.append(household: household, device: device.deviceID, commands: [TestEngine.command()], execute: TestEngine().execute)
            }
            let unknown = UUID()
            await #expect(throws: HouseholdHistoryError.unknownDevice(unknown)) { try await history.revokeDevice(unknown) }
        }
    }
}
