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

/// `tally audit`'s check of the read side: the store's tables, digested in one read snapshot
/// before the journal is opened (a store commits only what the journal already holds), are
/// compared with those of the scratch store the audit's one fold of the journal writes, when
/// that fold reaches the sequence number the store covers. So an edited row, a damaged page or
/// rows of another history are found even where the page seal cannot tell (an unencrypted
/// store's seal uses a public key).
enum ReadSideComparison {
    /// What the audit knows of the live store before it folds the journal.
    enum Live {
        /// Its coverage and its tables' digests, to compare with the scratch store there.
        case compare(StoreCoverage, tables: [String: String])
        /// Nothing to compare: the status is known already.
        case settled(ReadSideStatus)
    }

    /// The ledger's store in `directory`, digested table by table in one read snapshot.
    static func live(directory: FilePath, encryption: JournalEncryption?, fileSystem: any FileSystem) -> Live {
        guard fileSystem.isOperatingSystemFileSystem else { return .settled(.notCompared("the ledger runs on an injected file system")) }
        let path = ReadSide.storePath(in: directory)
        guard ReadSide.storeFiles(path).allSatisfy(LedgerDirectory.isRegularFileOrAbsent) else {
            return .settled(.damaged("\(path) is not a regular file"))
        }
        guard LedgerDirectory.holdsDatabase(path) else { return .settled(.none) }
        do throws(StoreError) {
            let live = try LedgerStore(path: path.string, key: ReadSide.pageKey(encryption))
            defer { live.close() }
            let found = try live.contentDigests()
            guard let coverage = found.coverage else { return .settled(.none) }
            return .compare(coverage, tables: found.tables)
        } catch {
            return .settled(error.isDamage ? .damaged(error.description) : .notCompared(error.description))
        }
    }

    /// What the store's coverage tells before any fold: nil when the journal has a frame ending
    /// at the store's sequence number with its chain value (the fold then compares there).
    static func check(_ coverage: StoreCoverage, against reader: JournalReader) -> ReadSideStatus? {
        let last = reader.lastSequenceNumber
        guard coverage.sequenceNumber <= last else {
            return .differs(sequenceNumber: coverage.sequenceNumber, reason: "it covers sequence \(coverage.sequenceNumber), beyond the journal's last \(last): the journal lost events it showed, or the store is of another ledger")
        }
        guard ReadSide.journalPosition(reader, endingAt: coverage.sequenceNumber) == coverage else {
            return .differs(sequenceNumber: coverage.sequenceNumber, reason: "its chain value at sequence \(coverage.sequenceNumber) is not the journal's (another ledger, or a rewritten journal)")
        }
        return nil
    }

    /// The live store's `tables` (covering `coverage`) against `scratch`, which the fold of the
    /// journal has just committed through the same sequence number; `last` is the journal's.
    static func compare(_ tables: [String: String], coverage: StoreCoverage, with scratch: LedgerStore, journalLast last: UInt64) -> ReadSideStatus {
        let rebuilt: [String: String]
        do throws(StoreError) {
            rebuilt = try scratch.contentDigests().tables
        } catch {
            return .notCompared("the scratch store could not be read: \(error)")
        }
        let differing = rebuilt.keys.filter { tables[$0] != rebuilt[$0] }.sorted()
        guard differing.isEmpty else {
            return .differs(sequenceNumber: coverage.sequenceNumber, reason: "table(s) \(differing.joined(separator: ", ")) differ from a rebuild from the journal")
        }
        return .matchesReplay(sequenceNumber: coverage.sequenceNumber, behind: last - coverage.sequenceNumber)
    }
}
