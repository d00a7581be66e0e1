import Foundation
import SystemPackage
import TallyInterchange
import TallyJournal
import TallyModel
import TallyProjections

/// What `tally audit` found: journal structure (frames, CRC, chain, continuity), decodability,
/// domain invariants (read-model problems) and the checkpoint.
struct AuditSummary {
    struct Problem {
        var code: String
        var segment: String?
        var offset: Int64?
        var sequenceNumber: UInt64?
        var message: String
    }

    var segments = 0
    var frames = 0
    var records = 0
    var bytes: Int64 = 0
    var lastSequenceNumber: UInt64 = 0
    var eventsDecoded = 0
    var encryptedFramesNotDecrypted = 0
    var checkpoint = "none"
    var problems: [Problem] = []

    var isClean: Bool { problems.isEmpty }

    /// Runs every check on the ledger at `path`.
    static func run(path: String, encryption: JournalEncryption?) throws -> AuditSummary {
        try LedgerAccess.requireLedger(at: path)
        let journal = FilePath(path).appending("journal")
        let progress = ProgressLine("audit")
        defer { progress.finish() }
        let report: VerificationReport
        do {
            report = try JournalVerifier.verify(at: journal, encryption: encryption) { bytes in
                progress.update(done: UInt64(max(bytes, 0)), total: 0)
            }
        } catch {
            throw CLIError("\(journal.string): \(error.description)")
        }
        var summary = AuditSummary()
        summary.segments = report.segmentCount
        summary.frames = report.frameCount
        summary.records = report.recordCount
        summary.bytes = report.bytesVerified
        summary.lastSequenceNumber = report.lastSequenceNumber
        summary.encryptedFramesNotDecrypted = report.encryptedFramesNotDecrypted
        for problem in report.problems {
            summary.problems.append(Problem(
                code: problem.kind.rawValue, segment: problem.location.segment, offset: problem.location.offset,
                sequenceNumber: problem.location.sequenceNumber, message: problem.detail))
        }
        let canDecrypt = report.encryptedFramesNotDecrypted == 0
        if canDecrypt {
            summary.checkDomain(path: path, encryption: encryption)
        }
        summary.checkpoint = Self.checkpointStatus(path: path)
        return summary
    }

    /// Decodes every event of the readable prefix and collects read-model problems.
    private mutating func checkDomain(path: String, encryption: JournalEncryption?) {
        do {
            let history = try LedgerHistory.load(at: FilePath(path), encryption: encryption)
            eventsDecoded = history.events.count
            let models = history.readModels
            for (model, list) in [("wallets", models.wallets.problems), ("debts", models.debts.problems), ("budgets", models.budgets.problems)] {
                for problem in list {
                    problems.append(Problem(
                        code: "domainInvariant", segment: nil, offset: nil, sequenceNumber: problem.sequenceNumber,
                        message: "\(model) [\(problem.rule)]: \(problem.message)"))
                }
            }
        } catch {
            if !problems.contains(where: { $0.code != "domainInvariant" }) {
                problems.append(Problem(code: error.code, segment: nil, offset: nil, sequenceNumber: nil, message: error.message))
            }
        }
    }

    private static func checkpointStatus(path: String) -> String {
        let directory = path + "/checkpoints"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.isEmpty ? "none" : "present (not compared by this build)"
    }

    /// The JSON document of `audit --json`.
    var json: CanonicalJSON {
        .object([
            "clean": .bool(isClean),
            "segments": .integer(Int64(segments)),
            "frames": .integer(Int64(frames)),
            "records": .integer(Int64(records)),
            "bytes": .integer(bytes),
            "lastSequenceNumber": .integer(Int64(clamping: lastSequenceNumber)),
            "eventsDecoded": .integer(Int64(eventsDecoded)),
            "encryptedFramesNotDecrypted": .integer(Int64(encryptedFramesNotDecrypted)),
            "checkpoint": .string(checkpoint),
            "problems": .array(problems.map { problem in
                .object([
                    "code": .string(problem.code),
                    "segment": problem.segment.map(CanonicalJSON.string) ?? .null,
                    "offset": problem.offset.map(CanonicalJSON.integer) ?? .null,
                    "sequenceNumber": problem.sequenceNumber.map { .integer(Int64(clamping: $0)) } ?? .null,
                    "message": .string(problem.message),
                ])
            }),
        ])
    }

    /// The human summary.
    var text: String {
        var lines = [
            "Journal: \(segments) segment\(segments == 1 ? "" : "s"), \(frames) frames, \(records) records, \(bytes) bytes, last sequence \(lastSequenceNumber)",
            "Events decoded: \(eventsDecoded)",
            "Checkpoint: \(checkpoint)",
        ]
        if encryptedFramesNotDecrypted > 0 {
            lines.append("Encrypted frames checked by CRC and chain only (no key): \(encryptedFramesNotDecrypted)")
        }
        if problems.isEmpty {
            lines.append("Result: clean")
        } else {
            lines.append("Result: \(problems.count) problem\(problems.count == 1 ? "" : "s")")
            for problem in problems {
                var place: [String] = []
                if let segment = problem.segment { place.append("segment \(segment)") }
                if let offset = problem.offset { place.append("offset \(offset)") }
                if let sequence = problem.sequenceNumber { place.append("sequence \(sequence)") }
                lines.append("  \(problem.code)" + (place.isEmpty ? "" : " at " + place.joined(separator: ", ")) + ": \(problem.message)")
            }
        }
        return lines.joined(separator: "\n")
    }
}
