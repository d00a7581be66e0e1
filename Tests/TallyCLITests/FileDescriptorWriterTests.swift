import Foundation
import Testing
@testable import TallyCLI
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `FileDescriptorWriter`: the one writer of stdout and stderr, driven by a scripted `write(2)`.
@Suite("FileDescriptorWriter")
struct FileDescriptorWriterTests {
    /// A scripted `write(2)`: each call takes the next step; bytes "written" are collected.
    final class ScriptedWrite: @unchecked Sendable {
        // @unchecked: every field is read and written under `lock`.
        enum Step { case accept(Int), fail(Int32), acceptNothing }
        private let lock = NSLock()
        private var steps: [Step]
        private var collected: [UInt8] = []
        private var callCount = 0

        init(_ steps: [Step]) { self.steps = steps }

        var bytes: [UInt8] { lock.withLock { collected } }
        var calls: Int { lock.withLock { callCount } }

        /// Steps past the script accept everything.
        func write(_ fileDescriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> (count: Int, errorNumber: Int32) {
            lock.withLock {
                callCount += 1
                let step = steps.isEmpty ? .accept(buffer.count) : steps.removeFirst()
                switch step {
                case .accept(let count):
                    let taken = min(count, buffer.count)
                    collected.append(contentsOf: buffer.prefix(taken))
                    return (taken, 0)
                case .fail(let errorNumber):
                    return (-1, errorNumber)
                case .acceptNothing:
                    return (0, 0)
                }
            }
        }

        func writer() -> FileDescriptorWriter {
            FileDescriptorWriter(fileDescriptor: 99, stream: .stdout) { self.write($0, $1) }
        }
    }

    static let text = Array("{\"line\":1,\"status\":\"ok\"}\n".utf8)

    @Test("short writes continue with the rest until every byte is written, in order")
    func shortWritesAreCompleted() throws {
        let script = ScriptedWrite([.accept(1), .accept(3), .accept(2), .accept(7)])
        try script.writer().write(Self.text)
        #expect(script.bytes == Self.text)
        #expect(script.calls == 5)
    }

    @Test("EINTR is retried with the same bytes")
    func interruptedWritesAreRetried() throws {
        let script = ScriptedWrite([.fail(EINTR), .accept(4), .fail(EINTR), .fail(EINTR)])
        try script.writer().write(Self.text)
        #expect(script.bytes == Self.text)
        #expect(script.calls == 5)
    }

    @Test("EPIPE, ENOSPC and EIO throw OutputError with the stream, errno and bytes already written, and stop writing")
    func failuresThrowTypedErrors() throws {
        for (errorNumber, code) in [(EPIPE, "EPIPE"), (ENOSPC, "ENOSPC"), (EIO, "EIO")] {
            let script = ScriptedWrite([.accept(5), .fail(errorNumber)])
            #expect(throws: OutputError(stream: .stdout, errorNumber: errorNumber, bytesWritten: 5)) {
                try script.writer().write(Self.text)
            }
            #expect(script.bytes == Array(Self.text.prefix(5)))
            #expect(script.calls == 2)
            #expect(OutputError(stream: .stdout, errorNumber: errorNumber, bytesWritten: 5).code == code)
        }
    }

    @Test("a write(2) that keeps accepting nothing is EIO after zeroWritesInARowMax calls, not an endless loop")
    func endlessZeroWritesAreEIO() throws {
        let script = ScriptedWrite(Array(repeating: .acceptNothing, count: 100))
        #expect(throws: OutputError(stream: .stdout, errorNumber: EIO, bytesWritten: 0)) {
            try script.writer().write(Self.text)
        }
        #expect(script.calls == FileDescriptorWriter.zeroWritesInARowMax)
    }

    @Test("the real write(2) on /dev/full throws ENOSPC naming the stream")
    func fullDeviceIsENOSPC() throws {
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        defer { try? full.close() }
        let writer = FileDescriptorWriter(fileDescriptor: full.fileDescriptor, stream: .stderr)
        #expect(throws: OutputError(stream: .stderr, errorNumber: ENOSPC, bytesWritten: 0)) {
            try writer.write(Self.text)
        }
        #expect(OutputError(stream: .stderr, errorNumber: ENOSPC, bytesWritten: 0).description
            == "stderr: write failed: No space left on device (ENOSPC)")
    }

    @Test("a lost output of a writing subcommand is exit 3 naming the stream, the errno, the lines written and what was done")
    func outputLostMessageNamesWhatWasDone() throws {
        let results = ResultLines()
        #expect(throws: Never.self) { try results.requireDelivered(outcome: "unused") }
        let lost = CLIError.outputLost(OutputError(stream: .stdout, errorNumber: EPIPE, bytesWritten: 0), linesWritten: 1, outcome: "all 3 commands were applied")
        #expect(lost.exitCode == 3)
        #expect(lost.message == "stdout: write failed: Broken pipe (EPIPE) after 1 result line; all 3 commands were applied")
    }
}
