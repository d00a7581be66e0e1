import ArgumentParser
import TallyInterchange
import TallyModel

/// `--as PERSON`: who a read is for (G7). The CLI is the household admin's tool, run on the
/// ledger's folder with its key: without `--as` it reads for no one, the explicit audit read
/// (every member's entries, `Viewer.audit`), and its help says so (Docs/Privacy.md).
struct ViewerOption: ParsableArguments {
    @Option(
        name: .customLong("as"),
        help: ArgumentHelp(
            "Read as this person (id or name): only what they see (G7: their personal entries, the shared ones, the household's wallets and their own). Without it: the household's audit read, every member's entries.",
            valueName: "PERSON"))
    var person: String?

    /// The viewer `--as` names among `people` (id and display name); ``Viewer/audit`` without it.
    /// - Throws: a CLI error naming the known people when no one (or several) has that name.
    func viewer(among people: [PersonID: String]) throws -> Viewer {
        guard let person else { return .audit }
        return .member(try QueryOptions.resolve(person, "--as", people.map { (id: $0.key, name: $0.value) }))
    }

    /// The viewer `--as` names among the people of `history`.
    func viewer(in history: LedgerHistory) throws -> Viewer {
        try viewer(among: history.namedPeople)
    }
}
