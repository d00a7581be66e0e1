import Foundation
import Testing

/// A `tally serve` process for the CLI tests, on the throwaway PostgreSQL that
/// `Scripts/postgres run` starts (`TALLY_TEST_POSTGRES_SOCKET`).
struct ServeProcess {
    let process: Process
    /// `http://127.0.0.1:PORT`.
    let url: String
    /// The PostgreSQL options every `tally serve` subcommand takes.
    let postgres: [String]

    struct NotConfigured: Error, CustomStringConvertible {
        var description: String {
            "TALLY_TEST_POSTGRES_SOCKET is not set: tally serve needs a PostgreSQL server. Run the tests with Scripts/postgres run (the README's test command)"
        }
    }

    /// Starts `tally serve` on any free port with its cache in a new folder and waits until it
    /// listens.
    static func start() throws -> ServeProcess {
        guard let socket = ProcessInfo.processInfo.environment["TALLY_TEST_POSTGRES_SOCKET"], !socket.isEmpty else {
            throw NotConfigured()
        }
        let postgres = ["--postgres-socket", socket]
        let process = Process()
        process.executableURL = try TallyRunner.executable()
        process.arguments = ["serve"] + postgres + ["--cache", TallyRunner.temporaryDirectory(), "--port", "0"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var seen = ""
        while true {
            let data = errors.fileHandleForReading.availableData
            guard !data.isEmpty else {
                throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "tally serve ended before it listened: \(seen)"])
            }
            seen += String(decoding: data, as: UTF8.self)
            // `tally serve: listening on http://127.0.0.1:PORT` (after the server's own log line).
            if let range = seen.range(of: "tally serve: listening on "), let end = seen[range.upperBound...].firstIndex(of: "\n") {
                // Keep reading what it logs, so that a full pipe never blocks it.
                errors.fileHandleForReading.readabilityHandler = { handle in _ = handle.availableData }
                return ServeProcess(process: process, url: String(seen[range.upperBound..<end]), postgres: postgres)
            }
        }
    }

    /// A new household on the server and a token file for each of `people` in `directory`.
    func household(people: [String], in directory: String) throws -> (household: String, tokens: [String]) {
        let created = try TallyRunner.run(["serve", "household"] + postgres)
        #expect(created.status == 0, "\(created.stderr)")
        let household = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        var tokens: [String] = []
        for (index, person) in people.enumerated() {
            let device = try TallyRunner.run(["serve", "device"] + postgres + ["--household", household, "--person", person])
            #expect(device.status == 0, "\(device.stderr)")
            let path = directory + "/device-\(index).token"
            try device.stdout.write(toFile: path, atomically: true, encoding: .utf8)
            tokens.append(path)
        }
        return (household, tokens)
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
