import ArgumentParser
import Tally
import TallyInterchange
import TallyModel

/// `tally search TEXT`: people, groups, recurring items, categories and wallets by name (issue
/// 31 item 3); transactions are searched by `tally transactions --text`.
struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Find people, groups, subscriptions, categories and wallets by name.",
        discussion: "Every word must start a word of the name, case and accents ignored. Reads the journal without the writer lock. Transactions: `tally transactions --text`.")

    @Argument(help: "The words to find.") var text: String
    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions
    @OptionGroup var viewer: ViewerOption
    @Option(name: .customLong("limit"), help: ArgumentHelp("Matches at most, 1...\(Ledger.searchHitsMax).", valueName: "N")) var limit = 50
    @Flag(help: "Print JSON: [{kind,id,name}].") var json = false

    func run() async throws {
        let path = try location.path()
        let history = try LedgerAccess.history(at: path, encryption: try key.encryption())
        let reader = try viewer.viewer(in: history)
        let hits: [SearchHit]
        do {
            hits = try SearchHit.search(text, visibleTo: reader, limit: limit, state: history.state, models: history.readModels)
        } catch {
            throw CLIError.ledger(error, at: path)
        }
        if json {
            try Terminal.line(CanonicalJSON.array(hits.map { hit in
                .object(["kind": .string(hit.kind.rawValue), "id": .string(hit.id.description), "name": .string(hit.name)])
            }).text)
            return
        }
        var table = TextTable([("Kind", .left), ("Name", .left), ("Id", .left)])
        for hit in hits { table.add([hit.kind.rawValue, hit.name, hit.id.description]) }
        try Terminal.line(hits.isEmpty ? "Nothing is named \"\(text)\"." : table.render())
    }
}
