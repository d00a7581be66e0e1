import Foundation
import SystemPackage
import Tally
import TallyJournal
import TallyModel
import TallyServer

/// The server's engine (Docs/Sync.md, "Validation state per household"): validates what devices
/// push with the executor a device runs, on a keyless ledger per household, and appends the
/// result to the household's history in PostgreSQL (``HouseholdHistory``).
///
/// Per household it keeps a ledger cache in `cacheDirectory/<household id>`: the same ledger
/// folder a device has, opened keyless (`LedgerOptions.keyless`: personal texts stay sealed, a
/// command enters texts only from its device's sealed entries). Under the household's row lock
/// an append first brings the cache up to the committed history (the frames other server
/// processes appended since), checking every frame's sequence numbers and chain, then
/// executes. The cache is only a cache: one that is ahead of the history (a commit that failed
/// after it wrote) or disagrees with its chain is dropped and rebuilt from the history, never
/// served.
public actor SyncServer {
    /// The household's history in PostgreSQL.
    public let history: HouseholdHistory
    private let cacheDirectory: FilePath
    private var caches: [UUID: HouseholdCache] = [:]

    /// One household's ledger cache and where it ends.
    private struct HouseholdCache {
        let ledger: Ledger
        var sequenceNumber: UInt64
        var chain: ChainValue
    }

    /// How many committed frames a catch-up reads at once.
    private static let catchUpFramesMax = 256

    /// A server appending to `history`, keeping its ledger caches under `cacheDirectory`.
    public init(history: HouseholdHistory, cacheDirectory: FilePath) {
        self.history = history
        self.cacheDirectory = cacheDirectory
    }

    /// Creates an empty household's history; its first pushed command is `createHousehold`.
    public func createHousehold(_ household: UUID) async throws {
        try await history.createHousehold(household, genesisChain: ChainValue.genesis.bytes)
    }

    /// Executes `commands` pushed by `device` (each its ``PushedCommand`` body) and appends them to
    /// its household's history, in one PostgreSQL transaction; returns one outcome per command.
    ///
    /// A command with a stored outcome is answered with it (a retry never executes twice). Every
    /// other one is refused before validation when its body is not a push (`commandInvalid`), its
    /// id is not the one it was submitted under, or its actor is not the device's person
    /// (`actorNotDevicePerson`); the rest are executed in order, each as its own frame, and a
    /// command that breaks a rule is rejected with the rule's code.
    /// - Throws: ``HouseholdHistoryError`` (an unknown household, a device not allowed, a
    ///   database failure: nothing was appended; retry), `LedgerError` when the cache cannot
    ///   be written, ``SyncError/historyInvalid(_:)`` when the committed history does not verify.
    public func push(_ commands: [SubmittedCommand], from device: Device) async throws -> [CommandOutcome] {
        let person = PersonID(UUIDValue(device.personID))
        // A cache that wrote frames whose commit then failed is ahead of the history: the next
        // append finds it so (``cache(for:)``) and rebuilds it.
        return try await history.append(household: device.householdID, device: device.deviceID, commands: commands) { @Sendable batch in
            try await self.execute(batch, person: person)
        }
    }

    /// The household's committed frames that end after `sequenceNumber`, at most `limit`.
    public func pull(household: UUID, after sequenceNumber: UInt64, limit: Int) async throws -> [HistoryFrame] {
        try await history.frames(household: household, after: sequenceNumber, limit: limit)
    }

    /// Closes every ledger cache.
    public func close() async {
        for household in caches.keys { await dropCache(household, removing: false) }
    }

    // MARK: Executing under the row lock

    private func execute(_ batch: AppendBatch, person: PersonID) async throws -> ExecutedBatch {
        let ledger = try await cache(for: batch)
        var outcomes: [CommandOutcome?] = []
        var pushed: [PushedCommand] = []
        for submitted in batch.commands {
            do throws(SyncError) {
                let push = try PushedCommand(body: submitted.body)
                guard push.command.commandID.value.uuid == submitted.commandID else {
                    throw .commandInvalid("the command's id \(push.command.commandID) is not the id it was pushed under (\(submitted.commandID))")
                }
                guard push.command.actor == person else {
                    outcomes.append(.rejected(
                        code: "actorNotDevicePerson",
                        message: "the command's actor \(push.command.actor) is not this device's person \(person); a device pushes only its own person's commands"))
                    continue
                }
                pushed.append(push)
                outcomes.append(nil)
            } catch {
                outcomes.append(.rejected(code: "commandInvalid", message: "\(error)"))
            }
        }
        guard !pushed.isEmpty else { return ExecutedBatch(frames: [], outcomes: outcomes.compactMap { $0 }) }
        let results = try await ledger.execute(each: pushed.map(\.command), sealedTexts: pushed.map(\.texts))
        var executedOutcomes = results.makeIterator()
        for index in outcomes.indices where outcomes[index] == nil {
            guard let result = executedOutcomes.next() else {
                throw SyncError.historyInvalid("the server's ledger stopped before command \(index + 1) of the push")
            }
            switch result {
            case .success(let positions):
                guard let first = positions.first, let last = positions.last else {
                    throw SyncError.historyInvalid("an accepted command produced no event")
                }
                outcomes[index] = .accepted(firstSequenceNumber: first.sequenceNumber, lastSequenceNumber: last.sequenceNumber)
            case .failure(.rejected(let violation)):
                outcomes[index] = .rejected(code: violation.code.rawValue, message: violation.message)
            case .failure(let error):
                throw error
            }
        }
        let frames = try await newFrames(of: ledger, after: batch.head.sequenceNumber, household: batch.householdID)
        return ExecutedBatch(frames: frames, outcomes: outcomes.compactMap { $0 })
    }

    /// The frames the cache wrote after `sequenceNumber`, in the history's form, its chain advanced.
    private func newFrames(of ledger: Ledger, after sequenceNumber: UInt64, household: UUID) async throws -> [HistoryFrame] {
        guard var cache = caches[household] else { return [] }
        var frames: [HistoryFrame] = []
        for frame in try await ledger.journalFrames(from: sequenceNumber + 1) {
            let records = SyncRecords.records(of: frame)
            cache.chain = SyncRecords.chain(after: cache.chain, records: records, from: frame.firstSequenceNumber)
            cache.sequenceNumber = frame.lastSequenceNumber
            frames.append(HistoryFrame(
                firstSequenceNumber: frame.firstSequenceNumber, lastSequenceNumber: frame.lastSequenceNumber,
                records: SyncRecords.encode(records), chain: cache.chain.bytes))
        }
        caches[household] = cache
        return frames
    }

    /// The household's ledger cache at the batch's head: opened (or rebuilt) and caught up.
    private func cache(for batch: AppendBatch) async throws -> Ledger {
        let household = batch.householdID
        if let cache = caches[household], cache.sequenceNumber > batch.head.sequenceNumber {
            await dropCache(household)
        }
        for attempt in 0..<2 {
            var cache = try await openCache(household)
            while cache.sequenceNumber < batch.head.sequenceNumber {
                let frames = try await batch.committedFrames(after: cache.sequenceNumber, limit: Self.catchUpFramesMax)
                guard !frames.isEmpty else { break }
                var appended: [[NewRecord]] = []
                for frame in frames {
                    let records = try SyncRecords.decode(frame.records)
                    let next = cache.sequenceNumber + 1
                    guard frame.firstSequenceNumber == next, frame.lastSequenceNumber == next + UInt64(records.count) - 1 else {
                        throw SyncError.historyInvalid("household \(household): the frame after \(cache.sequenceNumber) covers \(frame.firstSequenceNumber)...\(frame.lastSequenceNumber) with \(records.count) record(s)")
                    }
                    let chain = SyncRecords.chain(after: cache.chain, records: records, from: next)
                    guard chain.bytes == frame.chain else {
                        throw SyncError.historyInvalid("household \(household): the chain after record \(frame.lastSequenceNumber) does not match its records")
                    }
                    appended.append(records)
                    cache.sequenceNumber = frame.lastSequenceNumber
                    cache.chain = chain
                }
                try await cache.ledger.appendConfirmed(appended)
                caches[household] = cache
            }
            if cache.sequenceNumber == batch.head.sequenceNumber, cache.chain.bytes == batch.head.chain {
                return cache.ledger
            }
            // Ahead of the history, or another chain: this cache is not the history's.
            await dropCache(household)
            if attempt == 1 {
                throw SyncError.historyInvalid("household \(household): rebuilt from the history, the cache ends at \(cache.sequenceNumber) with another chain than the history's head \(batch.head.sequenceNumber)")
            }
        }
        throw SyncError.historyInvalid("household \(household): the cache could not be rebuilt")
    }

    /// The household's cache: kept open, or opened from its folder (its chain recomputed from
    /// its journal, once per process), or created empty.
    private func openCache(_ household: UUID) async throws -> HouseholdCache {
        if let cache = caches[household] { return cache }
        var options = LedgerOptions()
        options.keyless = true
        let ledger = try await Ledger.open(at: folder(of: household), options: options)
        var cache = HouseholdCache(ledger: ledger, sequenceNumber: 0, chain: .genesis)
        do {
            for frame in try await ledger.journalFrames(from: 1) {
                let records = SyncRecords.records(of: frame)
                cache.chain = SyncRecords.chain(after: cache.chain, records: records, from: frame.firstSequenceNumber)
                cache.sequenceNumber = frame.lastSequenceNumber
            }
        } catch {
            try? await ledger.close()
            throw error
        }
        caches[household] = cache
        return cache
    }

    private func folder(of household: UUID) -> FilePath {
        cacheDirectory.appending(household.uuidString.lowercased())
    }

    /// Closes the household's cache and (unless told otherwise) removes its folder.
    private func dropCache(_ household: UUID, removing: Bool = true) async {
        if let cache = caches.removeValue(forKey: household) { try? await cache.ledger.close() }
        if removing { try? FileManager.default.removeItem(atPath: folder(of: household).string) }
    }
}
