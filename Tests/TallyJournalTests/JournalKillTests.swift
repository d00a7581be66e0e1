import Foundation
import SystemPackage
import TallyJournal
import TallyTestSupport
import Testing

@Suite("Journal kill -9")
struct JournalKillTests {
    /// The crash writer built beside the test bundle.
    static func writerExecutable() throws -> URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("JournalCrashWriter")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        throw JournalError.invalidOptions("JournalCrashWriter was not built next to the tests")
    }

    @Test("a writer killed with SIGKILL at random moments never loses an acknowledged record and leaves no gaps")
    func killNineRepeatedly() async throws {
        let executable = try Self.writerExecutable()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("journal")
        var random = SeededRandom(seed: 9)
        var acknowledged: UInt64 = 0
        for round in 0..<12 {
            let process = Process()
            process.executableURL = executable
            process.arguments = [path.string, String(round)]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            try await Task.sleep(for: .milliseconds(Int.random(in: 30...250, using: &random)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(!text.contains("ERROR"), "round \(round): \(text.suffix(200))")
            for line in text.split(separator: "\n") where line.hasPrefix("ACK ") {
                acknowledged = max(acknowledged, UInt64(line.dropFirst(4)) ?? 0)
            }
            let journal = try Journal.open(at: path)
            #expect(journal.lastSequenceNumber >= acknowledged, "round \(round): acknowledged \(acknowledged) lost")
            let records = try journal.reader().records()
            for (index, record) in records.enumerated() {
                #expect(record.sequenceNumber == UInt64(index + 1))
                #expect(Array(record.payload) == Self.payload(for: record.sequenceNumber), "round \(round) sequence \(record.sequenceNumber)")
            }
            try journal.close()
        }
        #expect(acknowledged > 0)
        let report = try JournalVerifier.verify(at: path)
        #expect(report.isClean, "\(report.problems)")
    }

    /// Mirrors JournalCrashWriterPayload.
    static func payload(for sequence: UInt64) -> [UInt8] {
        let length = Int(sequence % 97)
        return (0..<length).map { UInt8(truncatingIfNeeded: sequence &* 31 &+ UInt64($0)) }
    }
}
