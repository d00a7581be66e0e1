import ArgumentParser
import SystemPackage
import Tally
import TallyJournal

/// `tally repair`: shows what a repair of a damaged or truncated ledger would keep and set
/// aside, and with `--apply` does it. Never automatic; nothing is deleted (see Docs/CLI.md).
struct RepairCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repair",
        abstract: "Keep the valid prefix of a damaged ledger; set the rest aside (with --apply).",
        discussion: "Without --apply only prints the plan: exit 0 nothing to repair, 1 a repair is needed. With --apply exit 0 repaired. Exit 2 could not run.")

    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions
    @Flag(help: "Carry out the plan: cut the journal after its valid prefix and set the rest aside.") var apply = false

    func run() async throws {
        let path = try location.path()
        try LedgerAccess.requireLedger(at: path)
        let encryption = try key.encryption()
        let chainKey = try key.chainKey()
        let plan: LedgerRepair.Plan
        do {
            plan = try LedgerRepair.plan(at: FilePath(path), encryption: encryption, chainKey: chainKey)
        } catch {
            throw CLIError.ledger(error, at: path)
        }
        guard !plan.isEmpty else {
            try Terminal.line("\(path): nothing to repair; the journal ends at sequence \(plan.keptThrough) and agrees with its checkpoint and key store")
            return
        }
        try Terminal.line(Self.describe(plan, path: path))
        guard apply else {
            try Terminal.line("nothing was changed; run `tally repair \(path) --apply` to do this")
            throw ExitCode(1)
        }
        let setAside: FilePath?
        do {
            setAside = try LedgerRepair.apply(plan, at: FilePath(path), encryption: encryption, chainKey: chainKey)
        } catch {
            throw CLIError.ledger(error, at: path)
        }
        try Terminal.line("repaired: the journal ends at sequence \(plan.keptThrough); what was set aside is in \(setAside?.string ?? path)")
    }

    static func describe(_ plan: LedgerRepair.Plan, path: String) -> String {
        let kept = plan.keptThrough == 0 ? "no records" : "records 1...\(plan.keptThrough)"
        var lines = ["\(path): a repair keeps \(kept) (the journal's valid prefix)"]
        for problem in plan.journal.problems { lines.append("  damage: \(problem)") }
        if let cut = plan.journal.cutSegment { lines.append("  cut \(cut) at offset \(plan.journal.cutOffset); the bytes after it are set aside") }
        for segment in plan.journal.setAsideSegments { lines.append("  set aside segment \(segment)") }
        for loss in plan.journal.losses { lines.append("  LOST: \(loss)") }
        if let empty = plan.journal.emptyFirstSegment {
            let chain = empty.isKeyedChain ? "a keyed chain" : "an unkeyed chain; give --chain-key-file if the ledger's chain is keyed"
            lines.append("  no segment is kept: write an empty first segment (\(chain)), as a new ledger starts")
        }
        if let evidence = plan.evidence {
            lines.append("  LOST: \(evidence.source) proves records through \(evidence.lastSequenceNumber) were acknowledged; records \(plan.keptThrough + 1)...\(evidence.lastSequenceNumber) are not in the journal's valid prefix (damaged or missing; any bytes of them are set aside) and are given up. Restore the journal from a backup instead to keep them")
        }
        if let mismatch = plan.checkpointMismatch { lines.append("  the checkpoint disagrees with the journal: \(mismatch)") }
        if plan.setsAsideStore { lines.append("  set aside the read-side store with its checkpoint; the next open rebuilds it by replay") }
        return lines.joined(separator: "\n")
    }
}
