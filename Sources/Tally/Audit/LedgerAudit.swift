import SystemPackage
import TallyJournal
import TallyModel
import TallyProjections

/// A full audit of a ledger directory: the journal's frames, checksums, hash chain and
/// sequence continuity; every event decodable; the domain invariants (shares sum to their
/// amounts, S3/S7; group balances sum to zero, S8; every event applicable to the read models);
/// and the newest checkpoint equal to a replay from the journal alone.
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
    ///   ``Ledger/recoverInterruptedSwap(at:fileSystem:)``).
    public static func audit(
        at directory: FilePath, chainKey: [UInt8]? = nil, encryption: JournalEncryption? = nil,
        fileSystem: any FileSystem = PosixFileSystem(), progress: (@Sendable (Int64) -> Void)? = nil
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
        let folded: FoldedState
        let reader: JournalReader
        do {
            // The verifier listed the damage; the prefix before it is still folded and checked,
            // and a journal shorter than the checkpoints or key store prove is a problem too.
            let evidence = try LedgerEvidence.gather(
                checkpoints: CheckpointStore(
                    directory: LedgerDirectory(directory).checkpoints, fileSystem: fileSystem, encryption: encryption),
                keys: keys)
            reader = try JournalReader.open(
                at: journalPath, fileSystem: fileSystem, encryption: encryption, evidence: evidence, allowingDamage: true)
            for missing in reader.recoveryReport.problems where missing.kind == .missingRecords {
                report.problems.append(AuditProblem(code: missing.kind.rawValue, location: missing.location, message: missing.detail))
            }
            folded = try foldCheckingInvariants(reader, personalTexts: keys, into: &report)
        } catch {
            let code = (error as? JournalError)?.code ?? "journalUnreadable"
            report.problems.append(AuditProblem(code: code, location: nil, message: "\(error)"))
            return report
        }
        checkDomainInvariants(folded, into: &report)
        for (person, count) in (keys?.unopened ?? [:]).sorted(by: { $0.key.description < $1.key.description }) {
            report.problems.append(AuditProblem(
                code: "personalTextUnreadable", rule: "P2", location: nil,
                message: "\(count) personal text(s) of \(person), who was never forgotten, cannot be opened: their key is missing from \(LedgerDirectory.personalKeysName); restore it from a backup of the ledger directory"))
        }
        report.checkpoint = CheckpointComparison.compare(
            store: CheckpointStore(
                directory: LedgerDirectory(directory).checkpoints, fileSystem: fileSystem, encryption: encryption),
            journalPath: journalPath, fileSystem: fileSystem, encryption: encryption, personalTexts: keys)
        switch report.checkpoint {
        case .none, .matchesReplay, .notCompared: break
        case .differs(let sequenceNumber, let reason):
            report.problems.append(AuditProblem(
                code: "checkpointDiffers", location: nil,
                message: "the checkpoint at sequence \(sequenceNumber) differs from a replay: \(reason); delete it (it is only a cache) and reopen"))
        case .unreadable(let reason):
            report.problems.append(AuditProblem(
                code: "checkpointUnreadable", location: nil,
                message: "\(reason); the ledger opens by full replay, delete the file to stop this warning"))
        }
        report.readSide = ReadSideComparison.compare(
            directory: directory, encryption: encryption, fileSystem: fileSystem, reader: reader, folded: folded, personalTexts: keys)
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

    /// Decodes and folds every event, checking per-event invariants; stops at the first event
    /// that does not decode (later state would be meaningless).
    private static func foldCheckingInvariants(
        _ reader: JournalReader, personalTexts keys: PersonalKeyRing?, into report: inout AuditReport
    ) throws -> FoldedState {
        var folded = FoldedState()
        try reader.forEachFrame(from: 1) { frame in
            for record in frame.records {
                let location = JournalLocation(segment: frame.segment, offset: frame.offset, sequenceNumber: record.sequenceNumber)
                let event: Event
                do throws(LedgerError) {
                    event = try Ledger.decode(record, personalTexts: keys)
                } catch {
                    report.problems.append(AuditProblem(code: "eventUndecodable", location: location, message: error.message))
                    return false
                }
                for problem in shareProblems(in: event.payload) {
                    report.problems.append(AuditProblem(code: "sharesDoNotSumToAmount", rule: problem.rule, location: location, message: problem.message))
                }
                do throws(LedgerError) {
                    try folded.apply(event, sequenceNumber: record.sequenceNumber, at: location)
                } catch {
                    let problem: JournalProblem? = if case .storage(.corruption(let problem)) = error { problem } else { nil }
                    report.problems.append(AuditProblem(
                        code: error.code, location: problem?.location ?? location, message: problem?.detail ?? error.message))
                    return false
                }
                report.eventsDecoded += 1
            }
            return true
        }
        return folded
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
