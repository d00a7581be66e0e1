import TallyInterchange
import TallyModel

extension LedgerHistory {
    /// Every person whose name can still be read (a forgotten one's cannot), by id: what a
    /// `--as`, `--person`, `--with` or `--of` option resolves a name against
    /// (`QueryOptions.resolve`).
    var namedPeople: [PersonID: String] {
        Dictionary(state.people.compactMap { entry in entry.value.name.text.map { (entry.key, $0) } }, uniquingKeysWith: { first, _ in first })
    }

    /// The person `text` (an id or a name) names for `option`.
    /// - Throws: `CLIError` naming the option when no person, or several, have that name.
    func person(_ text: String, option: String) throws -> PersonID {
        try QueryOptions.resolve(text, option, namedPeople.map { (id: $0.key, name: $0.value) })
    }
}
