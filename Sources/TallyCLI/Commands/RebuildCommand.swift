import ArgumentParser
import Tally

/// `tally rebuild`: rebuilds the read-side store from the journal (Docs/Engine.md "Read side").
struct RebuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild",
        abstract: "Rebuild the read-side store (read-side/) from the journal.",
        discussion: "The store is a rebuildable cache of the read models; open catches it up or rebuilds it by itself. Use this after restoring files by hand or to check that a rebuild works. Takes the writer lock.")

    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions

    func run() async throws {
        let path = try location.path()
        let ledger = try await LedgerAccess.open(at: path, create: false, encryption: try key.encryption())
        let progress = ProgressLine("rebuild")
        let counts: [String: Int]
        do {
            counts = try await ledger.rebuildReadSide { done, total in progress.update(done: UInt64(done), total: UInt64(total)) }
        } catch {
            progress.finish()
            try? await ledger.close()
            throw CLIError.ledger(error, at: path)
        }
        progress.finish()
        let last = await ledger.lastSequenceNumber
        try await LedgerAccess.close(ledger, at: path)
        let rows = counts.keys.sorted().map { "\($0) \(counts[$0] ?? 0)" }.joined(separator: ", ")
        try Terminal.line("rebuilt the read side of \(path) through sequence \(last): \(rows)")
    }
}
