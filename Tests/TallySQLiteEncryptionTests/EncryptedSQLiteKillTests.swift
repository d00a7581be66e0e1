import Crypto
import Foundation
import GRDB
import Testing
import TallySQLiteEncryption

/// A real crash, not a copy: a writer process killed with SIGKILL at random moments leaves a
/// WAL whose rebuild must take a torn end for the end of the log (never `walFrameDamaged`) and
/// keep every committed transaction.
@Suite("Encrypted SQLite kill -9")
struct EncryptedSQLiteKillTests {
    /// The crash writer built beside the test bundle.
    static func writerExecutable() throws -> URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("SQLiteCrashWriter")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        throw EncryptedSQLiteError(code: .vfsUnavailable, path: directory.path, message: "SQLiteCrashWriter was not built next to the tests")
    }

    @Test("a writer killed with SIGKILL at random moments (large transactions spilling pages, WAL restarts): every reopen rebuilds the WAL without walFrameDamaged, every acknowledged row is there, every row's bytes check out")
    func killNineRepeatedly() async throws {
        let executable = try Self.writerExecutable()
        let fixture = try EncryptedSQLiteFixture()
        defer { fixture.remove() }
        let keyBytes = (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let key = SymmetricKey(data: keyBytes)
        let keyHex = keyBytes.map { String(format: "%02x", $0) }.joined()
        var acknowledged: Int64 = 0
        var walsRebuilt = 0
        for round in 0..<16 {
            let process = Process()
            process.executableURL = executable
            process.arguments = [fixture.databasePath, keyHex, String(round)]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            // From the first commits to well past several WAL restarts.
            try await Task.sleep(for: .milliseconds(40 + (round * 97) % 400))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(!text.contains("ERROR"), "round \(round): \(text.suffix(300))")
            for line in text.split(separator: "\n") where line.hasPrefix("ACK ") {
                acknowledged = max(acknowledged, Int64(line.dropFirst(4)) ?? 0)
            }
            if FileManager.default.fileExists(atPath: fixture.databasePath + "-wal") { walsRebuilt += 1 }
            do {
                let pool = try EncryptedSQLite.openPool(atPath: fixture.databasePath, key: key)
                let rows = try await pool.read { db in
                    try Row.fetchAll(db, sql: "SELECT id, payload, digest FROM rows ORDER BY id")
                }
                #expect(Int64(rows.count) >= acknowledged, "round \(round): \(acknowledged) acknowledged, \(rows.count) rows")
                for (index, row) in rows.enumerated() {
                    let id: Int64 = row[0], payload: Data = row[1], digest: Data = row[2]
                    #expect(id == Int64(index + 1), "round \(round): ids without a gap")
                    #expect(Data(SHA256.hash(data: payload)) == digest, "round \(round): row \(id)")
                }
                let integrity = try await pool.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") }
                #expect(integrity == "ok", "round \(round)")
                try pool.close()
            } catch {
                Issue.record("round \(round): the crashed database does not reopen: \(EncryptedSQLite.typedError(for: error, databasePath: fixture.databasePath).map { "\($0)" } ?? "\(error)")")
                return
            }
        }
        #expect(acknowledged > 0)
        #expect(walsRebuilt > 10, "most kills leave a WAL for the reopen to rebuild (\(walsRebuilt) of 16)")
    }
}
