import Crypto
import Foundation
import SystemPackage
import TallyStore
import TallyTestSupport
import Testing

/// The outbox is the only copy of the commands a device has not pushed (Docs/Sync.md, "The
/// outbox"): a WAL left by a crash is read back whole, and a damaged frame that committed
/// commands follow is refused, never taken for the end of the log.
@Suite("Sync outbox: a crashed WAL")
struct SyncOutboxStoreTests {
    let key = SymmetricKey(size: .bits256)

    /// An outbox with three commands appended (one synced commit each), its file and WAL copied
    /// into `copy` while it is open, as a crash (kill -9, power cut after the commits) leaves them.
    func crashedOutbox(in directory: TemporaryDirectory) throws -> String {
        let path = directory.appending("sync-outbox.sqlite").string
        let outbox = try SyncOutboxStore(path: path, key: key)
        for index in 1...3 { try outbox.append(commandID: "command-\(index)", body: Array("body \(index)".utf8)) }
        let copy = directory.appending("copy")
        try FileManager.default.createDirectory(atPath: copy.string, withIntermediateDirectories: true)
        let copied = copy.appending("sync-outbox.sqlite").string
        for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: path + suffix, toPath: copied + suffix) }
        outbox.close()
        return copied
    }

    @Test("Issue 32 (no data loss): an outbox WAL left by a crash reads back every command; with its first frame damaged and committed commands after it, the open is refused as damage naming the frame, and the WAL is kept")
    func damagedFrameBeforeCommittedCommandsIsRefused() throws {
        let directory = try TemporaryDirectory("tally-outbox-wal")
        defer { directory.remove() }
        let intact = try crashedOutbox(in: directory)
        let recovered = try SyncOutboxStore(path: intact, key: key, existingOnly: true)
        #expect(try recovered.pending().map(\.commandID) == ["command-1", "command-2", "command-3"])
        recovered.close()

        let damagedDirectory = try TemporaryDirectory("tally-outbox-wal-damaged")
        defer { damagedDirectory.remove() }
        let damaged = try crashedOutbox(in: damagedDirectory)
        var wal = try #require(FileManager.default.contents(atPath: damaged + "-wal").map { [UInt8]($0) })
        try #require(wal.count > 32 + 24 + 4_096 * 3)
        wal[32 + 24 + 1_000] ^= 0x01
        try Data(wal).write(to: URL(fileURLWithPath: damaged + "-wal"))
        do {
            let outbox = try SyncOutboxStore(path: damaged, key: key, existingOnly: true)
            let pending = try outbox.pending()
            outbox.close()
            Issue.record("a damaged outbox WAL was read as \(pending.map(\.commandID))")
        } catch {
            guard case .damaged(let path, let message) = error else {
                Issue.record("not reported as damage: \(error)")
                return
            }
            #expect(path == damaged)
            #expect(message.contains("walFrameDamaged") && message.contains("WAL frame 0"), "\(message)")
        }
        #expect(FileManager.default.contents(atPath: damaged + "-wal").map { [UInt8]($0) } == wal, "the WAL is kept as it was")
    }
}
