import Foundation
import SystemPackage
import TallyJournal
import TallyStore

/// How the read-side store compares with a store rebuilt from the journal alone.
public enum ReadSideStatus: Sendable, Hashable {
    /// The ledger has no store (or an empty one).
    case none
    /// Every table holds exactly the rows a rebuild from the journal through the store's
    /// sequence number writes. `behind` is how many events the journal holds beyond it (the
    /// next open catches them up).
    case matchesReplay(sequenceNumber: UInt64, behind: UInt64)
    /// The store differs from a rebuild (the reason names the tables), covers another journal,
    /// or covers more than the journal holds: never served, rebuilt at the next open.
    case differs(sequenceNumber: UInt64, reason: String)
    /// The store cannot be read: damaged, sealed with another key, or of another schema.
    case damaged(String)
    /// The comparison could not be made (the reason says why); nothing is known to be wrong.
    case notCompared(String)
}

/// `tally audit`'s check of the read side: the store is compared table by table, in one read
/// snapshot, with a scratch store rebuilt from a fold of the journal through the sequence
/// number the store covers. So an edited row, a damaged page or rows of another history are
/// found even where the page seal cannot tell (an unencrypted store's seal uses a public key).
enum ReadSideComparison {
    static func compare(
        directory: FilePath, encryption: JournalEncryption?, fileSystem: any FileSystem, reader: JournalReader,
        folded: FoldedState, personalTexts keys: PersonalKeyRing?
    ) -> ReadSideStatus {
        guard fileSystem.isOperatingSystemFileSystem else { return .notCompared("the ledger runs on an injected file system") }
        let path = ReadSide.storePath(in: directory)
        guard ReadSide.storeFiles(path).allSatisfy(LedgerDirectory.isRegularFileOrAbsent) else {
            return .damaged("\(path) is not a regular file")
        }
        guard let size = try? FileManager.default.attributesOfItem(atPath: path.string)[.size] as? Int, size > 0 else { return .none }
        let key = ReadSide.pageKey(encryption)
        let found: (coverage: StoreCoverage?, tables: [String: String])
        do throws(StoreError) {
            let live = try LedgerStore(path: path.string, key: key)
            defer { live.close() }
            found = try live.contentDigests()
        } catch {
            return error.isDamage ? .damaged(error.description) : .notCompared(error.description)
        }
        guard let coverage = found.coverage else { return .none }
        var reader = reader
        var keys = keys
        if coverage.sequenceNumber > reader.lastSequenceNumber,
           let (laterKeys, later) = try? LedgerReplay.openForReading(at: directory, encryption: encryption, fileSystem: fileSystem, allowingDamage: false) {
            // A writer moved on since the audit opened the journal: the store may be that far,
            // with people whose keys the key file gained since.
            reader = later
            keys = laterKeys
        }
        let last = reader.lastSequenceNumber
        guard coverage.sequenceNumber <= last else {
            return .differs(sequenceNumber: coverage.sequenceNumber, reason: "it covers sequence \(coverage.sequenceNumber), beyond the journal's last \(last): the journal lost events it showed, or the store is of another ledger")
        }
        guard ReadSide.journalPosition(reader, endingAt: coverage.sequenceNumber) == coverage else {
            return .differs(sequenceNumber: coverage.sequenceNumber, reason: "its chain value at sequence \(coverage.sequenceNumber) is not the journal's (another ledger, or a rewritten journal)")
        }
        let expected: StoreSnapshot
        if coverage.sequenceNumber == folded.state.nextSequenceNumber - 1 {
            expected = StoreSnapshot(folded.state, folded.readModels)
        } else {
            do throws(LedgerError) {
                let replayed = try LedgerReplay.fold(reader, from: FoldedState(), through: coverage.sequenceNumber, personalTexts: keys)
                expected = StoreSnapshot(replayed.state, replayed.readModels)
            } catch {
                return .notCompared("the journal could not be folded to the store's sequence \(coverage.sequenceNumber): \(error.message)")
            }
        }
        let scratchFolder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-audit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratchFolder) }
        let rebuilt: [String: String]
        do throws(StoreError) {
            do {
                try FileManager.default.createDirectory(at: scratchFolder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            } catch {
                throw .database(path: scratchFolder.path, message: "cannot create the scratch store's folder: \(error)")
            }
            let scratch = try LedgerStore.rebuild(
                at: scratchFolder.appendingPathComponent(LedgerDirectory.readSideStoreName).path, key: key, from: expected, coverage: coverage)
            defer { scratch.close() }
            rebuilt = try scratch.contentDigests().tables
        } catch {
            return .notCompared("the scratch store could not be built: \(error)")
        }
        let differing = rebuilt.keys.filter { found.tables[$0] != rebuilt[$0] }.sorted()
        guard differing.isEmpty else {
            return .differs(sequenceNumber: coverage.sequenceNumber, reason: "table(s) \(differing.joined(separator: ", ")) hold rows a rebuild from the journal does not")
        }
        return .matchesReplay(sequenceNumber: coverage.sequenceNumber, behind: last - coverage.sequenceNumber)
    }
}
