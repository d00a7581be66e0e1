#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage
import TallyJournal

/// `@unchecked Sendable`: immutable fields; all access goes through the file system's mutex.
final class FaultFile: JournalFile, @unchecked Sendable {
    let fileSystem: FaultInjectingFileSystem
    let nodeID: Int
    let generation: Int
    let writable: Bool
    /// The simulated process that opened the file (nil: opened on the file system directly).
    let process: Int?
    /// The path it was opened or created at (a fault may be aimed at paths holding a name).
    let path: String

    init(fileSystem: FaultInjectingFileSystem, nodeID: Int, generation: Int, writable: Bool, process: Int?, path: String) {
        self.path = path
        self.fileSystem = fileSystem
        self.nodeID = nodeID
        self.generation = generation
        self.writable = writable
        self.process = process
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(Errno) -> Int {
        try fileSystem.withNode(self, mutating: false) { state, node throws(Errno) in
            state.reads[path, default: (0, 0)].count += 1
            if let fault = state.failNextRead {
                state.failNextRead = nil
                throw fault.errno
            }
            guard offset >= 0 else { throw .invalidArgument }
            let start = min(Int(offset), node.live.count)
            let count = min(buffer.count, node.live.count - start)
            node.live.withUnsafeBytes { bytes in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count)]))
            }
            state.reads[path, default: (0, 0)].bytes += count
            return count
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(Errno) {
        try fileSystem.withNode(self) { state, node throws(Errno) in
            guard writable else { throw .badFileDescriptor }
            state.fileWriteCount += 1
            if let fault = state.failNextWrite {
                state.failNextWrite = nil
                throw fault.errno
            }
            if let (name, fault) = state.failNextWriteToPath, path.contains(name) {
                state.failNextWriteToPath = nil
                throw fault.errno
            }
            if let remaining = state.writesUntilFailure {
                if remaining <= 0 {
                    state.writesUntilFailure = nil
                    throw state.writeFault.errno
                }
                state.writesUntilFailure = remaining - 1
            }
            var toWrite = Array(bytes)
            var failure: Errno?
            if let capacity = state.capacityBytes {
                let used = state.nodes.filter { $0.key != nodeID }.values.reduce(0) { $0 + $1.live.count }
                let room = max(0, capacity - used - Int(offset))
                if toWrite.count > room {
                    toWrite.removeSubrange(room...)
                    failure = .noSpace
                }
            }
            let start = Int(offset)
            if node.live.count < start { node.live += [UInt8](repeating: 0, count: start - node.live.count) }
            let overlap = min(toWrite.count, node.live.count - start)
            node.live.replaceSubrange(start..<(start + overlap), with: toWrite[0..<overlap])
            node.live += toWrite[overlap...]
            if let failure { throw failure }
        }
    }

    func size() throws(Errno) -> Int64 {
        try fileSystem.withNode(self, mutating: false) { _, node throws(Errno) in Int64(node.live.count) }
    }

    func truncate(to size: Int64) throws(Errno) {
        try fileSystem.withNode(self) { state, node throws(Errno) in
            if let fault = state.failNextTruncate {
                state.failNextTruncate = nil
                throw fault.errno
            }
            let size = Int(size)
            if size < node.live.count {
                node.live.removeSubrange(size...)
            } else {
                node.live += [UInt8](repeating: 0, count: size - node.live.count)
            }
        }
    }

    func synchronizeData() throws(Errno) { try sync() }

    func synchronize() throws(Errno) { try sync() }

    private func sync() throws(Errno) {
        // Blocking waits, as a real flush blocks its thread.
        if let latency = fileSystem.state.withLock({ $0.fileSyncLatency }) {
            Self.sleep(nanoseconds: latency.components.seconds * 1_000_000_000 + latency.components.attoseconds / 1_000_000_000)
        }
        var heldNanoseconds: Int64 = 0
        while fileSystem.state.withLock({ $0.fileSyncsHeld }), heldNanoseconds < 10_000_000_000 {
            Self.sleep(nanoseconds: 1_000_000)
            heldNanoseconds += 1_000_000
        }
        try fileSystem.withNode(self) { state, node throws(Errno) in
            state.fileSyncCount += 1
            if let fault = state.takeSyncFault() { throw fault.errno }
            node.durable = node.live
        }
    }

    private static func sleep(nanoseconds: Int64) {
        var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        _ = nanosleep(&request, nil)
    }
}
