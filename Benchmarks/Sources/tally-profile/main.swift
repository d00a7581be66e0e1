import Foundation
import SystemPackage
import TallyJournal
import TallyModel
import TallyWorkload
import Tally
import TallyProjections
import BenchmarkSupport

// tally-profile: one journal phase in isolation, for `valgrind --tool=callgrind`.
// Usage: tally-profile append|read|scan|verify|concurrent|codec|memory [events] [directory]
// `append` writes `events` generated events in batches of 1000 with `.none` durability (CPU
// only, no fdatasync); `read` and `verify` first build that journal untimed, then run the
// phase. See Docs/Performance.md for the callgrind command lines.

let arguments = CommandLine.arguments
let mode = arguments.count > 1 ? arguments[1] : "append"
let count = arguments.count > 2 ? Int(arguments[2]) ?? 200_000 : 200_000
let directory = arguments.count > 3 ? arguments[3] : NSTemporaryDirectory() + "tally-profile-\(getpid())"

@inline(never)
func buildRecords() -> [[NewRecord]] {
    HouseholdHistory(count: count).batches(of: 1000).map { $0.map(EncodedHistory.record) }
}

@inline(never)
func appendAll(_ batches: [[NewRecord]]) async throws {
    let journal = try Journal.open(at: FilePath(directory), options: JournalOptions(durability: .none))
    for batch in batches { try await journal.append(batch) }
    try journal.close()
}

/// Writes the generated events to a journal at `path`, one batch of 1000 generated at a time
/// (nothing of the history stays in memory before a measurement).
@inline(never)
func appendLazily(at path: FilePath) async throws {
    let journal = try Journal.open(at: path, options: JournalOptions(durability: .none))
    for batch in HouseholdHistory(count: count).batches(of: 1000) { try await journal.append(batch.map(EncodedHistory.record)) }
    try journal.close()
}

@inline(never)
func readAll(decode: Bool) throws -> Int {
    let reader = try JournalReader.open(at: FilePath(directory))
    var total = 0
    try reader.forEachRecord { record in
        if decode {
            total &+= Int(try EncodedHistory.decode(record).recordedAt.millisecondsSinceEpoch & 1)
        } else {
            total &+= record.payload.count
        }
        return true
    }
    return total
}

@inline(never)
func codecRoundTrip(_ events: [Event]) throws -> Int {
    var total = 0
    for event in events {
        let encoded = EventCodec.encode(event)
        total &+= Int(try EventCodec.decode(encoded, recordedAt: event.recordedAt).recordedAt.millisecondsSinceEpoch & 1)
    }
    return total
}

let start = Date()
switch mode {
case "append":
    let batches = buildRecords()
    let appendStart = Date()
    try await appendAll(batches)
    let seconds = Date().timeIntervalSince(appendStart)
    FileHandle.standardError.write(Data("append only: \(seconds) s, \(Int(Double(count) / seconds)) events/s\n".utf8))
case "read", "scan":
    try await appendAll(buildRecords())
    print(try readAll(decode: mode == "read"))
case "verify":
    try await appendAll(buildRecords())
    let report = try JournalVerifier.verify(at: FilePath(directory))
    print(report.bytesVerified, report.isClean)
case "concurrent":
    // 64 tasks, one event per append, default `.synchronous` durability (group commit).
    let records = buildRecords().flatMap { $0 }
    let journal = try Journal.open(at: FilePath(directory))
    let perTask = records.count / 64
    try await withThrowingTaskGroup(of: Void.self) { group in
        for task in 0..<64 {
            let mine = Array(records[(task * perTask)..<((task + 1) * perTask)])
            group.addTask { for record in mine { try await journal.append([record]) } }
        }
        try await group.waitForAll()
    }
    try journal.close()
case "memory":
    // Resident memory each in-memory model adds after folding `count` events (issue 14). The
    // validation state is package-internal (Docs/Architecture.md, "Public surface"): it is
    // measured with the read models, as a replay of a ledger directory holds both, and the
    // read models alone after that.
    func megabytes() -> Double { Double(ProcessMemory.bytes("VmRSS") ?? 0) / 1_048_576 }
    try await appendLazily(at: LedgerDirectory(FilePath(directory)).journal)
    let base = megabytes()
    let replayed = try LedgerReplay.replay(at: FilePath(directory))
    let afterState = megabytes()
    print("LedgerReplay (validation state + read models): \(afterState - base) MB (\(replayed.lastSequenceNumber) events)")
    // The read models share one transaction book (Docs/Projections.md): measured together.
    var readModels = Projections()
    var sequence: UInt64 = 1
    for event in HouseholdHistory(count: count) { readModels.apply(event, sequenceNumber: sequence); sequence += 1 }
    print("Projections (the read models): \(megabytes() - afterState) MB")
    withExtendedLifetime((replayed, readModels)) {}
case "codec":
    print(try codecRoundTrip(Array(HouseholdHistory(count: count))))
default:
    print("usage: tally-profile append|read|scan|verify|concurrent|codec|memory [events] [directory]")
    exit(2)
}
try? FileManager.default.removeItem(atPath: directory)
FileHandle.standardError.write(Data("tally-profile \(mode) \(count): \(Date().timeIntervalSince(start)) s\n".utf8))
