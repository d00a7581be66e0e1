import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Running `tally` with stdout on something that fails: `/dev/full`, or a pipe whose reader
/// goes away.
extension TallyRunner {
    /// How a run with a failing stdout ended.
    struct FailedOutputResult {
        /// The exit code, or the signal number when `signaled`.
        var status: Int32
        /// True when the process died of a signal (a trap is SIGILL or SIGTRAP, a closed pipe
        /// SIGPIPE) instead of exiting.
        var signaled: Bool
        var stdoutLines: [String] = []
        var stderr: String
    }

    /// A run that takes longer than this is killed and reported as a failure.
    static let failedOutputRunSecondsMax: TimeInterval = 300

    /// Runs `tally` with stdout on `/dev/full` (every write fails with ENOSPC).
    static func runIntoFullDevice(_ arguments: [String], stdin: String? = nil) throws -> FailedOutputResult {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        process.currentDirectoryURL = repositoryRoot
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        process.standardOutput = full
        let errors = try StderrFile()
        process.standardError = errors.handle
        try feed(stdin, to: process)
        try process.run()
        try full.close()
        try wait(for: process, arguments: arguments)
        return FailedOutputResult(
            status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
            stderr: try errors.text())
    }

    /// Runs `tally` with stdout on a pipe (shrunk to one page, so that the output cannot all
    /// fit into it) that the reader closes after the first line, like `tally ... | head -1`.
    static func runIntoPipeClosedAfterFirstLine(_ arguments: [String]) throws -> FailedOutputResult {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        process.currentDirectoryURL = repositoryRoot
        let output = Pipe()
        #if os(Linux)
        _ = fcntl(output.fileHandleForWriting.fileDescriptor, 1031 /* F_SETPIPE_SZ */, 4096)
        #endif
        let errors = try StderrFile()
        process.standardOutput = output
        process.standardError = errors.handle
        try process.run()
        try output.fileHandleForWriting.close()
        var firstLine: [UInt8] = []
        var byte: UInt8 = 0
        while firstLine.last != UInt8(ascii: "\n"), read(output.fileHandleForReading.fileDescriptor, &byte, 1) == 1 {
            firstLine.append(byte)
        }
        try output.fileHandleForReading.close()
        try wait(for: process, arguments: arguments)
        return FailedOutputResult(
            status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
            stdoutLines: [String(decoding: firstLine, as: UTF8.self)], stderr: try errors.text())
    }

    /// Stderr of the child as a temporary file, so that waiting with a deadline never blocks on
    /// a pipe.
    private struct StderrFile {
        let path = temporaryDirectory() + "/stderr"
        let handle: FileHandle

        init() throws {
            try #require(FileManager.default.createFile(atPath: path, contents: nil))
            handle = try #require(FileHandle(forWritingAtPath: path))
        }

        func text() throws -> String {
            try handle.close()
            return String(decoding: try #require(FileManager.default.contents(atPath: path)), as: UTF8.self)
        }
    }

    /// Waits for `process`, killing it after ``failedOutputRunSecondsMax``.
    private static func wait(for process: Process, arguments: [String]) throws {
        let deadline = Date().addingTimeInterval(failedOutputRunSecondsMax)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            Issue.record("tally \(arguments.joined(separator: " ")) did not finish within \(failedOutputRunSecondsMax) s")
        }
        process.waitUntilExit()
    }
}
