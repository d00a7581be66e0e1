import Crypto
import Foundation
import SystemPackage
import TallyJournal
import TallyModel
import TallyProjections
import TallyStore

/// A full audit of a ledger directory: the journal's frames, checksums, hash chain and
/// sequence continuity; every event decodable; the domain invariants (shares sum to their
/// amounts, S3/S7; group balances sum to zero, S8; every event applicable to the read models);
/// the newest checkpoint and the read-side store equal to what one fold of the journal alone
/// gives at their sequence numbers. The fold streams (`StoreRebuild`, as `tally rebuild`): memory does not grow
/// with the history.
public enum LedgerAudit {
    /// Audits the ledger in `directory` without the writer lock.
    ///
    /// - Parameters:
    ///   - directory: the ledger directory (the one `Ledger.open(at:options:)` takes).
    ///   - chainKey: the HMAC key of a keyed chain.
    ///   - encryption: keys of an encrypted journal; without them encrypted frames are checked
    ///     by CRC and chain only and events cannot be decoded (reported).
    ///   - fileSystem: the file system to read through (tests inject faults here).
    ///   - progress: bytes of journal verified so far.
    /// - Returns: a report of every problem with its location.
    /// - Throws: only when the audit cannot run: `LedgerError.storage(.journalNotFound)`,
    ///   I/O failures, what settling an interrupted restore or reset throws (it runs first,
    ///   ``Ledger/recoverInterruptedSwap(at:fileSystem:)``), ``LedgerError/readSide(_:)`` when
    ///   its scratch folder in the temporary directory cannot be created or written.
    public static func audit(
        at directory: FilePath, chainKey: [UInt8]? = nil, encryption: JournalEncryption? = nil,
        fileSystem: any FileSystem = PosixFileSystem(), progress: (@Sendable (Int64) -> Void)? = nil
    ) throws(LedgerError) -> AuditReport {
        try audit(at: directory, chainKey: chainKey, encryption: encryption, fileSystem: fileSystem, progress: progress, window: StoreRebuild.windowEvents)
    }

    /// ``audit(at:chainKey:encryption:fileSystem:progress:)`` with the fold's history written
    /// to its scratch store's history every `window` events (tests take a few).
    static func audit(
        at directory: FilePath, chainKey: [UInt8]?, encryption: JournalEncryption?,
        fileSystem: any FileSystem, progress: (@Sendable (Int64) -> Void)?, window: Int
    ) throws(LedgerError) -> AuditReport {
        _ = try LedgerSwap.recover(LedgerDirectory(directory), fileSystem: fileSystem)
        let journalPath = LedgerDirectory(directory).journal
        let verification: VerificationReport
        do {
            verification = try JournalVerifier.verify(
                at: journalPath, chainKey: chainKey, encryption: encryption, fileSystem: fileSystem,
                progress: progress.map { report in { report($0) } })
        } catch {
            throw .storage(error)
        }
        var report = AuditReport(journal: verification)
        report.problems = verification.problems.map {
            AuditProblem(code: $0.kind.rawValue, location: $0.location, message: $0.detail)
        }
        var keys: PersonalKeyRing?
        do {
            keys = try PersonalKeyRing.load(ledgerDirectory: directory, fileSystem: fileSystem, encryption: encryption, readOnly: true)
        } catch {
            report.problems.append(AuditProblem(
                code: "personalKeysUnreadable", location: nil,
                message: "\(error.message); personal texts are checked as redacted"))
        }
        if fileSystem.isOperatingSystemFileSystem { report.problems += LedgerPermissions.problems(in: directory) }
        report.problems += syncOutboxProblems(in: directory, encryption: encryption, fileSystem: fileSystem)
        // What the fold is compared with is read before the journal is opened: a store commits,
        // and a checkpoint is written, only what the journal holds already.
        let live = ReadSideComparison.live(directory: directory, encryption: encryption, fileSystem: fileSystem)
        let reader: JournalReader
        let evidence: JournalEvidence?
        do {
            // The verifier listed the damage; the prefix before it is still folded and checked,
            // and a journal shorter than the checkpoint or key store prove is a problem too.
            evidence = LedgerEvidence.gather(directory: directory, encryption: encryption, fileSystem: fileSystem, keys: keys)
            reader = try JournalReader.open(
                at: journalPath, fileSystem: fileSystem, encryption: encryption, evidence: evidence, allowingDamage: true)
        } catch {
            report.problems.append(AuditProblem(code: error.code, location: nil, message: "\(error)"))
            return report
        }
        for missing in reader.recoveryReport.problems where missing.kind == .missingRecords {
            report.problems.append(AuditProblem(code: missing.kind.rawValue, location: missing.location, message: missing.detail))
        }
        // The key file as of now, read after the journal (a key is on disk before the event that
        // uses it): a writer beside the audit adds people the first read lacks.
        // A person forgotten meanwhile has a store or checkpoint from before that holds their
        // texts readable, which a fold without their key cannot give: not compared then.
        var forgottenMeanwhile: Set<PersonID> = []
        if let first = keys, let later = try? PersonalKeyRing.load(ledgerDirectory: directory, fileSystem: fileSystem, encryption: encryption, readOnly: true) {
            forgottenMeanwhile = later.forgotten.subtracting(first.forgotten)
            keys = later
        }
        try foldComparing(
            reader, live: live,
            checkpoint: CheckpointComparison.candidate(
                directory: directory, encryption: encryption, fileSystem: fileSystem, reader: reader, evidence: evidence),
            keys: keys, forgottenMeanwhile: forgottenMeanwhile, encryption: encryption, fileSystem: fileSystem, window: window,
            into: &report)
        for (person, count) in (keys?.unopened ?? [:]).sorted(by: { $0.key < $1.key }) {
            report.problems.append(AuditProblem(
                code: "personalTextUnreadable", rule: "P2", location: nil,
                message: "\(count) personal text(s) of \(person), who was never forgotten, cannot be opened: their key is missing from \(LedgerDirectory.personalKeysName); restore it from a backup of the ledger directory"))
        }
        switch report.checkpoint {
        case .none, .matchesReplay, .notCompared: break
        case .differs(let sequenceNumber, let reason):
            report.problems.append(AuditProblem(
                code: "checkpointDiffers", location: nil,
                message: "the checkpoint at sequence \(sequenceNumber) differs from a replay: \(reason); run `tally rebuild` (it is only a cache)"))
        case .unreadable(let reason):
            report.problems.append(AuditProblem(
                code: "checkpointUnreadable", location: nil,
                message: "\(reason); the ledger opens by full replay, run `tally rebuild` to stop this warning"))
        }
        switch report.readSide {
        case .none, .matchesReplay, .notCompared: break
        case .differs(let sequenceNumber, let reason):
            report.problems.append(AuditProblem(
                code: "readSideDiffers", location: nil, sequenceNumber: sequenceNumber,
                message: "the read-side store differs from the journal: \(reason); it is never served as it is: run `tally rebuild` (the next open rebuilds it too)"))
        case .damaged(let reason):
            report.problems.append(AuditProblem(
                code: "readSideDamaged", location: nil,
                message: "\(reason); the next open rebuilds it into a new file"))
        }
        return report
    }

    /// Folds the journal once, front to back, checking every event (it decodes, its shares sum
    /// to its amount) and, at the end, the domain invariants. The fold writes a scratch store
    /// with its history, as `tally rebuild` does (`StoreRebuild`): memory does not grow with
    /// the history. Where it passes the checkpoint's sequence number it is compared with it;
    /// where it passes the live store's, the scratch store is compared with the live one,
    /// table by table. It stops at the first event that does not decode (later state would be
    /// meaningless); a comparison beyond it is not made.
    private static func foldComparing(
        _ reader: JournalReader, live: ReadSideComparison.Live, checkpoint: CheckpointComparison.Found,
        keys: PersonalKeyRing?, forgottenMeanwhile: Set<PersonID>, encryption: JournalEncryption?, fileSystem: any FileSystem, window: Int,
        into report: inout AuditReport
    ) throws(LedgerError) {
        var live = live
        var checkpoint = checkpoint
        if !forgottenMeanwhile.isEmpty {
            let reason = "\(forgottenMeanwhile.map(\.description).sorted().joined(separator: ", ")) forgotten while the audit ran; audit again to compare"
            if case .compare = live { live = .settled(.notCompared(reason)) }
            if case .compare(let candidate) = checkpoint {
                candidate.store.close()
                checkpoint = .settled(.notCompared(reason))
            }
        }
        var stops: Set<UInt64> = []
        var liveStore: (coverage: StoreCoverage, tables: [String: String])?
        switch live {
        case .settled(let status):
            report.readSide = status
        case .compare(let coverage, let tables):
            if let status = ReadSideComparison.check(coverage, against: reader) {
                report.readSide = status
            } else {
                liveStore = (coverage, tables)
            }
        }
        var candidate: CheckpointComparison.Candidate?
        switch checkpoint {
        case .settled(let status):
            report.checkpoint = status
        case .compare(let found):
            candidate = found
            stops.insert(found.checkpoint.sequenceNumber)
        }
        defer { candidate?.store.close() }
        // On an injected file system (tests) there is no SQLite: the fold stays in memory.
        let scratch = try fileSystem.isOperatingSystemFileSystem ? ScratchFolder() : nil
        defer { scratch?.remove() }
        let pageKey = ReadSide.pageKey(encryption)
        var store: LedgerStore?
        if let scratch {
            do throws(StoreError) {
                store = try scratch.store(key: pageKey)
                if let liveStore { stops.insert(liveStore.coverage.sequenceNumber) }
            } catch {
                if liveStore != nil { report.readSide = .notCompared("the scratch store could not be built: \(error)") }
                if let candidate {
                    report.checkpoint = .notCompared("the scratch store could not be built: \(error)")
                    stops.remove(candidate.checkpoint.sequenceNumber)
                    candidate.store.close()
                }
                candidate = nil
                liveStore = nil
            }
        }
        defer { store?.close() }
        let last = reader.lastSequenceNumber
        var compared = (checkpoint: false, store: false)
        var folded = FoldedState()
        do throws(LedgerError) {
            try StoreRebuild.fold(
                reader, through: last, personalTexts: keys, into: store, window: window, stops: stops,
                visit: { committed in
                    report.eventsDecoded += 1
                    let problems = shareProblems(in: committed.event.payload)
                    guard !problems.isEmpty else { return }
                    let location = reader.location(of: committed.sequenceNumber)
                    for problem in problems {
                        report.problems.append(AuditProblem(code: "sharesDoNotSumToAmount", rule: problem.rule, location: location, message: problem.message))
                    }
                },
                reached: { folded, sequenceNumber throws(LedgerError) in
                    if let candidate, let store, candidate.checkpoint.sequenceNumber == sequenceNumber {
                        report.checkpoint = CheckpointComparison.compare(candidate, with: folded, scratch: store)
                        compared.checkpoint = true
                    }
                    if let liveStore, liveStore.coverage.sequenceNumber == sequenceNumber, let store {
                        report.readSide = ReadSideComparison.compare(liveStore.tables, coverage: liveStore.coverage, with: store, journalLast: last)
                        compared.store = true
                    }
                },
                end: { end in
                    checkDomainInvariants(end, into: &report)
                    folded = end
                })
        } catch .readSide(let reason) {
            throw .readSide("the audit's scratch files in \(scratch?.path.string ?? "memory"): \(reason)")
        } catch {
            // The journal's own errors keep their code; anything else stopped an event's decoding.
            let problem: JournalProblem? = if case .storage(.corruption(let problem)) = error { problem } else { nil }
            let fromJournal = if case .storage = error { true } else { false }
            report.problems.append(AuditProblem(
                code: fromJournal ? error.code : "eventUndecodable",
                location: problem?.location ?? reader.location(of: folded.state.nextSequenceNumber), message: problem?.detail ?? error.message))
        }
        let reached = folded.state.nextSequenceNumber - 1
        if let candidate, !compared.checkpoint {
            report.checkpoint = .notCompared("the journal's fold stops at sequence \(reached), before the checkpoint's \(candidate.checkpoint.sequenceNumber)")
        }
        if let liveStore, store != nil, !compared.store {
            report.readSide = .notCompared("the journal's fold stops at sequence \(reached), before the store's \(liveStore.coverage.sequenceNumber)")
        }
    }

    /// A folder of the audit's own in the temporary directory (0700), for the fold's scratch
    /// store; removed afterwards. Its name holds the audit's process id, so that the
    /// next audit removes what one killed on the way left (its scratch store holds the ledger's
    /// data, texts included: P3).
    private struct ScratchFolder {
        static let prefix = "tally-audit-scratch-"
        let path: FilePath

        init() throws(LedgerError) {
            let temporary = FileManager.default.temporaryDirectory.path
            Self.removeLeftovers(in: temporary)
            path = FilePath(temporary).appending("\(Self.prefix)\(getpid())-\(UUID().uuidString)")
            guard mkdir(path.string, 0o700) == 0 else {
                throw .readSide("cannot create the audit's scratch folder \(path) (set TMPDIR to a writable folder): \(String(cString: strerror(errno)))")
            }
        }

        /// Removes the scratch folders of audits whose process is gone and that nothing wrote
        /// for an hour (a temporary folder shared with another process namespace may hold a
        /// running audit whose process id means nothing here; a running audit writes every window).
        private static func removeLeftovers(in temporary: String) {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? [] where name.hasPrefix(prefix) {
                // Only a name this code makes: the prefix, a process id, a UUID.
                let rest = name.dropFirst(prefix.count)
                guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]), pid > 0,
                      UUID(uuidString: String(rest[rest.index(after: dash)...])) != nil,
                      kill(pid, 0) != 0, errno == ESRCH else { continue }
                let folder = FilePath(temporary).appending(name).string
                let files = [folder] + ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).map { folder + "/" + $0 }
                let written = files.compactMap { try? FileManager.default.attributesOfItem(atPath: $0)[.modificationDate] as? Date }
                guard written.allSatisfy({ $0.timeIntervalSinceNow < -leftoverAgeSeconds }) else { continue }
                try? FileManager.default.removeItem(atPath: folder)
            }
        }

        /// How long a dead process's scratch folder stays unwritten before an audit removes it.
        static let leftoverAgeSeconds: TimeInterval = 3_600

        private var storePath: String { path.appending(LedgerDirectory.readSideStoreName).string }

        /// A new, empty store (0600, as every database file), filled in bulk without the history
        /// tables' indexes: it is digested and removed, never queried.
        func store(key: SymmetricKey) throws(StoreError) -> LedgerStore {
            let store = try LedgerStore(path: storePath, key: key)
            try store.beginBulkLoad()
            try store.dropHistoryIndexes()
            return store
        }

        func remove() { try? FileManager.default.removeItem(atPath: path.string) }
    }

    /// S3/S7: resolved shares stored in an event sum exactly to its amount.
    static func shareProblems(in payload: EventPayload) -> [(rule: String, message: String)] {
        func check(_ amount: Money, _ shares: [PersonShare], rule: String, what: String) -> [(rule: String, message: String)] {
            let sum = shares.reduce(Int64(0)) { $0 &+ $1.amount.minorUnits }
            guard sum != amount.minorUnits else { return [] }
            return [(rule, "\(what): shares sum to \(sum) minor units, the amount is \(amount.minorUnits)")]
        }
        switch payload {
        case .transactionRecorded(let event):
            return event.details.split.map { check(event.details.amount, $0.shares, rule: "S3", what: "transaction \(event.transactionID)") } ?? []
        case .transactionEdited(let event):
            return event.details.split.map { check(event.details.amount, $0.shares, rule: "S3", what: "edit of \(event.transactionID)") } ?? []
        case .templateActivated(let event):
            return event.details.split.map { check(event.details.amount, $0.shares, rule: "S3", what: "transaction \(event.transactionID)") } ?? []
        case .groupExpenseRecorded(let event):
            return check(event.amount, event.owed, rule: "S7", what: "group expense \(event.expenseID)")
        case .groupExpenseEdited(let event):
            return check(event.expense.amount, event.expense.owed, rule: "S7", what: "edit of group expense \(event.expense.expenseID)")
        default:
            return []
        }
    }

    /// S8 and the read models' own problem lists.
    private static func checkDomainInvariants(_ folded: FoldedState, into report: inout AuditReport) {
        let models = folded.readModels
        for problem in models.wallets.problems + models.debts.problems + models.budgets.problems {
            report.problems.append(AuditProblem(
                code: "projectionProblem", rule: problem.rule,
                location: nil, sequenceNumber: problem.sequenceNumber,
                message: problem.message))
        }
        for groupID in models.debts.groupIDs {
            do {
                for (currency, balances) in try models.debts.groupBalances(groupID) {
                    let sum = balances.reduce(Int64(0)) { $0 &+ $1.balance.minorUnits }
                    if sum != 0 {
                        report.problems.append(AuditProblem(
                            code: "groupBalancesNotZero", rule: "S8", location: nil,
                            message: "group \(groupID) balances in \(currency) sum to \(sum) minor units, not 0"))
                    }
                }
            } catch {
                report.problems.append(AuditProblem(code: "overflow", rule: "G1", location: nil, message: "group \(groupID): \(error)"))
            }
        }
    }
}
