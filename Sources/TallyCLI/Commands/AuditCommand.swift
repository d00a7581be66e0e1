import ArgumentParser

/// `tally audit`: checks frames, checksums, the hash chain, sequence continuity,
/// decodability, domain invariants and the checkpoint.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Verify the journal and the domain invariants.",
        discussion: "Exit 0 clean, 1 problems found, 2 could not run. Every problem names segment, offset and sequence.")

    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions
    @Flag(help: "Print the report as one JSON object.") var json = false

    func run() async throws {
        let summary = try AuditSummary.run(path: try location.path(), encryption: try key.encryption(), chainKey: try key.chainKey())
        try Terminal.line(json ? summary.json.text : summary.text)
        if !summary.isClean { throw ExitCode(1) }
    }
}
