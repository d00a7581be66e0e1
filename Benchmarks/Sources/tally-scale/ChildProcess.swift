import Foundation

/// Runs child processes: this executable for one measurement, or the `tally` CLI.
enum ChildProcess {
    /// This executable's path (`/proc/self/exe`), to re-invoke it.
    static func selfPath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments.first ?? "tally-scale"
    }

    /// Runs `request` in a fresh `tally-scale child` process and returns its figures.
    static func measure(_ request: ChildRequest) throws -> Figures {
        let encoded = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
        let output = try run(selfPath(), ["child", encoded], captureOutput: true)
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix(ChildRequest.figuresPrefix) }) else {
            throw ScaleError.child("\(request.role) \(request.subject): no figures in its output")
        }
        return try JSONDecoder().decode(Figures.self, from: Data(line.dropFirst(ChildRequest.figuresPrefix.count).utf8))
    }

    /// Runs `executable` and waits; stdout is returned when `captureOutput`, otherwise
    /// discarded. Throws when it exits non-zero.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], captureOutput: Bool) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = captureOutput ? pipe : FileHandle.nullDevice
        try process.run()
        let data = captureOutput ? pipe.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ScaleError.child("\(executable) \(arguments.first ?? "") exited with \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
