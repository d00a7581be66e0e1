import Foundation
import SystemPackage
import Tally
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
    /// The read-side store compared with a rebuild from the journal.
    var readSide = "none"
    var problems: [Problem] = []

    var isClean: Bool { problems.isEmpty }

    /// Runs every check on the ledger at `path` (`LedgerAudit`: journal, decodability, domain
    /// invariants, checkpoint == replay).
    static func run(path: String, encryption: JournalEncryption?, chainKey: [UInt8]? = nil) throws -> AuditSummary {
        try LedgerAccess.requireLedger(at: path)
        let progress = ProgressLine("audit")
        defer { progress.finish() }
        let report: AuditReport
        do {
            report = try LedgerAudit.audit(at: FilePath(path), chainKey: chainKey, encryption: encryption) { bytes in
                progress.update(done: UInt64(max(bytes, 0)), total: 0)
            }
        } catch {
            throw CLIError("\(path): \(error.message)")
        }
        var summary = AuditSummary()
        summary.segments = report.journal.segmentCount
        summary.frames = report.journal.frameCount
        summary.records = report.journal.recordCount
        summary.bytes = report.journal.bytesVerified
        summary.lastSequenceNumber = report.journal.lastSequenceNumber
        summary.encryptedFramesNotDecrypted = report.journal.encryptedFramesNotDecrypted
        summary.eventsDecoded = report.eventsDecoded
        summary.problems = report.problems.map { problem in
            Problem(
                code: problem.code, segment: problem.location?.segment, offset: problem.location?.offset,
                sequenceNumber: problem.sequenceNumber,
                message: problem.rule.map { "[\($0)] \(problem.message)" } ?? problem.message)
        }
        summary.checkpoint = switch report.checkpoint {
        case .none: "none"
        case .matchesReplay(let sequenceNumber): "sequence \(sequenceNumber), equals a replay of the journal"
        case .differs(let sequenceNumber, let reason): "sequence \(sequenceNumber), DIFFERS from a replay: \(reason)"
        case .unreadable(let reason): "unreadable: \(reason)"
        case .notCompared(let reason): "not compared: \(reason)"
        }
        summary.readSide = switch report.readSide {
        case .none: "none"
        case .matchesReplay(let sequenceNumber, 0): "sequence \(sequenceNumber), every table equals a rebuild from the journal"
        case .matchesReplay(let sequenceNumber, let behind):
            "sequence \(sequenceNumber) (\(behind) event(s) behind the journal, caught up at the next open), every table equals a rebuild from the journal"
        case .differs(let sequenceNumber, let reason): "sequence \(sequenceNumber), DIFFERS from the journal: \(reason)"
        case .damaged(let reason): "DAMAGED: \(reason)"
        case .notCompared(let reason): "not compared: \(reason)"
        }
        return summary
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
            "readSide": .string(readSide),
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
            "Read side: \(readSide)",
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
