import BenchmarkSupport
import Foundation

extension ScaleChild {
    /// Writes at N events, on the built ledger: single commands, each followed by a raw 4 KiB
    /// append + fdatasync on a plain file in the same directory (the disk's floor); batches of
    /// 1000; then 64 concurrent tasks, each executing its commands one per call. Each phase
    /// starts once reads show the one before (``LedgerSubject/readable()``), so a phase never
    /// pays for the store catching up with the one before; the batched phase is also reported
    /// until reads show its last batch.
    static func writes(_ request: ChildRequest) async throws -> Figures {
        let subject = try await request.subject.open(in: request.directory)
        var workload = ScaleWorkload(seed: request.seed, phase: .writes, commandIndex: request.commands)
        let probe = try FdatasyncProbe(path: request.directory + "/fdatasync-probe")
        defer { probe.finish() }
        var commandLatency = LatencySamples()
        var syncLatency = LatencySamples()
        for _ in 0..<request.singleCommands {
            let command = workload.nextTransaction()
            let start = Stopwatch.now()
            try await subject.execute(command)
            commandLatency.record(since: start)
            let syncStart = Stopwatch.now()
            try probe.appendAndSync()
            syncLatency.record(since: syncStart)
        }
        await subject.readable()
        var batchNanoseconds: UInt64 = 0
        for _ in 0..<request.batches {
            let batch = workload.next(ScaleRun.batchCommands)
            let start = Stopwatch.now()
            try await subject.execute(batch: batch)
            batchNanoseconds += Stopwatch.now() - start
        }
        let catchUpStart = Stopwatch.now()
        await subject.readable()
        let catchUpNanoseconds = Stopwatch.now() - catchUpStart
        let perTask = (0..<ScaleRun.concurrentTasks).map { _ in workload.next(request.concurrentCommandsPerTask) }
        let concurrentStart = Stopwatch.now()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for commands in perTask {
                group.addTask {
                    for command in commands { try await subject.execute(command) }
                }
            }
            try await group.waitForAll()
        }
        let concurrentSeconds = Double(Stopwatch.now() - concurrentStart) / 1e9
        try await subject.close()
        let batchedCommands = Double(request.batches * ScaleRun.batchCommands)
        return [
            "singleP50Milliseconds": commandLatency.percentileMilliseconds(0.5),
            "singleP99Milliseconds": commandLatency.percentileMilliseconds(0.99),
            "fdatasyncP50Milliseconds": syncLatency.percentileMilliseconds(0.5),
            "batchedCommandsPerSecond": batchedCommands / (Double(batchNanoseconds) / 1e9),
            "batchedReadableCommandsPerSecond": batchedCommands / (Double(batchNanoseconds + catchUpNanoseconds) / 1e9),
            "concurrentCommandsPerSecond": Double(ScaleRun.concurrentTasks * request.concurrentCommandsPerTask) / concurrentSeconds,
        ]
    }
}

/// A plain file that grows by 4 KiB per `appendAndSync`, each followed by `fdatasync`: the
/// cost of one durable write on this disk.
final class FdatasyncProbe {
    private let descriptor: Int32
    private var offset: off_t = 0
    private let block = [UInt8](repeating: 0xA5, count: 4096)

    init(path: String) throws {
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw ScaleError.damaged("cannot create \(path): errno \(errno)") }
    }

    func appendAndSync() throws {
        let written = block.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, offset) }
        guard written == block.count, fdatasync(descriptor) == 0 else { throw ScaleError.damaged("probe write failed: errno \(errno)") }
        offset += off_t(written)
    }

    func finish() {
        close(descriptor)
    }
}
