import BenchmarkSupport
import Foundation
import TallyWorkload

/// A JSON Lines file: one `JSONEncoder` line per event DTO, one `write` and one `fdatasync`
/// per batch. No checksums, so no verification.
@MainActor
final class JSONLinesPeer: StoragePeer {
    let name = "JSON Lines"
    let path: String
    private var descriptor: Int32
    private let encoder = JSONEncoder()
    private var buffer: [UInt8] = []

    init(path: String) throws {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw PeerError.system("open \(path)", errno) }
        // The new file's directory entry must be durable too, as Tally does for a segment.
        try syncDirectory(of: path)
    }

    func append(_ batch: PreparedBatch) async throws {
        buffer.removeAll(keepingCapacity: true)
        for json in batch.json {
            buffer.append(contentsOf: try encoder.encode(json))
            buffer.append(0x0A)
        }
        try writeAll(descriptor, buffer, path: path)
        guard fdatasync(descriptor) == 0 else { throw PeerError.system("fdatasync \(path)", errno) }
    }

    func finishWriting() throws {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    func diskBytes() -> Int64 { DiskUsage.bytes(at: path) }

    func scanAndDecode() throws -> Int {
        let decoder = JSONDecoder()
        let input = open(path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw PeerError.system("open \(path)", errno) }
        defer { close(input) }
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var count = 0
        while true {
            let read = chunk.withUnsafeMutableBytes { Foundation.read(input, $0.baseAddress, $0.count) }
            guard read >= 0 else { throw PeerError.system("read \(path)", errno) }
            if read == 0 { break }
            pending.append(contentsOf: chunk[..<read])
            var lineStart = 0
            while let newline = pending[lineStart...].firstIndex(of: 0x0A) {
                let event = try decoder.decode(EventJSON.self, from: Data(pending[lineStart..<newline]))
                precondition(!event.commandID.isEmpty)
                count += 1
                lineStart = newline + 1
            }
            pending.removeFirst(lineStart)
        }
        return count
    }

    func verify() throws -> Int64? { nil }
}

enum PeerError: Error, CustomStringConvertible {
    case system(String, Int32)

    var description: String {
        switch self {
        case .system(let operation, let code): "\(operation): \(String(cString: strerror(code)))"
        }
    }
}

/// Writes all of `bytes` at the descriptor's position.
func writeAll(_ descriptor: Int32, _ bytes: [UInt8], path: String) throws {
    try bytes.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
            let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw PeerError.system("write \(path)", errno) }
            offset += written
        }
    }
}

/// fsyncs the directory that holds `path`.
func syncDirectory(of path: String) throws {
    let directory = (path as NSString).deletingLastPathComponent
    let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { throw PeerError.system("open \(directory)", errno) }
    defer { close(descriptor) }
    guard fsync(descriptor) == 0 else { throw PeerError.system("fsync \(directory)", errno) }
}

/// The machine's floor for one durable append: append 4 KiB to a plain file, then fdatasync.
final class RawSyncProbe {
    let path: String
    private let descriptor: Int32
    private let block = [UInt8](repeating: 0x5A, count: 4096)

    init(path: String) throws {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw PeerError.system("open \(path)", errno) }
    }

    func appendAndSync() throws {
        try writeAll(descriptor, block, path: path)
        guard fdatasync(descriptor) == 0 else { throw PeerError.system("fdatasync \(path)", errno) }
    }

    deinit { close(descriptor) }
}
