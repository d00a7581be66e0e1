import Foundation
import TallyTestSupport
import Testing

/// Runs the built `tally` binary (found next to the test bundle) and snapshots its output.
struct TallyRunner {
    /// Gives `process` `stdin` on a pipe (written and closed before it runs), if any.
    static func feed(_ stdin: String?, to process: Process) throws {
        guard let stdin else { return }
        let input = Pipe()
        process.standardInput = input
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let repositoryRoot = RepositoryFiles.root
    static let household = RepositoryFiles.householdExample.path

    static func executable(_ name: String = "tally") throws -> URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "\(name) was not built next to the tests"])
    }

    /// Runs the built executable `name` with `arguments` in `workingDirectory` (default: the
    /// repository root) and collects its exit status and output.
    @discardableResult
    static func run(
        _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:], executable name: String = "tally",
        workingDirectory: String? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = try executable(name)
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.currentDirectoryURL = workingDirectory.map { URL(fileURLWithPath: $0) } ?? repositoryRoot
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try feed(stdin, to: process)
        try process.run()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }

    /// A new temporary directory.
    static func temporaryDirectory() -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tally-cli-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// A backup key file (64 hex digits) in `directory`, for `--backup-key-file`.
    static func backupKeyFile(in directory: String) throws -> String {
        let path = directory + "/backup.key"
        try (String(repeating: "5a", count: 32) + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A ledger holding Sources/TallyCLI/Demo/household.jsonl.
    static func householdLedger() throws -> String {
        let directory = temporaryDirectory() + "/ledger"
        let result = try run(["apply", "--ledger", directory, household])
        #expect(result.status == 0, "\(result.stderr)")
        return directory
    }

    /// Flips a byte in the middle of the first segment file.
    static func damage(_ ledger: String) throws {
        let journal = ledger + "/journal"
        let segment = try #require(try FileManager.default.contentsOfDirectory(atPath: journal).filter { $0.hasSuffix(".segment") }.sorted().first)
        let path = journal + "/" + segment
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[bytes.count / 2] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// Compares `text` with `Snapshots/<name>.txt`; records it only with TALLY_RECORD_SNAPSHOTS=1.
    ///
    /// Byte counts are masked as `<N>`: names and notes are sealed with random per-person keys
    /// (P1), so a fresh ledger's compressed sizes differ by a few bytes from run to run.
    static func assertSnapshot(_ text: String, named name: String, replacing ledger: String? = nil) throws {
        var normalized = text
        if let ledger { normalized = normalized.replacingOccurrences(of: ledger, with: "<LEDGER>") }
        for pattern in [#"\d+ bytes"#, #"bytes on disk: \d+"#, #"\d+ stored \(\d+%"#] {
            normalized = normalized.replacingOccurrences(of: pattern, with: "<N>", options: .regularExpression)
        }
        let url = repositoryRoot.appendingPathComponent("Tests/TallyCLITests/Snapshots/\(name).txt")
        if ProcessInfo.processInfo.environment["TALLY_RECORD_SNAPSHOTS"] == "1" {
            try Data(normalized.utf8).write(to: url)
            return
        }
        guard let recorded = FileManager.default.contents(atPath: url.path) else {
            Issue.record("missing snapshot \(url.path); record it with TALLY_RECORD_SNAPSHOTS=1")
            return
        }
        #expect(String(decoding: recorded, as: UTF8.self) == normalized, "snapshot \(name) differs")
    }

    static func jsonObject(_ line: Substring) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
}
